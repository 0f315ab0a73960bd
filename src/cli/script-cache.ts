// Runs a CommonJS bundle through V8's code cache: the code compiled by the previous run is kept
// under the cache directory, so a start neither parses the bundle nor compiles again the functions
// that ran last time. The cache file is named after the bundle (whose name carries a hash of its
// content), the variant (what the run does: each command compiles other functions), Node's version
// and the CPU; V8 itself refuses a cache made for other source or flags.
// Whatever goes wrong with the cache (no directory, read-only, refused), the bundle runs without it.
//
// Node's built-ins are require()d: an ESM import of node:fs would build its whole export list,
// streams included, at every start.
import {createRequire} from 'node:module'

import {restoreCompilerDefaults} from './compiler-tuning.js'

const require = createRequire(import.meta.url)
const {mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} = require('node:fs') as typeof import('node:fs')
const {homedir} = require('node:os') as typeof import('node:os')
const {basename, dirname, join} = require('node:path') as typeof import('node:path')
const {pathToFileURL} = require('node:url') as typeof import('node:url')
const {Script} = require('node:vm') as typeof import('node:vm')

// The bundle sees __kctlImport for its import()s of what stays outside (a script run by node:vm
// cannot import() by itself) and __kctlImportMetaUrl for import.meta.url.
const WRAPPER = '(function (exports, require, module, __filename, __dirname, __kctlImport, __kctlImportMetaUrl) {'

/** The bundle's module.exports, as require() would give it. */
export function loadScript(file: string, variant: string): unknown {
  // The build writes the bundle in ASCII (scripts/vm-script.mjs asciiScript): Latin-1 reads it as
  // it is, without decoding UTF-8.
  const source = readFileSync(file, 'latin1')
  const cacheFile = cachePath(file, variant)
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(cacheFile)
  } catch {}
  const script = new Script(`${WRAPPER}${source}\n})`, {filename: file, cachedData})
  // Written at exit, so that the functions this run compiled are in the cache too.
  if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => saveCache(script, cacheFile))
  const module = {exports: {}}
  const importModule = (specifier: string) => import(specifier)
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), importModule, pathToFileURL(file).href)
  return module.exports
}

function cachePath(file: string, variant: string): string {
  const root = process.env.KCTL_CACHE_DIR || join(homedir(), '.cache', 'kctl')
  return join(root, 'code-cache', `${basename(file)}-${variant}-${process.version}-${process.arch}.bin`)
}

function saveCache(script: InstanceType<typeof Script>, cacheFile: string): void {
  // V8 stamps the cache with its flags: those the next run has when it reads it.
  restoreCompilerDefaults()
  // Another kctl may read it meanwhile: it sees the old file or the whole new one.
  const partial = `${cacheFile}.${process.pid}`
  try {
    makeDirectory(dirname(cacheFile), 8)
    writeFileSync(partial, script.createCachedData())
    renameSync(partial, cacheFile)
  } catch {
    rmSync(partial, {force: true})
  }
}

// mkdirSync's {recursive: true} never returns on some file systems (/proc): this gives up instead.
function makeDirectory(dir: string, levels: number): void {
  try {
    mkdirSync(dir)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return
    if (code !== 'ENOENT' || levels === 0 || dirname(dir) === dir) throw error
    makeDirectory(dirname(dir), levels - 1)
    mkdirSync(dir)
  }
}
