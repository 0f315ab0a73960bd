// The build's last step: the modules the installed CLI starts from (bin/run.js's entry point,
// each command, each hook) are bundled, over tsc's output at the same paths, with the packages they
// always load (oclif, chalk, js-yaml). Start-up then reads a few files instead of resolving a few
// hundred. What they share (oclif above all) is one chunk in dist/chunks, so every command and
// hook sees the same oclif and chalk; what only some runs need is loaded when asked for (the
// Kubernetes client, the `yaml` package) or split into chunks of its own.
//
// oclif itself is a CommonJS bundle of its own, dist/chunks/oclif-<hash>.cjs, that every start runs
// through V8's code cache (src/cli/script-cache.ts): it is most of what a start compiles.
import {readFile} from 'node:fs/promises'
import {createRequire} from 'node:module'
import {basename, join, resolve} from 'node:path'

import {build} from 'esbuild'

// Less to parse at every start; names are kept, so KCTL_DEBUG's stack traces still name functions.
const minify = {minifyWhitespace: true, minifySyntax: true}

// A script run by node:vm cannot import() by itself (not without an experimental option, and not
// at all once its code comes from the cache): oclif's import() of commands and hooks goes through a
// function that loadScript hands in, and that imports as any module does.
const importThroughLoader = {
  name: 'import-through-loader',
  setup(b) {
    b.onLoad({filter: /[\\/]node_modules[\\/].*\.[cm]?js$/}, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('await import(', 'await __kctlImport('),
      loader: 'js',
    }))
  },
}

const oclifBundle = await build({
  entryPoints: [createRequire(import.meta.url).resolve('@oclif/core')],
  outdir: 'dist/chunks',
  entryNames: 'oclif-[hash]',
  outExtension: {'.js': '.cjs'},
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // typescript: oclif reads tsconfig files with it only when running from sources.
  external: ['typescript'],
  metafile: true,
  plugins: [importThroughLoader],
  ...minify,
  logLevel: 'warning',
})
const [oclifFile] = Object.keys(oclifBundle.metafile.outputs)
if (/\bawait import\(/.test(await readFile(oclifFile, 'utf8'))) throw new Error(`${oclifFile} still calls import() itself`)

// Every import of @oclif/core in the entries is this one module, which runs the bundle above.
const oclifThroughCodeCache = {
  name: 'oclif-through-code-cache',
  setup(b) {
    b.onResolve({filter: /^@oclif\/core$/}, () => ({path: '@oclif/core', namespace: 'oclif-bundle'}))
    b.onLoad({filter: /.*/, namespace: 'oclif-bundle'}, () => ({
      contents: `module.exports = require('./script-cache.ts').loadScript(require('node:path').join(__dirname, '..', 'chunks', ${JSON.stringify(basename(oclifFile))}))`,
      resolveDir: resolve('src/cli'),
      loader: 'js',
    }))
  },
}

const entries = ['cli/main', 'commands/check', 'commands/list', 'commands/plan', 'commands/reconcile', 'commands/watch', 'hooks/init', 'hooks/command-not-found']

await build({
  entryPoints: entries.map((e) => `src/${e}.ts`),
  outbase: 'src',
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  allowOverwrite: true,
  // typescript: oclif reads tsconfig files with it only when running from sources.
  external: ['@kubernetes/client-node', 'yaml', 'typescript'],
  // chalk and js-yaml's dependencies may be CommonJS: give them require, __filename and __dirname.
  banner: {
    js: "import {createRequire as __kctlRequire} from 'node:module'; import {fileURLToPath as __kctlPath} from 'node:url'; const require = __kctlRequire(import.meta.url); const __filename = __kctlPath(import.meta.url); const __dirname = __kctlPath(new URL('.', import.meta.url));",
  },
  plugins: [oclifThroughCodeCache],
  ...minify,
  logLevel: 'warning',
})
