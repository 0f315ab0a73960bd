// One sync of the StatefulSet or DaemonSet controller, carried out as planned, in the plan's order
// (which is the controller's: revisions, pods, status, history), with the preconditions a
// person-driven tool owes. How the calls go out follows upstream:
//   - StatefulSet, OrderedReady: one write at a time (runForAll, monotonic); the plan already stops
//     where the controller's sync blocks, so nothing past the block is sent.
//   - StatefulSet, Parallel: each pod's writes (its claims, then the pod; or its delete) in
//     slow-start batches 1, 2, 4 … over the pods (runForAll → slowStartBatch in
//     stateful_set_control.go), one phase after the other: the replicas, the condemned pods'
//     claims, the condemned pods. Upstream's batches also hold pods with nothing to do; here only
//     pods with a write count, so a failure may stop the sync a batch earlier or later than upstream's.
//   - DaemonSet: creates in slow-start batches, deletes all at once (syncNodes in daemon_controller.go).
//   - A `chooseDaemonPods` (upstream picks `count` of the candidates in Go's map order, i.e. at
//     random): reconcile takes the first `count` in the plan's order (by name) and says which in
//     the result (`done.chosen`).
// Deletes and updates carry the planned uid and resourceVersion as preconditions; creates by exact
// name fail with AlreadyExists when the name was taken since planning. A precondition that fails
// stops the whole run (the world changed); after any other failure only the status write is
// still sent, as the controller's sync writes status after an error and then returns it.
import type {ActionError, ActionResult} from '../../model/apply.js'
import type {Action, StatusView} from '../../model/plan.js'
import type {ChooseDaemonPodsAction, CreateDaemonPodAction, DeleteDaemonPodAction} from '../daemonset/model.js'
import {slowStart} from '../../reconcile/slow-start.js'
import {parseOrdinal} from './sync.js'
import {type ControllerObject, PodControlError, actionError, adoptPatch, releasePatch} from '../../apply/pod-control.js'
import {SKIP, SyncBase} from '../../apply/sync.js'
import {claimObject, daemonPodObject, revisionJson, revisionObject, statefulPodObject, templateOfRevision, workloadStatusObject} from './objects.js'

type Obj = Record<string, any>

/** A write to send: a planned action, or one chosen from a `chooseDaemonPods`. */
interface Write {
  index: number
  action: Exclude<Action, ChooseDaemonPodsAction>
}

/** How a run of writes goes out. */
type Step = {mode: 'one'; writes: Write[]} | {mode: 'slow'; groups: Write[][]} | {mode: 'all'; writes: Write[]}

export const WORKLOAD_SKIP = {
  revisionUnknown: 'not sent: the new revision\'s name is unknown here (read the set from a cluster, or from its kubectl get -o yaml)',
} as const

export class WorkloadSync extends SyncBase {
  /** Objects this sync wrote: their resourceVersion now (a later write to one names it). */
  private readonly versions = new Map<string, string>()
  private controller!: ControllerObject
  /** A write was not sent (its name is unknown): nothing after it is. */
  private skipped = false

  protected async steps(): Promise<void> {
    const controller = await this.readController()
    if (!controller) return
    this.controller = controller
    let failed = false
    for (const step of this.plannedSteps()) {
      const halt = this.run.stopReason()
      if (halt) return this.stop(halt)
      if (this.stopped) return
      // After a failed write the controller's sync returns its error, but still writes the status
      // (updateStatefulSetStatus, updateDaemonSetStatus run after an error too).
      const status = step.mode === 'one' && step.writes[0].action.type === 'updateStatus'
      if (failed && !status) {
        for (const w of stepWrites(step)) this.results[w.index].skipReason ??= SKIP.afterFailedWrite
        continue
      }
      if (!(await this.send(step))) {
        if (this.skipped) return
        failed = true
      }
    }
  }

  /** The plan's actions as steps, in order; a choice among candidates becomes the writes it picks. */
  private plannedSteps(): Step[] {
    const raw = this.controller.raw as Obj
    const parallel = this.cp.kind === 'StatefulSet' && raw.spec?.podManagementPolicy === 'Parallel'
    const start = Number(raw.spec?.ordinals?.start ?? 0)
    const end = start + Number(raw.spec?.replicas ?? 1)
    const steps: Step[] = []
    let block: {key: string; writes: Write[]} | undefined
    const flush = () => {
      if (!block) return
      const {key, writes} = block
      block = undefined
      if (key.startsWith('daemon-create')) steps.push({mode: 'slow', groups: writes.map((w) => [w])})
      else if (key.startsWith('daemon-delete')) steps.push({mode: 'all', writes})
      else steps.push({mode: 'slow', groups: groupByPod(writes)})
    }
    const add = (key: string | undefined, w: Write) => {
      if (key === undefined) {
        flush()
        steps.push({mode: 'one', writes: [w]})
        return
      }
      if (block?.key !== key) flush()
      block ??= {key, writes: []}
      block.writes.push(w)
    }
    for (const [index, action] of this.cp.actions.entries()) {
      if (action.type === 'chooseDaemonPods') {
        for (const chosen of (action.choices ?? []).slice(0, action.count)) add(`daemon-${chosen.type === 'createDaemonPod' ? 'create' : 'delete'}`, {index, action: chosen})
        continue
      }
      add(blockKey(action, parallel, start, end), {index, action})
    }
    flush()
    return steps
  }

  /** Sends a step; false when the sync ends after it. */
  private async send(step: Step): Promise<boolean> {
    if (step.mode === 'one') return this.write(step.writes[0])
    if (step.mode === 'all') return (await Promise.all(step.writes.map((w) => this.write(w)))).every(Boolean)
    let next = 0
    const outcome = await slowStart(step.groups.length, async (batch) => {
      const group = step.groups[next++]
      for (const w of group) {
        this.results[w.index].batch = batch
        if (!(await this.write(w))) return false
      }
      return true
    })
    return outcome.successes === step.groups.length
  }

  /** One write, settled into its result; false when it failed or was not sent. */
  private async write(w: Write): Promise<boolean> {
    const r = this.results[w.index]
    const planned = this.cp.actions[w.index]
    if (this.run.stopReason()) return false
    let done: Awaited<ReturnType<WorkloadSync['call']>>
    try {
      done = await this.run.calls.run(() => this.call(w.action))
    } catch (e) {
      return this.failed(w, r, actionError(e))
    }
    if (done === 'skip') {
      this.skipped = true
      this.stop(SKIP.afterUnsent)
      return false
    }
    if (planned.type !== 'chooseDaemonPods') {
      if (done) r.done = {...(r.done ?? {}), ...done}
      this.settle(r, 'ok')
      return true
    }
    // One of the writes a choice picked: the choice is done when all of them are.
    const a = w.action as CreateDaemonPodAction | DeleteDaemonPodAction
    r.done = {...(r.done ?? {}), chosen: [...(r.done?.chosen ?? []), a.type === 'createDaemonPod' ? a.node : a.pod]}
    if (done?.name) r.done.names = [...(r.done.names ?? []), done.name]
    if (r.done.chosen!.length === planned.count && r.outcome !== 'failed') this.settle(r, 'ok')
    return true
  }

  /** The call of one write; `skip` when it is not sent (and the result says why). */
  private async call(action: Write['action']): Promise<ActionResult['done'] | 'skip' | void> {
    const ns = this.cp.namespace
    const raw = this.controller.raw as Obj
    const control = this.control
    switch (action.type) {
      case 'adoptControllerRevision':
      case 'releaseControllerRevision': {
        const patch = action.type === 'adoptControllerRevision' ? adoptPatch(action.uid, this.cp) : releasePatch(action.uid, this.cp.uid)
        return this.wrote(`ControllerRevision/${action.name}`, await control.patchObject('ControllerRevision', ns, action.name, patch, 'strategic'))
      }
      case 'adopt':
      case 'release': {
        const patch = action.type === 'adopt' ? adoptPatch(action.uid, this.cp) : releasePatch(action.uid, this.cp.uid)
        return this.wrote(`Pod/${action.pod}`, await control.patchPod(ns, action.pod, patch))
      }
      case 'createControllerRevision': {
        if (action.name === null) {
          this.results[this.cp.actions.indexOf(action)].skipReason = WORKLOAD_SKIP.revisionUnknown
          return 'skip'
        }
        const {object, data} = revisionObject({...action, name: action.name}, ns, raw)
        const made = await control.createObject({...object, data: JSON.parse(data)}, revisionJson(object, data))
        return {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
      }
      case 'updateControllerRevision':
        return this.wrote(`ControllerRevision/${action.name}`, await control.patchObject('ControllerRevision', ns, action.name, {metadata: this.pre(`ControllerRevision/${action.name}`, action), revision: action.to}, 'merge'))
      case 'deleteControllerRevision':
        return control.deleteObject('ControllerRevision', ns, action.name, this.pre(`ControllerRevision/${action.name}`, action))
      case 'createClaim': {
        const made = await control.createObject(claimObject(action, ns, raw))
        return {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
      }
      case 'updateClaim':
        return this.wrote(`PersistentVolumeClaim/${action.claim}`, await control.patchObject('PersistentVolumeClaim', ns, action.claim, {metadata: {...this.pre(`PersistentVolumeClaim/${action.claim}`, action), ownerReferences: action.to}}, 'merge'))
      case 'createStatefulPod': {
        let template = (raw.spec?.template ?? {}) as Obj
        if (action.template === 'current' && action.revision !== null) template = templateOfRevision(await control.getObject('ControllerRevision', ns, action.revision))
        const made = await control.createPod(statefulPodObject(action, ns, raw, template))
        return {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
      }
      case 'updatePod': {
        if (action.fixes.includes('volumes')) throw new PodControlError({message: `pod ${ns}/${action.pod}: its volumes do not match the claim templates, and a pod's volumes cannot be changed once it exists (the controller's update is refused the same way); delete the pod to have it re-created`})
        const {ordinal} = parseOrdinal(action.pod)
        const labels = action.fixes.some((f) => f.endsWith('-label')) ? {labels: {'statefulset.kubernetes.io/pod-name': action.pod, 'apps.kubernetes.io/pod-index': String(ordinal)}} : {}
        return this.wrote(`Pod/${action.pod}`, await control.patchObject('Pod', ns, action.pod, {metadata: {...this.pre(`Pod/${action.pod}`, action), ...labels}}, 'merge'))
      }
      case 'createDaemonPod': {
        const made = await control.createPod(daemonPodObject(action, ns, raw))
        return {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
      }
      case 'deleteStatefulPod':
      case 'deleteDaemonPod':
        return control.deletePod(ns, action.pod, this.pre(`Pod/${action.pod}`, action))
      case 'updateStatus': {
        const object = structuredClone(raw)
        object.metadata = {...(object.metadata ?? {}), resourceVersion: this.cp.resourceVersion}
        object.status = workloadStatusObject(this.cp.kind as 'StatefulSet' | 'DaemonSet', action.to as Obj, raw.status)
        const written = await control.updateStatus(this.cp, object)
        return {status: action.to as StatusView, ...(written.resourceVersion ? {resourceVersion: written.resourceVersion} : {})}
      }
      default:
        throw new PodControlError({message: `internal: ${action.type} is not a StatefulSet or DaemonSet write`})
    }
  }

  /** The uid and resourceVersion a write names: the plan's, or the version an earlier write of this sync left. */
  private pre(key: string, a: {uid: string; resourceVersion: string}): {uid: string; resourceVersion: string} {
    return {uid: a.uid, resourceVersion: this.versions.get(key) ?? a.resourceVersion}
  }

  private wrote(key: string, done: {resourceVersion?: string}): void {
    // A dry run changed nothing: a later write names the version the plan saw.
    if (!this.control.dryRun && done.resourceVersion) this.versions.set(key, done.resourceVersion)
  }

  /**
   * A refused write: done after all (a pod, revision or claim to delete or release that is gone),
   * a precondition that found the world changed since planning, or another failure.
   */
  private failed(w: Write, r: ActionResult, error: ActionError): boolean {
    const a = w.action
    const removal = a.type === 'deleteStatefulPod' || a.type === 'deleteDaemonPod' || a.type === 'deleteControllerRevision' || a.type === 'release' || a.type === 'releaseControllerRevision'
    if (removal && error.code === 404) {
      r.done = {...(r.done ?? {}), alreadyGone: true}
      const choice = this.cp.actions[w.index]
      if (choice.type !== 'chooseDaemonPods') this.settle(r, 'ok')
      else {
        r.done.chosen = [...(r.done.chosen ?? []), (a as DeleteDaemonPodAction).pod]
        if (r.done.chosen.length === choice.count && r.outcome !== 'failed') this.settle(r, 'ok')
      }
      return true
    }
    const creates = a.type === 'createStatefulPod' || a.type === 'createClaim' || a.type === 'createControllerRevision'
    // 409: a precondition, or (creates by exact name) the name taken since planning; 404/422 on a write to an existing object: gone or replaced.
    const changed = error.code === 409 || (!creates && a.type !== 'createDaemonPod' && a.type !== 'updateStatus' && (error.code === 404 || error.code === 422))
    if (changed) this.conflicted(r, error, `${describe(a, this.cp.namespace, this.label)} changed since planning`)
    else this.settle(r, 'failed', error)
    return false
  }
}

/** Which concurrent block an action belongs to (undefined: sent alone, in order). */
function blockKey(a: Write['action'], parallel: boolean, start: number, end: number): string | undefined {
  if (a.type === 'createDaemonPod') return 'daemon-create'
  if (a.type === 'deleteDaemonPod') return 'daemon-delete'
  if (!parallel) return undefined
  if (a.type === 'deleteStatefulPod' && a.reason === 'update') return undefined
  if (a.type !== 'createClaim' && a.type !== 'updateClaim' && a.type !== 'createStatefulPod' && a.type !== 'updatePod' && a.type !== 'deleteStatefulPod') return undefined
  const {ordinal} = parseOrdinal(a.pod)
  if (ordinal >= start && ordinal < end) return 'replicas'
  return a.type === 'updateClaim' ? 'condemned-claims' : 'condemned'
}

function stepWrites(step: Step): Write[] {
  return step.mode === 'slow' ? step.groups.flat() : step.writes
}

/** One group per pod, in the order the pods first appear (each pod's writes in order). */
function groupByPod(writes: Write[]): Write[][] {
  const groups = new Map<string, Write[]>()
  for (const w of writes) {
    const pod = 'pod' in w.action ? String(w.action.pod) : ''
    const g = groups.get(pod)
    if (g) g.push(w)
    else groups.set(pod, [w])
  }
  return [...groups.values()]
}

function describe(a: Write['action'], ns: string, label: string): string {
  switch (a.type) {
    case 'createControllerRevision':
    case 'updateControllerRevision':
    case 'deleteControllerRevision':
    case 'adoptControllerRevision':
    case 'releaseControllerRevision':
      return `ControllerRevision ${ns}/${a.name ?? ''}`
    case 'createClaim':
    case 'updateClaim':
      return `PersistentVolumeClaim ${ns}/${a.claim}`
    case 'updateStatus':
      return label
    default:
      return 'pod' in a ? `pod ${ns}/${a.pod}` : label
  }
}

