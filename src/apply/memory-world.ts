// The fixtures as a world that can be acted on: the objects read from -f, held in memory, changed
// by the same calls the executor sends a cluster, with the API server's answers where they matter
// (delete preconditions → 409, the adoption patch's uid → 422, a status write's resourceVersion →
// 409, a second controller reference → 422). Created pods are named as generateName would make
// them, from a generator seeded by the input, so the same input gives the same world.
// Inputs are never modified: a changed object replaces the parsed one.
import {createHash} from 'node:crypto'

import type {Snapshot} from '../model/objects.js'
import {
  type ControllerKey,
  type ControllerObject,
  type CreatedPod,
  type DeletePreconditions,
  type OwnerPatch,
  type PodControl,
  PodControlError,
  type PodManifest,
  type ReplicaSetManifest,
  type ReplicaSetPatch,
  type ObjectPatch,
  type ScaleObject,
  type SideKind,
  type SideObject,
} from './pod-control.js'
import {generateName, SeededRandom} from './names.js'
import {resourceName} from './resources.js'
import {CONTROLLERS} from '../controllers/registry.js'

export type RawObject = Record<string, unknown>

/** One input file and the objects it holds now, in order. */
export interface WorldFile {
  /** As the user named it (the -f value, joined with the path inside a directory). */
  name: string
  /** On disk; undefined for stdin. */
  fsPath?: string
  format: 'yaml' | 'json'
  objects: RawObject[]
}

export interface MemoryWorldOptions {
  /** The namespace of objects that name none (-n, else "default"), as the fixture reader uses. */
  defaultNamespace: string
  /** Turns the current objects into a Snapshot (the fixture reader's normalizer). */
  normalize: (objects: RawObject[]) => Snapshot
  /** RFC 3339 creationTimestamp of created pods. */
  now: () => string
  /** The uid the fixture reader gives an object that has none (sources/normalize.ts inventedUid). */
  inventedUid: (group: string, kind: string, namespace: string, name: string) => string
  /**
   * A pod's DELETE marks it terminating (deletionTimestamp now + its grace period), as the API
   * server does for a pod bound to a node; something else (a kubelet model) removes it later.
   * Absent: the pod is gone at once, as an unbound pod is.
   */
  gracefulPodDeletion?: boolean
  /** Mixed into the seed of generated names and uids (the same input and seed give the same names). */
  seed?: string
}

type Obj = Record<string, any>

interface Located {
  file: WorldFile
  object: Obj
}

/** Pods and the objects besides controllers a sync writes, held in the index, with their API groups. */
const OTHER_GROUPS: ReadonlyArray<[string, string]> = [
  ['Pod', ''],
  ['ControllerRevision', 'apps'],
  ['PersistentVolumeClaim', ''],
]

let heldGroups: Map<string, string> | undefined

/**
 * The kinds the world indexes (kinds kctl carries out on files: the parts not `clusterOnly`, and
 * pods, revisions, claims) and their API groups (from the parts' `resources`).
 */
function kindGroups(): Map<string, string> {
  if (heldGroups) return heldGroups
  const groups = new Map<string, string>(OTHER_GROUPS)
  for (const c of CONTROLLERS) {
    if (!c.apply || c.apply.clusterOnly) continue
    for (const [kind, r] of Object.entries(c.apply.resources)) groups.set(kind, /^\/apis\/([^/]+)\//.exec(r!.apiPath)?.[1] ?? '')
  }
  return (heldGroups = groups)
}

export class MemoryWorld {
  readonly files: WorldFile[]
  private rv: number
  private readonly seed: string
  private readonly randoms = new Map<string, SeededRandom>()
  /** kind|namespace|name → where the object is (kinds kctl plans only). */
  private readonly index = new Map<string, Located>()
  /** Writes done so far (a dry run does none). */
  writes = 0

  constructor(
    files: readonly WorldFile[],
    private readonly opts: MemoryWorldOptions,
  ) {
    this.files = files.map((f) => ({...f, objects: [...f.objects]}))
    let max = 0
    const digest = createHash('sha256')
    for (const f of this.files) {
      for (const o of f.objects) {
        const rv = Number((o as Obj).metadata?.resourceVersion)
        if (Number.isSafeInteger(rv) && rv > max) max = rv
        digest.update(JSON.stringify(o))
      }
    }
    this.rv = max
    if (opts.seed !== undefined) digest.update(`seed:${opts.seed}`)
    this.seed = digest.digest('hex').slice(0, 32)
    for (const file of this.files) for (const o of file.objects) this.indexObject(file, o as Obj)
  }

  private key(kind: string, namespace: string, name: string): string {
    return `${kind}|${namespace}|${name}`
  }

  private indexObject(file: WorldFile, o: Obj): void {
    const kind = o.kind
    if (typeof kind !== 'string' || !kindGroups().has(kind) || groupOf(o.apiVersion) !== kindGroups().get(kind)) return
    const key = this.key(kind, this.namespaceOf(o), String(o.metadata?.name))
    if (!this.index.has(key)) this.index.set(key, {file, object: o})
  }

  /** Every object, in file order. */
  objects(): RawObject[] {
    return this.files.flatMap((f) => f.objects)
  }

  snapshot(): Snapshot {
    return this.opts.normalize(this.objects())
  }

  /** The PodControl view: `dryRun` answers every call as the real one would and changes nothing. */
  control(dryRun: boolean): PodControl {
    return new MemoryPodControl(this, dryRun)
  }

  // --- lookups, as the fixture reader identifies objects

  namespaceOf(o: Obj): string {
    const ns = o.metadata?.namespace
    return typeof ns === 'string' && ns !== '' ? ns : this.opts.defaultNamespace
  }

  find(kind: string, namespace: string, name: string): Located | undefined {
    return this.index.get(this.key(kind, namespace, name))
  }

  uidOf(o: Obj, kind: string, namespace: string): string {
    const uid = o.metadata?.uid
    return typeof uid === 'string' && uid !== '' ? uid : this.opts.inventedUid(kindGroups().get(kind) ?? groupOf(o.apiVersion), kind, namespace, String(o.metadata?.name))
  }

  /** An owner reference's uid as the reader fills it in when absent: the owner's, or one invented from its name. */
  refUid(ref: Obj, namespace: string): string {
    if (typeof ref.uid === 'string' && ref.uid !== '') return ref.uid
    const owner = this.find(String(ref.kind), namespace, String(ref.name))
    if (owner) return this.uidOf(owner.object, String(ref.kind), namespace)
    return this.opts.inventedUid(groupOf(String(ref.apiVersion)), String(ref.kind), namespace, String(ref.name))
  }

  nextResourceVersion(): string {
    return String(++this.rv)
  }

  randomFor(controllerUid: string): SeededRandom {
    let r = this.randoms.get(controllerUid)
    if (!r) this.randoms.set(controllerUid, (r = new SeededRandom(`${this.seed}/${controllerUid}`)))
    return r
  }

  now(): string {
    return this.opts.now()
  }

  get gracefulPodDeletion(): boolean {
    return this.opts.gracefulPodDeletion ?? false
  }

  /** An object of any kind (a custom resource too), by its API group, kind, namespace and name: the first in file order. */
  findObject(group: string, kind: string, namespace: string, name: string): Located | undefined {
    for (const file of this.files) {
      for (const o of file.objects as Obj[]) {
        if (o.kind === kind && groupOf(o.apiVersion) === group && o.metadata?.name === name && this.namespaceOf(o) === namespace) return {file, object: o}
      }
    }
    return undefined
  }

  /** Replaces (or, with undefined, removes) an object found by find(); its identity stays the same. */
  replace(at: Located, object: Obj | undefined): void {
    const objects = at.file.objects
    const index = objects.indexOf(at.object)
    if (index < 0) throw new Error('internal: object to replace is gone')
    const key = this.key(String(at.object.kind), this.namespaceOf(at.object), String(at.object.metadata?.name))
    if (object === undefined) {
      objects.splice(index, 1)
      this.index.delete(key)
    } else {
      objects[index] = object
      this.index.set(key, {file: at.file, object})
    }
    this.writes++
  }

  add(file: WorldFile, object: Obj): void {
    file.objects.push(object)
    this.indexObject(file, object)
    this.writes++
  }

  /** Where a created pod goes: the file that holds its controller (the first file if none). */
  fileFor(kind: string, namespace: string, name: string): WorldFile {
    return this.find(kind, namespace, name)?.file ?? this.files[0]
  }
}

class MemoryPodControl implements PodControl {
  constructor(
    private readonly world: MemoryWorld,
    readonly dryRun: boolean,
  ) {}

  async getController(key: ControllerKey): Promise<ControllerObject> {
    const found = this.world.find(key.kind, key.namespace, key.name)
    if (!found) throw notFound(resourceName(key.kind), key.name)
    const o = found.object
    return {
      uid: this.world.uidOf(o, key.kind, key.namespace),
      resourceVersion: rvOf(o),
      deletionTimestamp: o.metadata?.deletionTimestamp ?? undefined,
      templateSpec: o.spec?.template?.spec ?? {},
      raw: o,
    }
  }

  async createPod(pod: PodManifest): Promise<CreatedPod> {
    const ns = pod.metadata.namespace
    const owner = pod.metadata.ownerReferences[0]
    const random = this.world.randomFor(owner?.uid ?? '')
    let name = pod.metadata.name ?? generateName(pod.metadata.generateName, random)
    if (pod.metadata.name !== undefined && this.world.find('Pod', ns, name)) throw alreadyExists('pods', name)
    // The API server retries a generated name that is taken.
    for (let tries = 0; this.world.find('Pod', ns, name); tries++) {
      if (tries > 8) throw alreadyExists('pods', name)
      name = generateName(pod.metadata.generateName, random)
    }
    const uid = random.uuid()
    if (this.dryRun) return {name, uid}
    const m = pod.metadata
    const created: Obj = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        generateName: m.generateName,
        namespace: ns,
        uid,
        resourceVersion: this.world.nextResourceVersion(),
        creationTimestamp: this.world.now().replace(/\.\d+Z$/, 'Z'),
        labels: {...m.labels},
        ...(m.annotations ? {annotations: {...m.annotations}} : {}),
        ...(m.finalizers ? {finalizers: [...m.finalizers]} : {}),
        ownerReferences: m.ownerReferences.map((r) => ({...r})),
      },
      spec: structuredClone(pod.spec),
      // What the API server stores for a new pod; no scheduler or kubelet acts on fixtures.
      status: {phase: 'Pending'},
    }
    const controller = owner ? this.world.find(owner.kind, ns, owner.name) : undefined
    this.world.add(controller?.file ?? this.world.fileFor(owner?.kind ?? '', ns, owner?.name ?? ''), created)
    return {name, uid}
  }

  deletePod(namespace: string, name: string, pre: DeletePreconditions): Promise<void> {
    return this.delete('Pod', 'pods', namespace, name, pre)
  }

  private async delete(kind: string, resource: string, namespace: string, name: string, pre: DeletePreconditions): Promise<void> {
    const found = this.world.find(kind, namespace, name)
    if (!found) throw notFound(resource, name)
    const uid = this.world.uidOf(found.object, kind, namespace)
    if (uid !== pre.uid) throw conflict(`Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`)
    const rv = rvOf(found.object)
    if (pre.resourceVersion !== undefined && rv !== pre.resourceVersion) {
      throw conflict(`Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`)
    }
    if (this.dryRun) return
    if (kind === 'Pod' && this.world.gracefulPodDeletion) return this.markTerminating(found)
    this.world.replace(found, undefined)
    // Foreground is simplified to Background: the dependents go at once, with their owner.
    if (pre.propagationPolicy) this.collectDependents(uid, namespace)
  }

  /**
   * What the garbage collector does after a Background delete: the objects the deleted one controls
   * go too. Simplified: they are removed at once (a Job's pods with their tracking finalizer, which
   * the Job controller's orphan handling would remove).
   */
  private collectDependents(ownerUid: string, namespace: string): void {
    for (const o of this.world.objects() as Obj[]) {
      if (this.world.namespaceOf(o) !== namespace) continue
      const refs: Obj[] = Array.isArray(o.metadata?.ownerReferences) ? o.metadata.ownerReferences : []
      if (!refs.some((r) => r.controller === true && this.world.refUid(r, namespace) === ownerUid)) continue
      const at = this.world.find(String(o.kind), namespace, String(o.metadata?.name))
      if (!at) continue
      const dependent = this.world.uidOf(at.object, String(o.kind), namespace)
      this.world.replace(at, undefined)
      this.collectDependents(dependent, namespace)
    }
  }

  /** A graceful DELETE: deletionTimestamp now + terminationGracePeriodSeconds (default 30); again, a no-op. */
  private markTerminating(found: Located): void {
    const o = found.object
    if (o.metadata?.deletionTimestamp) return
    const grace = typeof o.spec?.terminationGracePeriodSeconds === 'number' ? o.spec.terminationGracePeriodSeconds : 30
    const now = Date.parse(this.world.now())
    const deletionTimestamp = new Date(now + grace * 1000).toISOString().replace(/\.\d+Z$/, 'Z')
    const metadata: Obj = {...o.metadata, deletionTimestamp, deletionGracePeriodSeconds: grace, resourceVersion: this.world.nextResourceVersion()}
    this.world.replace(found, {...o, metadata})
  }

  patchPod(namespace: string, name: string, patch: OwnerPatch): Promise<{resourceVersion?: string}> {
    return this.patchOwners('Pod', 'pods', namespace, name, patch)
  }

  private async patchOwners(kind: string, resource: string, namespace: string, name: string, patch: OwnerPatch): Promise<{resourceVersion?: string}> {
    const found = this.world.find(kind, namespace, name)
    if (!found) throw notFound(resource, name)
    const o = found.object
    const uid = this.world.uidOf(o, kind, namespace)
    if (patch.metadata.uid !== uid) {
      throw new PodControlError({code: 422, reason: 'Invalid', message: `${kind} "${name}" is invalid: metadata.uid: Invalid value: "${patch.metadata.uid}": field is immutable`})
    }
    let refs: Obj[] = Array.isArray(o.metadata?.ownerReferences) ? o.metadata.ownerReferences.map((r: Obj) => ({...r})) : []
    for (const entry of patch.metadata.ownerReferences) {
      if (entry.$patch === 'delete') {
        if (refs.length === 0) {
          throw new PodControlError({code: 422, reason: 'Invalid', message: `${kind} "${name}" is invalid: metadata.ownerReferences: no owner reference to delete`})
        }
        refs = refs.filter((r) => this.world.refUid(r, namespace) !== entry.uid)
        continue
      }
      // Merge key: uid.
      const at = refs.findIndex((r) => this.world.refUid(r, namespace) === entry.uid)
      if (at >= 0) refs[at] = {...refs[at], ...entry}
      else refs.push({...entry})
    }
    if (refs.filter((r) => r.controller === true).length > 1) {
      throw new PodControlError({code: 422, reason: 'Invalid', message: `${kind} "${name}" is invalid: metadata.ownerReferences: Invalid value: Only one reference can have Controller set to true`})
    }
    if (this.dryRun) return {resourceVersion: rvOf(o)}
    const metadata: Obj = {...o.metadata, resourceVersion: this.world.nextResourceVersion()}
    if (refs.length > 0) metadata.ownerReferences = refs
    else delete metadata.ownerReferences
    // A Job's claim adds or removes its tracking finalizer in the same patch; a release that takes
    // the last finalizer off a pod past its grace period removes the pod, as any patch would.
    const finalizers = patchFinalizers(metadata, patch.metadata.finalizers ?? [], patch.metadata[FINALIZER_DELETE] ?? [])
    this.world.replace(found, this.goneWithLastFinalizer(o, finalizers) ? undefined : {...o, metadata})
    return {resourceVersion: metadata.resourceVersion}
  }

  async updateStatus(key: ControllerKey, object: Record<string, unknown>): Promise<{resourceVersion?: string}> {
    const found = this.world.find(key.kind, key.namespace, key.name)
    if (!found) throw notFound(resourceName(key.kind), key.name)
    const want = String((object.metadata as Obj | undefined)?.resourceVersion ?? '')
    const rv = rvOf(found.object)
    if (want !== '' && want !== rv) throw modified(resourceName(key.kind), key.name)
    if (this.dryRun) return {resourceVersion: rv}
    const next = this.world.nextResourceVersion()
    const metadata: Obj = {...found.object.metadata, resourceVersion: next}
    // A Deployment's status write also carries its annotations (the revision; its part's
    // statusWritesAnnotations); spec and labels stay.
    if (CONTROLLERS.some((c) => c.apply?.statusWritesAnnotations && c.kinds.includes(key.kind))) {
      const annotations = (object.metadata as Obj | undefined)?.annotations
      if (annotations && Object.keys(annotations).length > 0) metadata.annotations = {...annotations}
      else delete metadata.annotations
    }
    this.world.replace(found, {...found.object, metadata, status: structuredClone(object.status)})
    return {resourceVersion: next}
  }

  /** The scale subresource's PUT: spec.replicas of the target, its uid and resourceVersion as preconditions; a change raises the generation. */
  async updateScale(key: ControllerKey, scale: ScaleObject): Promise<{resourceVersion?: string}> {
    const found = key.customScale ? this.world.findObject(groupOf(key.apiVersion), key.kind, key.namespace, key.name) : this.world.find(key.kind, key.namespace, key.name)
    const resource = key.customScale?.resource ?? resourceName(key.kind)
    if (!found) throw notFound(resource, key.name)
    const o = found.object
    const rv = rvOf(o)
    const uid = this.world.uidOf(o, key.kind, key.namespace)
    if (scale.metadata.uid !== undefined && scale.metadata.uid !== uid) {
      throw conflict(`Precondition failed: UID in precondition: ${scale.metadata.uid}, UID in object meta: ${uid}`)
    }
    if (scale.metadata.resourceVersion !== undefined && scale.metadata.resourceVersion !== rv) throw modified(resource, key.name)
    if (this.dryRun) return {resourceVersion: rv}
    // A custom resource's replicas are the field its scale subresource names (specReplicasPath).
    const path = replicasFieldPath(key.customScale?.specReplicasPath)
    const before = path.reduce<any>((at, f) => (at && typeof at === 'object' ? at[f] : undefined), o)
    const metadata: Obj = {...o.metadata, resourceVersion: this.world.nextResourceVersion()}
    if ((typeof before === 'number' ? before : key.customScale ? 0 : 1) !== scale.spec.replicas) metadata.generation = Number(o.metadata?.generation ?? 1) + 1
    this.world.replace(found, withField({...o, metadata}, path, scale.spec.replicas))
    return {resourceVersion: metadata.resourceVersion}
  }

  async createReplicaSet(rs: ReplicaSetManifest): Promise<{name: string; uid?: string; resourceVersion?: string}> {
    const ns = rs.metadata.namespace
    const name = rs.metadata.name
    if (this.world.find('ReplicaSet', ns, name)) throw new PodControlError({code: 409, reason: 'AlreadyExists', message: `replicasets.apps "${name}" already exists`})
    const owner = rs.metadata.ownerReferences[0]
    const uid = this.world.randomFor(owner?.uid ?? '').uuid()
    if (this.dryRun) return {name, uid}
    const created: Obj = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        ...structuredClone(rs.metadata),
        uid,
        resourceVersion: this.world.nextResourceVersion(),
        generation: 1,
        creationTimestamp: this.world.now().replace(/\.\d+Z$/, 'Z'),
      },
      spec: structuredClone(rs.spec),
    }
    this.world.add(this.world.fileFor(owner?.kind ?? '', ns, owner?.name ?? ''), created)
    return {name, uid, resourceVersion: created.metadata.resourceVersion}
  }

  async patchReplicaSet(namespace: string, name: string, patch: OwnerPatch | ReplicaSetPatch): Promise<{resourceVersion?: string}> {
    if (!('spec' in patch)) return this.patchOwners('ReplicaSet', resourceName('ReplicaSet'), namespace, name, patch)
    const found = this.world.find('ReplicaSet', namespace, name)
    if (!found) throw notFound(resourceName('ReplicaSet'), name)
    const o = found.object
    const rv = rvOf(o)
    if (patch.metadata.resourceVersion !== rv) throw modified(resourceName('ReplicaSet'), name)
    if (patch.metadata.uid !== this.world.uidOf(o, 'ReplicaSet', namespace)) {
      throw new PodControlError({code: 422, reason: 'Invalid', message: `ReplicaSet "${name}" is invalid: metadata.uid: Invalid value: "${patch.metadata.uid}": field is immutable`})
    }
    if (this.dryRun) return {resourceVersion: rv}
    const spec: Obj = {...o.spec, ...patch.spec}
    // Any change to the spec raises the generation (rsStrategy.PrepareForUpdate).
    const specChanged = Object.entries(patch.spec).some(([k, v]) => (o.spec?.[k] ?? (k === 'minReadySeconds' ? 0 : 1)) !== v)
    const generation = Number(o.metadata?.generation ?? 1)
    const metadata: Obj = {
      ...o.metadata,
      annotations: {...(o.metadata?.annotations ?? {}), ...patch.metadata.annotations},
      resourceVersion: this.world.nextResourceVersion(),
      ...(specChanged ? {generation: generation + 1} : {}),
    }
    this.world.replace(found, {...o, metadata, spec})
    return {resourceVersion: metadata.resourceVersion}
  }

  deleteReplicaSet(namespace: string, name: string, pre: DeletePreconditions): Promise<void> {
    return this.delete('ReplicaSet', resourceName('ReplicaSet'), namespace, name, pre)
  }

  async getObject(kind: SideKind, namespace: string, name: string): Promise<Record<string, unknown>> {
    const found = this.world.find(kind, namespace, name)
    if (!found) throw notFound(resourceName(kind), name)
    return found.object
  }

  async createObject(object: SideObject): Promise<{name: string; uid?: string; resourceVersion?: string}> {
    const {namespace, name} = object.metadata
    if (this.world.find(object.kind, namespace, name)) throw alreadyExists(resourceName(object.kind), name)
    const owner = object.metadata.ownerReferences?.[0]
    const uid = this.world.randomFor(owner?.uid ?? '').uuid()
    if (this.dryRun) return {name, uid}
    const created: Obj = {
      ...structuredClone(object),
      metadata: {...structuredClone(object.metadata), uid, resourceVersion: this.world.nextResourceVersion(), creationTimestamp: this.world.now().replace(/\.\d+Z$/, 'Z')},
    }
    // What the API server stores for a new claim; no volume binder acts on fixtures.
    if (object.kind === 'PersistentVolumeClaim') created.status = {phase: 'Pending'}
    this.world.add(this.world.fileFor(owner?.kind ?? '', namespace, owner?.name ?? ''), created)
    return {name, uid, resourceVersion: created.metadata.resourceVersion}
  }

  async patchObject(kind: SideKind | 'Pod', namespace: string, name: string, patch: ObjectPatch | OwnerPatch, type: 'merge' | 'strategic'): Promise<{resourceVersion?: string}> {
    if (type === 'strategic' && FINALIZER_DELETE in patch.metadata) return this.removeFinalizers(kind, namespace, name, patch as ObjectPatch)
    if (type === 'strategic') return this.patchOwners(kind, resourceName(kind), namespace, name, patch as OwnerPatch)
    const found = this.world.find(kind, namespace, name)
    if (!found) throw notFound(resourceName(kind), name)
    const o = found.object
    const {uid, resourceVersion, ...metadata} = (patch as ObjectPatch).metadata
    if (uid !== this.world.uidOf(o, kind, namespace)) {
      throw new PodControlError({code: 422, reason: 'Invalid', message: `${kind} "${name}" is invalid: metadata.uid: Invalid value: "${uid}": field is immutable`})
    }
    if (resourceVersion !== undefined && resourceVersion !== rvOf(o)) throw modified(resourceName(kind), name)
    if (this.dryRun) return {resourceVersion: rvOf(o)}
    const next = mergePatch(o, {...patch, metadata}) as Obj
    next.metadata = {...next.metadata, resourceVersion: this.world.nextResourceVersion()}
    this.world.replace(found, next)
    return {resourceVersion: next.metadata.resourceVersion}
  }

  /** A strategic-merge patch `$deleteFromPrimitiveList/finalizers` (the Job controller's); uid and resourceVersion in it are preconditions. */
  private async removeFinalizers(kind: SideKind | 'Pod', namespace: string, name: string, patch: ObjectPatch): Promise<{resourceVersion?: string}> {
    const found = this.world.find(kind, namespace, name)
    if (!found) throw notFound(resourceName(kind), name)
    const o = found.object
    const {uid, resourceVersion} = patch.metadata
    if (uid !== this.world.uidOf(o, kind, namespace)) throw conflict(`Precondition failed: UID in precondition: ${uid}, UID in object meta: ${this.world.uidOf(o, kind, namespace)}`)
    if (resourceVersion !== undefined && resourceVersion !== rvOf(o)) throw modified(resourceName(kind), name)
    if (this.dryRun) return {resourceVersion: rvOf(o)}
    const metadata: Obj = {...o.metadata, resourceVersion: this.world.nextResourceVersion()}
    const finalizers = patchFinalizers(metadata, [], patch.metadata[FINALIZER_DELETE] as string[])
    this.world.replace(found, this.goneWithLastFinalizer(o, finalizers) ? undefined : {...o, metadata})
    return {resourceVersion: metadata.resourceVersion}
  }

  /**
   * Whether a patch that leaves no finalizer removes a terminating object, as the API server's
   * update does (ShouldDeleteDuringUpdate: none left, deletion requested, grace period nil or 0). A
   * pod's grace period counts as 0 once its deletionTimestamp has passed: by then the kubelet this
   * world stands for has confirmed the deletion with a grace period of 0.
   */
  private goneWithLastFinalizer(before: Obj, finalizers: readonly string[]): boolean {
    const deletion = before.metadata?.deletionTimestamp
    if (!deletion || finalizers.length > 0) return false
    const grace = before.metadata?.deletionGracePeriodSeconds
    if (!this.world.gracefulPodDeletion || grace === undefined || grace === null || Number(grace) === 0) return true
    return Date.parse(deletion) <= Date.parse(this.world.now())
  }

  deleteObject(kind: SideKind, namespace: string, name: string, pre: DeletePreconditions): Promise<void> {
    return this.delete(kind, resourceName(kind), namespace, name, pre)
  }
}

const FINALIZER_DELETE = '$deleteFromPrimitiveList/finalizers'

/** A strategic-merge patch's finalizers (a union with `add`, then `remove` taken out) written into `metadata`; returns them. */
function patchFinalizers(metadata: Obj, add: readonly string[], remove: readonly string[]): string[] {
  const gone = new Set(remove)
  const finalizers = [...new Set([...((metadata.finalizers ?? []) as string[]), ...add])].filter((f) => !gone.has(f))
  if (finalizers.length > 0) metadata.finalizers = finalizers
  else delete metadata.finalizers
  return finalizers
}

/** RFC 7386: maps merge, null removes, anything else (lists included) replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch)
  const out: Obj = typeof target === 'object' && target !== null && !Array.isArray(target) ? {...(target as Obj)} : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = mergePatch(out[k], v)
  }
  return out
}

function alreadyExists(resource: string, name: string): PodControlError {
  return new PodControlError({code: 409, reason: 'AlreadyExists', message: `${resource} "${name}" already exists`})
}

function rvOf(o: Obj): string {
  const rv = o.metadata?.resourceVersion
  return typeof rv === 'string' ? rv : ''
}

function notFound(resource: string, name: string): PodControlError {
  return new PodControlError({code: 404, reason: 'NotFound', message: `${resource} "${name}" not found`})
}

function conflict(message: string): PodControlError {
  return new PodControlError({code: 409, reason: 'Conflict', message})
}

/** What the API server answers a write whose resourceVersion is not the object's. */
function modified(resource: string, name: string): PodControlError {
  return conflict(`Operation cannot be fulfilled on ${resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`)
}

export function groupOf(apiVersion: unknown): string {
  const v = String(apiVersion ?? '')
  const slash = v.indexOf('/')
  return slash < 0 ? '' : v.slice(0, slash)
}

/** The fields to a scale target's replicas: a custom resource's specReplicasPath (`.spec.size`), or spec.replicas. */
export function replicasFieldPath(specReplicasPath: string | undefined): string[] {
  return (specReplicasPath ?? '.spec.replicas').replace(/^\./, '').split('.')
}

/** A copy of `o` with the field at `path` set (the mappings on the way copied, created when absent). */
export function withField(o: Obj, path: readonly string[], value: unknown): Obj {
  const [f, ...rest] = path
  if (f === undefined) return o
  const inner = o[f] && typeof o[f] === 'object' && !Array.isArray(o[f]) ? o[f] : {}
  return {...o, [f]: rest.length === 0 ? value : withField(inner, rest, value)}
}
