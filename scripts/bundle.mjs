// The build's last step: what the installed CLI runs becomes one CommonJS script,
// dist/chunks/app-<hash>.cjs (src/cli/app.ts: the entry point, every command and hook, oclif, chalk,
// js-yaml), in ASCII, that every start runs through V8's code cache (src/cli/script-cache.ts). A start then
// reads two files instead of resolving a few hundred, and neither parses nor compiles most of what
// it runs. The Kubernetes client and the `yaml` package stay outside, loaded when a run needs them.
//
// The files oclif and bin/run.js load (dist/cli/main.js, each command, each hook) are written over
// tsc's output as small modules that hand out what the script holds.
import {readFile, readdir, writeFile} from 'node:fs/promises'
import {basename} from 'node:path'

import {build} from 'esbuild'

import {helpFlagsOf} from '../dist/cli/help-flags.js'
import {asciiScript, checkVmScript, forVmScript} from './vm-script.mjs'

const external = ['@kubernetes/client-node', 'yaml', 'typescript']

const app = await build({
  entryPoints: ['src/cli/app.ts'],
  outdir: 'dist/chunks',
  entryNames: 'app-[hash]',
  outExtension: {'.js': '.cjs'},
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // typescript: oclif reads tsconfig files with it only when running from sources.
  external,
  plugins: [forVmScript(external)],
  metafile: true,
  // Less to parse on a first start; names are kept, so KCTL_DEBUG's stack traces still name functions.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})
const [appFile] = Object.keys(app.metafile.outputs)
const script = asciiScript(await readFile(appFile, 'utf8'), appFile)
checkVmScript(script, appFile)
await writeFile(appFile, script)

const commands = (await readdir('src/commands')).map((f) => f.replace(/\.ts$/, ''))
const hooks = (await readdir('src/hooks')).map((f) => f.replace(/\.ts$/, ''))
// oclif's (its helpAddition): a run that asks for help has a code cache of its own (src/cli/start.ts).
const helpFlags = helpFlagsOf(JSON.parse(await readFile('package.json', 'utf8')).oclif.additionalHelpFlags)
const entry = await readFile('src/cli/app.ts', 'utf8')
for (const name of [...commands, ...hooks]) {
  if (!entry.includes(`/${name}.js')`)) throw new Error(`src/cli/app.ts does not load ${name}`)
}
const stubs = {
  'dist/cli/app.js': `import {loadApp} from './start.js'\nexport const app = loadApp(new URL('../chunks/${basename(appFile)}', import.meta.url), ${JSON.stringify(commands)}, ${JSON.stringify(helpFlags)})\n`,
  'dist/cli/main.js': `import {app} from './app.js'\nexport const {run} = app\n`,
}
for (const command of commands) {
  stubs[`dist/commands/${command}.js`] = `import {app} from '../cli/app.js'\nexport default (await app.commands['${command}']()).default\n`
}
for (const hook of hooks) {
  stubs[`dist/hooks/${hook}.js`] = `import {app} from '../cli/app.js'\nexport default (await app.hooks['${hook}']()).default\n`
}
for (const [file, text] of Object.entries(stubs)) await writeFile(file, `// Written by scripts/bundle.mjs.\n${text}`)
