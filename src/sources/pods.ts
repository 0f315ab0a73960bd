// Pods as the controllers read them: the fields every controller reads (phase, readiness,
// containers), those the StatefulSet and DaemonSet controllers both read (podWorkloadFields), and
// those only one controller reads, which its read part gives (ControllerRead.podFields).
import type {ContainerStatusView, Labels, Origin, OwnerReference, PodView} from '../model/objects.js'
import {type Ctx, describe, EMPTY, EMPTY_RAW, INT32_MAX, isMapping} from './context.js'
import type {Locator, Path, RawObject} from './documents.js'
import type {SourceFile} from './files.js'
import {Chunk} from './source-object.js'
import type {KindReader, PodFieldsReader, ReadInput} from './part.js'

/** The Pod reader, given the pod fields the controllers read. */
export function podReader(podFields: readonly PodFieldsReader[]): KindReader {
  return {kind: 'Pod', group: '', version: 'v1', read: (input) => readPod(input, podFields)}
}

// Paths of the fields read on every pod, built once (not on every call).
const P = {
  spec: ['spec'],
  status: ['status'],
  nodeName: ['spec', 'nodeName'],
  initContainers: ['spec', 'initContainers'],
  phase: ['status', 'phase'],
  conditions: ['status', 'conditions'],
  containerStatuses: ['status', 'containerStatuses'],
  initContainerStatuses: ['status', 'initContainerStatuses'],
} as const satisfies Record<string, Path>
const NO_STATUSES: ContainerStatusView[] = Object.freeze([]) as unknown as ContainerStatusView[]
const NO_FIELDS = Object.freeze({})
const NO_CONTROLLER_FIELDS: readonly Partial<PodView>[] = Object.freeze([])

/**
 * What the pods read in a row mostly have alike (a controller's pods, of one template, in one
 * state): one object for them, which each pod refers to. Pods are many, and kept: each field
 * here is one fewer on every pod.
 */
class PodState {
  constructor(
    readonly generation: number,
    readonly annotations: Labels,
    readonly ownerReferences: readonly OwnerReference[],
    readonly deletionTimestamp: string | undefined,
    readonly phase: string,
    readonly ready: boolean,
    readonly containerStatuses: readonly ContainerStatusView[],
    readonly sidecarStatuses: readonly ContainerStatusView[],
  ) {}
}

/** The state of the pod read last (see sharedState). */
let lastState: PodState | undefined

/**
 * The state of the pod read before when it has these values (each compared as it is kept: the
 * lists and maps are shared, not copied), else a new one: made only when it differs.
 */
function sharedState(
  generation: number,
  annotations: Labels,
  ownerReferences: readonly OwnerReference[],
  deletionTimestamp: string | undefined,
  phase: string,
  ready: boolean,
  containerStatuses: readonly ContainerStatusView[],
  sidecarStatuses: readonly ContainerStatusView[],
): PodState {
  const last = lastState
  const same =
    last !== undefined &&
    last.generation === generation &&
    last.annotations === annotations &&
    last.ownerReferences === ownerReferences &&
    last.deletionTimestamp === deletionTimestamp &&
    last.phase === phase &&
    last.ready === ready &&
    last.containerStatuses === containerStatuses &&
    last.sidecarStatuses === sidecarStatuses
  return same ? last : (lastState = new PodState(generation, annotations, ownerReferences, deletionTimestamp, phase, ready, containerStatuses, sidecarStatuses))
}

class PodRecord implements PodView {
  /** The fields pods read in a row mostly share (see PodState). */
  readonly #state: PodState
  /**
   * Where the pod is: its chunk's file and byte span when it is a chunk's whole value (the chunk
   * is made again when the origin is asked for, which is rare: pods are many, and kept); else its locator.
   */
  readonly #at: SourceFile | Locator
  readonly #start: number
  readonly #end: number
  readonly #lineStart: number
  constructor(
    loc: Locator,
    readonly namespace: string,
    readonly name: string,
    readonly uid: string,
    readonly resourceVersion: string,
    readonly labels: Labels,
    readonly creationTimestamp: string | undefined,
    readonly nodeName: string,
    readonly readySince: string | undefined,
    state: PodState,
    workloadFields: {affinityNode?: string; claimVolumes?: Labels},
    controllerFields: readonly Partial<PodView>[],
  ) {
    this.#state = state
    // The fields only one controller reads (a Job's pod's batch fields, a pod's network for the
    // Service controllers), in the registry's order; set only when present.
    for (const fields of controllerFields) Object.assign(this, fields)
    const chunk = loc instanceof Chunk && loc.skip === 0 ? loc : undefined
    this.#at = chunk ? chunk.source : loc
    this.#start = chunk ? chunk.start : -1
    this.#end = chunk ? chunk.end : -1
    this.#lineStart = chunk ? chunk.lineStart : -1
    // Set only when present, so that most pods carry no extra fields.
    if (workloadFields.affinityNode !== undefined) this.affinityNode = workloadFields.affinityNode
    if (workloadFields.claimVolumes !== undefined) this.claimVolumes = workloadFields.claimVolumes
  }

  declare readonly affinityNode?: string
  declare readonly claimVolumes?: Labels
  declare readonly batch?: PodView['batch']
  declare readonly network?: PodView['network']

  get generation(): number {
    return this.#state.generation
  }

  get annotations(): Labels {
    return this.#state.annotations
  }

  get ownerReferences(): readonly OwnerReference[] {
    return this.#state.ownerReferences
  }

  get deletionTimestamp(): string | undefined {
    return this.#state.deletionTimestamp
  }

  get phase(): string {
    return this.#state.phase
  }

  get ready(): boolean {
    return this.#state.ready
  }

  get containerStatuses(): readonly ContainerStatusView[] {
    return this.#state.containerStatuses
  }

  get sidecarStatuses(): readonly ContainerStatusView[] {
    return this.#state.sidecarStatuses
  }

  /** All its fields, as JSON.stringify wrote them when each was the pod's own (plainPod). */
  toJSON(): PodView {
    return plainPod(this)
  }

  get origin(): Origin {
    const at = this.#at
    return this.#start < 0 ? (at as Locator).origin : new Chunk(at as SourceFile, this.#start, this.#end, 0, this.#lineStart).origin
  }
}

/**
 * A pod's fields as a plain object, to copy and edit: a spread of a pod read from fixtures leaves
 * out the fields it shares with the pods before it (PodState). In the order a pod read from
 * fixtures has them: those every pod has, then the others it carries.
 */
export function plainPod(pod: PodView): PodView {
  const every: PodView = {
    namespace: pod.namespace,
    name: pod.name,
    uid: pod.uid,
    resourceVersion: pod.resourceVersion,
    generation: pod.generation,
    labels: pod.labels,
    annotations: pod.annotations,
    ownerReferences: pod.ownerReferences,
    creationTimestamp: pod.creationTimestamp,
    deletionTimestamp: pod.deletionTimestamp,
    nodeName: pod.nodeName,
    phase: pod.phase,
    ready: pod.ready,
    readySince: pod.readySince,
    containerStatuses: pod.containerStatuses,
    sidecarStatuses: pod.sidecarStatuses,
  }
  return Object.assign(every, pod)
}

function readPod(input: ReadInput, podFields: readonly PodFieldsReader[]): void {
  const {ctx, meta, raw} = input
  const spec = ctx.mapping(raw.spec, P.spec) ?? EMPTY_RAW
  const status = ctx.mapping(raw.status, P.status) ?? EMPTY_RAW
  const nodeName = ctx.string(spec.nodeName, P.nodeName) ?? ''
  const phase = ctx.string(status.phase, P.phase) ?? ''
  let ready = false
  let readySince: string | undefined
  const conditions = status.conditions
  if (conditions !== undefined && conditions !== null) {
    if (!Array.isArray(conditions)) ctx.fail(P.conditions, `expected a list, got ${describe(conditions)}`)
    else {
      let seenReady = false
      for (let i = 0; i < conditions.length; i++) {
        const c = conditions[i]
        if (!isMapping(c)) {
          ctx.fail([...P.conditions, i], `expected a mapping, got ${describe(c)}`)
          continue
        }
        const type = ctx.itemString(c, 'type', P.conditions, i, false)
        const cstatus = ctx.itemString(c, 'status', P.conditions, i, false)
        const since = ctx.itemTime(c, 'lastTransitionTime', P.conditions, i)
        if (type === 'Ready' && !seenReady) {
          // podutil.GetPodCondition: the first Ready condition counts.
          seenReady = true
          ready = cstatus === 'True'
          if (ready) readySince = ctx.own(since)
        }
      }
    }
  }
  const containerStatuses = readContainerStatuses(ctx, status.containerStatuses, P.containerStatuses)
  let sidecarStatuses: ContainerStatusView[] = NO_STATUSES
  if (status.initContainerStatuses !== undefined && status.initContainerStatuses !== null) {
    const init = readContainerStatuses(ctx, status.initContainerStatuses, P.initContainerStatuses)
    const sidecars = new Set<string>()
    const specs = spec.initContainers
    if (Array.isArray(specs)) {
      for (let i = 0; i < specs.length; i++) {
        const c = specs[i]
        if (!isMapping(c)) continue
        const name = ctx.itemString(c, 'name', P.initContainers, i, false)
        const policy = ctx.itemString(c, 'restartPolicy', P.initContainers, i, false)
        if (name !== undefined && policy === 'Always') sidecars.add(name)
      }
    }
    sidecarStatuses = init.filter((s) => sidecars.has(s.name))
  }
  if (!input.wanted()) return
  let controllerFields: Partial<PodView>[] | undefined
  for (const read of podFields) {
    const fields = read(ctx, meta, raw, spec, status, input)
    if (fields !== undefined) (controllerFields ??= []).push(fields)
  }
  input.collect(
    'pods',
    new PodRecord(
      input.locator,
      meta.namespace,
      meta.name,
      meta.uid,
      meta.resourceVersion,
      sharedLabels.share(meta.labels),
      meta.creationTimestamp,
      ctx.own(nodeName),
      readySince,
      sharedState(meta.generation, sharedAnnotations.share(meta.annotations), meta.ownerReferences, meta.deletionTimestamp, ctx.own(phase), ready, containerStatuses, sidecarStatuses),
      spec.affinity === undefined && spec.volumes === undefined ? NO_FIELDS : podWorkloadFields(spec),
      controllerFields ?? NO_CONTROLLER_FIELDS,
    ),
  )
}

function readContainerStatuses(ctx: Ctx, v: unknown, path: Path): ContainerStatusView[] {
  if (v === undefined || v === null) return NO_STATUSES
  if (!Array.isArray(v)) {
    ctx.fail(path, `expected a list, got ${describe(v)}`)
    return NO_STATUSES
  }
  // Of the exact size (a list grown by push keeps room for 16 more items): pods are many, and kept.
  const out: ContainerStatusView[] = new Array(v.length)
  let kept = 0
  for (let i = 0; i < v.length; i++) {
    const s = v[i]
    if (!isMapping(s)) {
      ctx.fail([...path, i], `expected a mapping, got ${describe(s)}`)
      continue
    }
    const name = ctx.itemString(s, 'name', path, i, false) ?? ''
    let restartCount = s.restartCount
    if (typeof restartCount !== 'number' || !Number.isInteger(restartCount) || restartCount < 0 || restartCount > INT32_MAX) {
      restartCount = ctx.int(restartCount, [...path, i, 'restartCount'], 0, INT32_MAX) ?? 0
    }
    out[kept++] = {name: ctx.own(name), restartCount: restartCount as number}
  }
  if (kept < out.length) out.length = kept
  return sharedStatuses(out)
}

/**
 * A map read from each pod (its labels, its annotations), or the one read from the pod before it
 * when that has the same keys in the same order with the same values: the pods of one controller
 * mostly carry the same maps, and pods are many, and kept.
 */
class SharedMaps {
  private last: Labels = EMPTY
  private lastKeys: readonly string[] = []

  share(map: Labels): Labels {
    const last = this.last
    if (map === last) return map
    const keys = this.lastKeys
    const count = keys.length
    let n = 0
    let sameValues = true
    for (const key in map) {
      if (n === count || key !== keys[n]) {
        n = -1
        break
      }
      sameValues &&= map[key] === last[key]
      n++
    }
    // One way out, met by every call: a line met only when the map repeats would first be met late
    // (at the first pod that repeats the map before it), throwing out readPod's optimised code.
    return n === count && sameValues ? last : this.kept(map, n === count)
  }

  /** `map`, kept to compare the next with; its keys are listed again only when they differ from those before (a StatefulSet's pods differ in one value). */
  private kept(map: Labels, sameKeys: boolean): Labels {
    this.last = map
    if (!sameKeys) this.lastKeys = Object.keys(map)
    return map
  }
}

const sharedLabels = new SharedMaps()
const sharedAnnotations = new SharedMaps()

/** The statuses read last, shared (frozen) by the pods that follow with the same names and restart counts. */
let lastStatuses: ContainerStatusView[] = NO_STATUSES

/**
 * `statuses`, or the same list read before it: the pods of one template mostly have the same
 * containers, none restarted, and pods are many, and kept.
 */
function sharedStatuses(statuses: ContainerStatusView[]): ContainerStatusView[] {
  const last = lastStatuses
  const n = statuses.length
  if (n === last.length) {
    let i = 0
    while (i < n && statuses[i].name === last[i].name && statuses[i].restartCount === last[i].restartCount) i++
    if (i === n) return last
  }
  for (const s of statuses) Object.freeze(s)
  return (lastStatuses = Object.freeze(statuses) as ContainerStatusView[])
}

/** What a pod's spec says for the DaemonSet and StatefulSet controllers (GetTargetNodeName, volumes). */
export function podWorkloadFields(spec: RawObject): {affinityNode?: string; claimVolumes?: Record<string, string>} {
  const out: {affinityNode?: string; claimVolumes?: Record<string, string>} = {}
  const required = (spec.affinity as RawObject | undefined)?.nodeAffinity as RawObject | undefined
  const selector = isMapping(required) ? required.requiredDuringSchedulingIgnoredDuringExecution : undefined
  if (isMapping(selector)) {
    out.affinityNode = ''
    const terms = Array.isArray(selector.nodeSelectorTerms) ? selector.nodeSelectorTerms : []
    // The first `metadata.name In` requirement decides, even with more than one value (then none).
    search: for (const term of terms) {
      const fields = isMapping(term) && Array.isArray(term.matchFields) ? term.matchFields : []
      for (const f of fields) {
        if (isMapping(f) && f.key === 'metadata.name' && f.operator === 'In') {
          const values = Array.isArray(f.values) ? f.values : []
          if (values.length === 1 && typeof values[0] === 'string') out.affinityNode = values[0]
          break search
        }
      }
    }
  }
  if (Array.isArray(spec.volumes)) {
    for (const v of spec.volumes) {
      if (!isMapping(v) || typeof v.name !== 'string' || !isMapping(v.persistentVolumeClaim)) continue
      const claimName = v.persistentVolumeClaim.claimName
      if (typeof claimName === 'string') (out.claimVolumes ??= {})[v.name] = claimName
    }
  }
  return out
}
