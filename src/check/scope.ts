// Which objects a rule compares an object with.
//
// Rules that judge a conflict (duplicates, overlapping selectors, an HPA against spec.replicas, a
// PodDisruptionBudget that blocks evictions) compare objects of one apply set only: the files that
// would be applied together. Rules that look for something an object refers to (a Service's pods,
// an Ingress's Service, a StatefulSet's headless Service, an HPA's target, a PDB's pods) look
// nearest first: the same file, then the same apply set, then anywhere in the input; "nothing
// found" is said only when nothing in the whole input matches.
//
// Apply sets (--apply-set): `dir` (the default) — the files directly in one folder form one set,
// and each kustomize root (a folder with a kustomization file, with everything below it that is
// no other root) is one set; `file` — each file; `all` — everything read. The reading layer tells
// the kustomize root (SourceObject.applySet, non-empty under a root in `dir` mode); the folder
// grouping is computed here, in applySetOf alone.
import {dirname} from 'node:path'

import type {ApplySetMode} from '../sources/layout.js'
import type {CheckObject} from './objects.js'

/** The apply set an object belongs to, as a key. */
export function applySetOf(o: Pick<CheckObject, 'src'>, mode: ApplySetMode = 'dir'): string {
  const set = o.src.locator.applySet
  if (mode !== 'dir' || set !== '') return set
  // Outside any kustomize root: the folder the file is in (stdin and rendered input: one set).
  const file = o.src.file
  return file.startsWith('<') ? file : `dir:${dirname(file)}`
}

/** applySetOf for objects that come file by file: the objects of one file are in one set, and come in a row. */
export function applySetKeys(mode: ApplySetMode = 'dir'): (o: Pick<CheckObject, 'src'>) => string {
  let lastFile: string | undefined
  let lastKey = ''
  return (o) => {
    const file = o.src.file
    const key = file === lastFile && o.src.locator.applySet === '' ? lastKey : applySetOf(o, mode)
    if (o.src.locator.applySet === '') {
      lastFile = file
      lastKey = key
    } else lastFile = undefined
    return key
  }
}

export class Scope {
  /**
   * The apply set of each object, by its ordinal (objects of one input have distinct ordinals; an
   * object whose ordinal another already holds is kept in `others`).
   */
  private readonly objectAt: CheckObject[] = []
  private readonly setAt: string[] = []
  private others: Map<CheckObject, string> | undefined
  private readonly groups = new Map<string, CheckObject[]>()

  constructor(
    /** Every object of the input, in input order. */
    readonly all: readonly CheckObject[],
    mode: ApplySetMode = 'dir',
  ) {
    const setOf = applySetKeys(mode)
    for (const o of all) {
      const key = setOf(o)
      const i = o.src.ordinal
      if (this.objectAt[i] === undefined) {
        this.objectAt[i] = o
        this.setAt[i] = key
      } else (this.others ??= new Map()).set(o, key)
      const group = this.groups.get(key)
      if (group) group.push(o)
      else this.groups.set(key, [o])
    }
  }

  /** The apply sets, each with its objects in input order. */
  applySets(): CheckObject[][] {
    return [...this.groups.values()]
  }

  /** The apply set of an object of the input. */
  setOf(o: CheckObject): string {
    const i = o.src.ordinal
    if (this.objectAt[i] === o) return this.setAt[i]
    return this.others?.get(o) ?? applySetOf(o)
  }

  /** The objects of `o`'s apply set. */
  setObjects(o: CheckObject): readonly CheckObject[] {
    return this.groups.get(this.setOf(o)) ?? []
  }

  /**
   * Of `candidates` (what `from` may refer to), those nearest it: in its own file if any is, else
   * in its apply set if any is, else all of them.
   */
  nearest<T extends CheckObject>(from: CheckObject, candidates: readonly T[]): readonly T[] {
    if (candidates.length <= 1) return candidates // (most references name one object: no copy)
    const file = candidates.filter((c) => c.src.file === from.src.file)
    if (file.length > 0) return file
    const set = this.setOf(from)
    const inSet = candidates.filter((c) => this.setOf(c) === set)
    return inSet.length > 0 ? inSet : candidates
  }

  private readonly memos = new Map<string, unknown>()

  /** A value computed once per input (an index over every object), by key. */
  memo<T>(key: string, make: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, make())
    return this.memos.get(key) as T
  }

  /** The objects of the input that stand for pods (pod templates, Pods), by namespace. */
  podCarriers(namespace: string): readonly CheckObject[] {
    return this.memo('pods', () => {
      const out = new Map<string, CheckObject[]>()
      for (const o of this.all) {
        if (!o.podLabels) continue
        const list = out.get(o.namespace)
        if (list) list.push(o)
        else out.set(o.namespace, [o])
      }
      return out
    }).get(namespace) ?? []
  }

  /** The Services of the input named `name` in `namespace`, nearest to `from` first (nearest()). */
  servicesNear(from: CheckObject, name: string): readonly CheckObject[] {
    const named = this.memo('services', () => {
      const out = new Map<string, CheckObject[]>()
      for (const o of this.all) {
        if (!o.service || o.name === '') continue
        const key = `${o.namespace}/${o.name}`
        const list = out.get(key)
        if (list) list.push(o)
        else out.set(key, [o])
      }
      return out
    }).get(`${from.namespace}/${name}`)
    return named ? this.nearest(from, named) : []
  }

  /** Whether `o`'s apply set holds a custom resource (an operator's object may create pods of its own). */
  setHoldsCustomResources(o: CheckObject): boolean {
    return this.setObjects(o).some(isCustomResource)
  }
}

/** Groups of built-in kinds end in k8s.io (or are the core group or one of the older unqualified groups). */
const BUILT_IN_GROUPS = new Set(['', 'apps', 'batch', 'autoscaling', 'policy', 'extensions'])

/** An object of a kind some CustomResourceDefinition defines, not of a built-in one. */
export function isCustomResource(o: Pick<CheckObject, 'group'>): boolean {
  return !BUILT_IN_GROUPS.has(o.group) && !o.group.endsWith('.k8s.io') && o.group !== 'k8s.io'
}

/** The custom resources of `o`'s apply set, named (up to two, and how many more). */
export function customResourcesNamed(scope: Scope, o: CheckObject): string {
  const crs = scope.setObjects(o).filter(isCustomResource)
  const names = crs.slice(0, 2).map((c) => `${c.kind} ${c.name}`)
  return `${names.join(', ')}${crs.length > 2 ? `, and ${crs.length - 2} more` : ''}`
}
