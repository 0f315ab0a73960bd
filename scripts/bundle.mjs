// The build's last step: the modules the installed CLI starts from (bin/run.js's entry point,
// each command, each hook) are bundled, over tsc's output at the same paths, with the packages they
// always load (oclif, chalk, js-yaml). Start-up then reads a few files instead of resolving a few
// hundred. What they share (oclif above all) is one chunk in dist/chunks, so every command and
// hook sees the same oclif and chalk; what only some runs need is loaded when asked for (the
// Kubernetes client, the `yaml` package) or split into chunks of its own.
import {build} from 'esbuild'

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
  // oclif and its dependencies are CommonJS: give them require, __filename and __dirname.
  banner: {
    js: "import {createRequire as __kctlRequire} from 'node:module'; import {fileURLToPath as __kctlPath} from 'node:url'; const require = __kctlRequire(import.meta.url); const __filename = __kctlPath(import.meta.url); const __dirname = __kctlPath(new URL('.', import.meta.url));",
  },
  // Less to parse at every start; names are kept, so KCTL_DEBUG's stack traces still name functions.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})
