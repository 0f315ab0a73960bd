// `kctl watch -f PATH...`: tells when the fixtures change. Directories are watched recursively;
// a file is watched through its directory (editors save by writing a new file and renaming it
// over the old one, which a watch on the file itself would lose). Changes are debounced: one
// call after ~100 ms without a further change, naming the files that changed.
import {watch, type FSWatcher, statSync} from 'node:fs'
import {basename, dirname, extname, join, relative, resolve} from 'node:path'

import {UserError} from '../errors.js'
import {STDIN_NAME} from './files.js'

const EXTENSIONS = new Set(['.yaml', '.yml', '.json'])

export interface FixtureWatchOptions {
  debounceMs?: number
  onChange: (files: string[]) => void
  onError?: (error: Error) => void
}

export interface FixtureWatcher {
  close(): void
}

export function watchFixtures(paths: readonly string[], o: FixtureWatchOptions): FixtureWatcher {
  const debounceMs = o.debounceMs ?? 100
  const watchers: FSWatcher[] = []
  let changed = new Set<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const fire = () => {
    timer = undefined
    const files = [...changed].sort()
    changed = new Set()
    o.onChange(files)
  }
  const touched = (file: string) => {
    changed.add(file)
    if (timer) clearTimeout(timer)
    timer = setTimeout(fire, debounceMs)
  }
  for (const path of paths) {
    if (path === '-') throw new UserError(`kctl watch cannot watch ${STDIN_NAME}`, {hint: 'give files or directories with -f'})
    let isDir: boolean
    try {
      isDir = statSync(path).isDirectory()
    } catch (error) {
      throw new UserError(`cannot watch ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {hint: 'check the -f path'})
    }
    const dir = isDir ? path : dirname(path)
    const only = isDir ? undefined : basename(path)
    const watcher = watch(dir, {recursive: isDir, persistent: true}, (_event, name) => {
      if (name === null) return touched(path)
      const file = name.toString()
      if (only !== undefined ? basename(file) !== only : !EXTENSIONS.has(extname(file).toLowerCase())) return
      touched(isDir ? join(path, file) : path)
    })
    watcher.on('error', (error) => o.onError?.(error))
    watchers.push(watcher)
  }
  return {
    close() {
      if (timer) clearTimeout(timer)
      for (const w of watchers) w.close()
    },
  }
}

/** How a changed file is named to the user: relative to the working directory when inside it. */
export function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file))
  return rel.startsWith('..') ? file : rel
}
