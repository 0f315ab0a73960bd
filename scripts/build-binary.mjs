// `npm run build:binary`: kctl as one executable file, dist-bin/kctl (dist-bin/kctl.exe on
// Windows), made with Node's single-executable-application support: this Node, with one
// CommonJS script injected that holds all of kctl (src/cli/sea.ts: every command and hook, oclif,
// the Kubernetes client, `yaml`) and V8's code cache for it (useCodeCache). It runs without
// node_modules, without the clone and without a Node installed; it is built for this machine's
// OS and CPU.
//
// Steps: esbuild bundles src/cli/sea.ts with package.json and the oclif manifest built in;
// `node --experimental-sea-config` turns the script into a blob (compiling the code cache); the
// blob is injected into a copy of this Node with postject.
import {execFileSync} from 'node:child_process'
import {copyFileSync, chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {build} from 'esbuild'
import {inject} from 'postject'

import {checkVmScript, forVmScript} from './vm-script.mjs'

const OUT = process.env.KCTL_BINARY_DIR || 'dist-bin'
const exe = join(OUT, process.platform === 'win32' ? 'kctl.exe' : 'kctl')
const main = join(OUT, 'kctl-sea.cjs')
const blob = join(OUT, 'kctl-sea.blob')

const pjson = JSON.parse(readFileSync('package.json', 'utf8'))
const manifest = JSON.parse(readFileSync('oclif.manifest.json', 'utf8'))
if (manifest.version !== pjson.version) throw new Error(`oclif.manifest.json is for ${manifest.version}, package.json says ${pjson.version}: run npm run manifest`)
// `kctl help`: the help plugin's command, loaded from the bundle like kctl's own.
const help = JSON.parse(readFileSync('node_modules/@oclif/plugin-help/oclif.manifest.json', 'utf8')).commands.help
manifest.commands.help = {...help, pluginAlias: pjson.name, pluginName: pjson.name, relativePath: ['dist', 'commands', 'help.js']}

// The script's own require (a single executable's loads built-in modules only, and warns when asked
// for anything else) first asks cli/sea.ts for the paths oclif loads hooks from; anything else that
// is not built in is not found (a package kctl does not bundle: typescript, ws's native helpers).
// Its import()s of computed paths go to cli/sea.ts too.
const banner = `var __kctlSea = {};
var require = (function (base) {
  var isBuiltin = base('node:module').isBuiltin;
  var notFound = function (id) { return Object.assign(new Error("Cannot find module '" + id + "' (not in the single executable)"), {code: 'MODULE_NOT_FOUND'}) };
  var wrapped = function (id) {
    var m = __kctlSea.require && __kctlSea.require(id);
    if (m !== undefined) return m;
    if (!isBuiltin(id)) throw notFound(id);
    return base(id);
  };
  wrapped.resolve = function (id) { if (__kctlSea.require && __kctlSea.require(id) !== undefined) return id; throw notFound(id) };
  wrapped.cache = Object.create(null);
  return wrapped;
})(require);
var __kctlImport = function (specifier) { return __kctlSea.import(specifier) };
var __kctlImportMetaUrl = require('node:url').pathToFileURL(process.execPath).href;`

// What reads files next to the code reads them from the bundle or the executable instead.
const REWRITES = [
  // The `yaml` package, loaded on first use through a require made from import.meta.url: bundled.
  ['src/yaml-package.ts', "createRequire(__kctlImportMetaUrl)('yaml')", "require('yaml')"],
  // kctl check's built-in schemas: an asset of the executable.
  ['src/check/schema.ts', "readFileSync(new URL('../check/schemas/kubernetes.json.gz', __kctlImportMetaUrl))", "Buffer.from(require('node:sea').getAsset('kubernetes.json.gz'))"],
]
const rewritten = new Set()
function rewrite(text, path) {
  for (const [file, from, to] of REWRITES) {
    if (!path.endsWith(file)) continue
    if (!text.includes(from)) throw new Error(`${file} no longer has ${from}: update scripts/build-binary.mjs`)
    rewritten.add(file)
    text = text.replace(from, to)
  }
  return text
}

rmSync(OUT, {recursive: true, force: true})
mkdirSync(OUT, {recursive: true})
await build({
  entryPoints: ['src/cli/sea.ts'],
  outfile: main,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // oclif reads tsconfig files with it only when running from sources.
  external: ['typescript'],
  define: {KCTL_PACKAGE_JSON: JSON.stringify(pjson), KCTL_OCLIF_MANIFEST: JSON.stringify(manifest)},
  plugins: [forVmScript(['typescript'], rewrite)],
  banner: {js: banner},
  footer: {js: 'module.exports.main(process.argv.slice(2), __kctlSea);'},
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
})
checkVmScript(readFileSync(main, 'utf8'), main)
for (const [file] of REWRITES) if (!rewritten.has(file)) throw new Error(`${file} was not bundled: update scripts/build-binary.mjs`)

const assets = {'kubernetes.json.gz': 'src/check/schemas/kubernetes.json.gz'}
writeFileSync(join(OUT, 'sea-config.json'), JSON.stringify({main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets}, null, 2))
execFileSync(process.execPath, ['--experimental-sea-config', join(OUT, 'sea-config.json')], {stdio: ['ignore', 'ignore', 'inherit']})
copyFileSync(process.execPath, exe)
chmodSync(exe, 0o755)
// macOS: the copy's signature no longer matches once the blob is in it.
if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', exe])
await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  ...(process.platform === 'darwin' ? {machoSegmentName: 'NODE_SEA'} : {}),
})
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', exe])
for (const f of [blob, join(OUT, 'sea-config.json')]) rmSync(f)
process.stdout.write(`${exe}\n`)
