// Runs a CommonJS bundle (oclif, which every start loads) through V8's code cache: the compiled
// code of the previous run is kept under the cache directory, so a start neither parses the bundle
// nor compiles the functions it ran last time. The cache file is named after the bundle (whose name
// carries a hash of its content), Node's version and the CPU; V8 refuses a cache made for other
// source or flags. Whatever goes wrong with the cache (no directory, read-only, refused), the
// bundle just runs without it.
import {mkdirSync, readFileSync, renameSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {homedir} from 'node:os'
import {basename, dirname, join} from 'node:path'
import {Script} from 'node:vm'

const WRAPPER = '(function (exports, require, module, __filename, __dirname, __kctlImport) {'

/**
 * The bundle's module.exports, as require() would give it. The bundle's import()s are calls of
 * __kctlImport (scripts/bundle.mjs), with absolute URLs.
 */
export function loadScript(file: string): unknown {
  const source = readFileSync(file, 'utf8')
  const cacheFile = cachePath(file)
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(cacheFile)
  } catch {}
  const script = new Script(`${WRAPPER}${source}\n})`, {filename: file, cachedData})
  // Written at exit, so that the functions this run compiled are in the cache too.
  if (cachedData === undefined || script.cachedDataRejected) process.once('exit', () => saveCache(script, cacheFile))
  const module = {exports: {}}
  const importModule = (url: string) => import(url)
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), importModule)
  return module.exports
}

function cachePath(file: string): string {
  const root = process.env.KCTL_CACHE_DIR || join(homedir(), '.cache', 'kctl')
  return join(root, 'code-cache', `${basename(file)}-${process.version}-${process.arch}.bin`)
}

function saveCache(script: Script, cacheFile: string): void {
  try {
    mkdirSync(dirname(cacheFile), {recursive: true})
    // Another kctl may read it meanwhile: it sees the old file or the whole new one.
    const partial = `${cacheFile}.${process.pid}`
    writeFileSync(partial, script.createCachedData())
    renameSync(partial, cacheFile)
  } catch {}
}
