// Files a kustomization reads that are not objects (patches, generator inputs, configurations),
// wherever that kustomization is under the -f directories. The directory walk skips such a file
// when the kustomization that names it was seen first; one named from a folder walked later
// (`patches: [{path: ../../patches/replicas.yaml}]` from an overlay) is found here, so that no
// rule ever judges a patch as an object.
import {readdirSync} from 'node:fs'
import {join, normalize, resolve} from 'node:path'

import {kustomizeInputs, KUSTOMIZATION_FILES} from '../sources/layout.js'

/** Absolute paths of the files the kustomizations under `paths` (directories) name as non-objects. */
export function kustomizeReadFiles(paths: readonly string[]): Set<string> {
  const out = new Set<string>()
  const walk = (dir: string, depth: number) => {
    if (depth > 32) return
    let entries
    try {
      entries = readdirSync(dir, {withFileTypes: true})
    } catch {
      return // not a directory, or unreadable: the reading layer reports it
    }
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue
      if (e.isDirectory()) walk(join(dir, e.name), depth + 1)
      else if (e.isFile() && KUSTOMIZATION_FILES.includes(e.name)) for (const p of kustomizeInputs(join(dir, e.name))) out.add(resolve(normalize(join(dir, p))))
    }
  }
  for (const p of paths) if (p !== '-' && p !== '') walk(p, 0)
  return out
}
