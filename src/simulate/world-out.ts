// `kctl simulate --out DIR`: the world at the end of the simulation, written as fixtures kctl reads
// back with `-f DIR` (and `--now` at the simulation's end), so a second what-if can start where
// the first one ended. One YAML file per namespace (`<namespace>.yaml`; cluster-scoped objects,
// such as Nodes, in `_cluster.yaml`), the objects in the world's order, each namespaced one
// with its namespace written out (an object read without one took -n's).
import {mkdir, readdir, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

import type {MemoryWorld} from '../apply/memory-world.js'
import {isClusterScoped} from '../check/objects.js'
import {UserError} from '../errors.js'
import {renderDocument} from '../render/document.js'

type Obj = Record<string, any>

/** The file cluster-scoped objects go to (no namespace is named so: a namespace name has no `_`). */
export const CLUSTER_FILE = '_cluster.yaml'

/** Refuses a directory that holds anything (a stale file would be read back with the new world). */
export async function checkOutDirectory(dir: string): Promise<void> {
  let entries: string[]
  try {
    entries = await readdir(dir)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return
    if (code === 'ENOTDIR') throw new UserError(`--out ${dir}: not a directory`)
    throw new UserError(`--out ${dir}: ${(e as Error).message}`)
  }
  if (entries.length > 0) throw new UserError(`--out ${dir}: the directory is not empty`, {hint: 'name a new or empty directory: every YAML file in it is read back by -f'})
}

/** Writes the world's objects under `dir`; returns the files written, in name order. */
export async function writeWorld(world: MemoryWorld, dir: string, header: string): Promise<{files: string[]; objects: number}> {
  const byFile = new Map<string, string[]>()
  let objects = 0
  for (const raw of world.objects()) {
    const o = raw as Obj
    const group = typeof o.apiVersion === 'string' && o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : ''
    const scoped = isClusterScoped(group, String(o.kind))
    const namespace = world.namespaceOf(o)
    const file = scoped ? CLUSTER_FILE : `${namespace}.yaml`
    const object = scoped ? o : {...o, metadata: {...o.metadata, namespace}}
    const docs = byFile.get(file) ?? []
    docs.push(renderDocument(object, 'yaml'))
    byFile.set(file, docs)
    objects++
  }
  await mkdir(dir, {recursive: true})
  const files = [...byFile.keys()].sort()
  for (const file of files) await writeFile(join(dir, file), `# ${header}\n${byFile.get(file)!.map((d) => `---\n${d}`).join('')}`)
  return {files, objects}
}
