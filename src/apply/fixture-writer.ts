// `reconcile -f DIR --apply --out DIR2`: the world after the apply, written as fixtures again, one
// output file per input file at the same relative path (created pods go into their controller's
// file; deleted pods are gone), so that `kctl plan -f DIR2` and `kctl reconcile -f DIR2` go on
// from there. Comments and formatting of the input are not kept.
import {existsSync, mkdirSync, readdirSync, statSync, writeFileSync} from 'node:fs'
import {dirname, isAbsolute, join, relative, resolve, sep} from 'node:path'

import {stringify} from 'yaml'

import {UserError} from '../errors.js'
import type {WorldFile} from './memory-world.js'

/** Refuses an --out directory that holds anything: the result never mixes with other files. */
export function checkOutDir(dir: string): void {
  if (!existsSync(dir)) return
  if (!statSync(dir).isDirectory()) throw new UserError(`--out ${dir} exists and is not a directory`)
  if (readdirSync(dir).length > 0) throw new UserError(`--out ${dir} is not empty`, {hint: 'name a new or empty directory'})
}

/** Writes the files; returns the paths written. */
export function writeWorld(files: readonly WorldFile[], dir: string): string[] {
  checkOutDir(dir)
  const paths = outputPaths(files)
  const written: string[] = []
  for (let i = 0; i < files.length; i++) {
    const file = files[i]
    if (file.objects.length === 0) continue
    const target = join(dir, paths[i])
    mkdirSync(dirname(target), {recursive: true})
    writeFileSync(target, file.format === 'json' ? jsonText(file) : yamlText(file))
    written.push(target)
  }
  return written
}

/** Each input's path relative to the deepest directory holding all of them; stdin becomes stdin.yaml. */
export function outputPaths(files: readonly WorldFile[]): string[] {
  const onDisk = files.filter((f) => f.fsPath !== undefined).map((f) => resolve(f.fsPath!))
  let base = onDisk.length > 0 ? dirname(onDisk[0]) : ''
  for (const p of onDisk) while (base && !isInside(p, base)) base = dirname(base) === base ? '' : dirname(base)
  const used = new Set<string>()
  return files.map((f) => {
    let rel = f.fsPath === undefined ? 'stdin.yaml' : relative(base, resolve(f.fsPath))
    if (rel === '' || isAbsolute(rel) || rel.startsWith('..')) rel = f.name.replace(/^[/.]+/, '') || 'input.yaml'
    // Two inputs can never share an output.
    let unique = rel
    for (let n = 2; used.has(unique); n++) unique = rel.replace(/(\.[^./]*)?$/, `-${n}$1`)
    used.add(unique)
    return unique
  })
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path)
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)
}

function yamlText(file: WorldFile): string {
  // YAML 1.1 quoting, as kubectl's reader wants (`"yes"`, `"2026-11-22T10:00:00Z"` stay strings).
  return file.objects.map((o) => stringify(o, {version: '1.1', lineWidth: 0, indentSeq: true})).join('---\n')
}

function jsonText(file: WorldFile): string {
  const doc = file.objects.length === 1 ? file.objects[0] : {apiVersion: 'v1', kind: 'List', items: file.objects}
  return `${JSON.stringify(doc, null, 2)}\n`
}
