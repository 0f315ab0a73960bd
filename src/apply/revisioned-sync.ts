// One sync of a controller that keeps its history in ControllerRevisions (the StatefulSet and
// DaemonSet controllers), carried out as planned, in the plan's order (which is the controller's:
// revisions, pods, status, history), with the preconditions a person-driven tool owes. Each
// controller's part (src/controllers/<controller>/apply.ts) says how its own writes go out, and
// which of its actions are choices among candidates (choiceOf): a choice's writes are sent, and
// its result says which were taken (`done.chosen`).
// Deletes and updates carry the planned uid and resourceVersion as preconditions; creates by exact
// name fail with AlreadyExists when the name was taken since planning. A precondition that fails
// stops the whole run (the world changed); after any other failure only the status write is
// still sent, as the controller's sync writes status after an error and then returns it.
import type {ActionError, ActionResult} from '../model/apply.js'
import type {Action, StatusView} from '../model/plan.js'
import {slowStart} from '../reconcile/slow-start.js'
import {type ControllerObject, PodControlError, actionError, adoptPatch, releasePatch} from './pod-control.js'
import {SKIP, SyncBase} from './sync.js'
import {revisionJson, revisionObject} from './revisioned-objects.js'

type Obj = Record<string, any>

/** A write to send: a planned action, or one a choice picked (choiceOf). */
export interface Write {
  index: number
  action: Exclude<Action, {type: 'chooseDaemonPods'}>
}

/**
 * A run of writes sent together: `each` in slow-start batches one write at a time, `pods` in
 * slow-start batches one pod's writes at a time, `all` at once. Writes of the same key in a row
 * form one block.
 */
export interface Block {
  key: string
  mode: 'each' | 'pods' | 'all'
}

/** How a run of writes goes out. */
type Step = {mode: 'one'; writes: Write[]} | {mode: 'slow'; groups: Write[][]} | {mode: 'all'; writes: Write[]}

export const WORKLOAD_SKIP = {
  revisionUnknown: 'not sent: the new revision\'s name is unknown here (read the set from a cluster, or from its kubectl get -o yaml)',
} as const

/**
 * One sync of a controller that keeps its history in ControllerRevisions (StatefulSet, DaemonSet):
 * the writes they share (revisions, claims of pods, the status) are sent here; each controller's
 * subclass sends its own (`own`) and says how its writes are grouped (`block`).
 */
export abstract class RevisionedSync extends SyncBase {
  /** Objects this sync wrote: their resourceVersion now (a later write to one names it). */
  private readonly versions = new Map<string, string>()
  protected controller!: ControllerObject
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
    const blockOf = this.blocks(this.controller.raw as Obj)
    const steps: Step[] = []
    let block: {key: string; mode: Block['mode']; writes: Write[]} | undefined
    const flush = () => {
      if (!block) return
      const {mode, writes} = block
      block = undefined
      if (mode === 'each') steps.push({mode: 'slow', groups: writes.map((w) => [w])})
      else if (mode === 'all') steps.push({mode: 'all', writes})
      else steps.push({mode: 'slow', groups: groupByPod(writes)})
    }
    const add = (b: Block | undefined, w: Write) => {
      if (b === undefined) {
        flush()
        steps.push({mode: 'one', writes: [w]})
        return
      }
      if (block?.key !== b.key) flush()
      block ??= {...b, writes: []}
      block.writes.push(w)
    }
    for (const [index, action] of this.cp.actions.entries()) {
      const choice = this.choiceOf(action)
      if (choice) {
        for (const chosen of choice.writes) add(blockOf(chosen), {index, action: chosen})
        continue
      }
      add(blockOf(action as Write['action']), {index, action: action as Write['action']})
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
    let done: Awaited<ReturnType<RevisionedSync['call']>>
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
    const choice = this.choiceOf(planned)
    if (!choice) {
      if (done) r.done = {...(r.done ?? {}), ...done}
      this.settle(r, 'ok')
      return true
    }
    // One of the writes a choice picked: the choice is done when all of them are.
    r.done = {...(r.done ?? {}), chosen: [...(r.done?.chosen ?? []), this.chosen(w.action)]}
    if (done?.name) r.done.names = [...(r.done.names ?? []), done.name]
    if (r.done.chosen!.length === choice.count && r.outcome !== 'failed') this.settle(r, 'ok')
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
        const {object, data} = revisionObject({...action, name: action.name}, ns, raw, this.copiesAnnotationsToRevisions)
        const made = await control.createObject({...object, data: JSON.parse(data)}, revisionJson(object, data))
        return {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
      }
      case 'updateControllerRevision':
        return this.wrote(`ControllerRevision/${action.name}`, await control.patchObject('ControllerRevision', ns, action.name, {metadata: this.pre(`ControllerRevision/${action.name}`, action), revision: action.to}, 'merge'))
      case 'deleteControllerRevision':
        return control.deleteObject('ControllerRevision', ns, action.name, this.pre(`ControllerRevision/${action.name}`, action))
      case 'updateStatus': {
        const object = structuredClone(raw)
        object.metadata = {...(object.metadata ?? {}), resourceVersion: this.cp.resourceVersion}
        object.status = this.statusObject(action.to as Obj, raw.status)
        const written = await control.updateStatus(this.cp, object)
        return {status: action.to as StatusView, ...(written.resourceVersion ? {resourceVersion: written.resourceVersion} : {})}
      }
      default:
        return this.own(action)
    }
  }

  /** How the writes of this controller are grouped (`raw`: the controller as read): a block, or undefined (sent alone, in order). */
  protected abstract blocks(raw: Obj): (a: Write['action']) => Block | undefined
  /** The call of one of this controller's own writes (not a revision's, a claim's of a pod, or the status). */
  protected abstract own(action: Write['action']): Promise<ActionResult['done'] | 'skip' | void>
  /** The status as this controller stores it: the planned `view` over the one read (`before`). */
  protected abstract statusObject(view: Obj, before: Obj | undefined): Obj
  /** Its ControllerRevisions copy the set's annotations (constructHistory). */
  protected copiesAnnotationsToRevisions = false
  /**
   * A planned action that picks among candidates (a DaemonSet's chooseDaemonPods): the writes it
   * takes, and how many it picks; undefined: the action is one write.
   */
  protected choiceOf(_a: Action): {writes: Array<Write['action']>; count: number} | undefined {
    return undefined
  }
  /** What a choice's write picked (a node to create on, a pod to delete). */
  protected chosen(a: Write['action']): string {
    return 'pod' in a ? String(a.pod) : ''
  }
  /** Its pod deletes (done when the pod is gone already). */
  protected removes(_a: Write['action']): boolean {
    return false
  }
  /** Its creates by exact name (409: the name was taken since planning). */
  protected createsByName(_a: Write['action']): boolean {
    return false
  }
  /** Its creates by generateName (a 404 or 422 is not the world changing). */
  protected createsByGenerateName(_a: Write['action']): boolean {
    return false
  }
  /** What a refused write was about, when it is not a revision, a pod or the controller. */
  protected describeOwn(_a: Write['action'], _ns: string): string | undefined {
    return undefined
  }

  /** The uid and resourceVersion a write names: the plan's, or the version an earlier write of this sync left. */
  protected pre(key: string, a: {uid: string; resourceVersion: string}): {uid: string; resourceVersion: string} {
    return {uid: a.uid, resourceVersion: this.versions.get(key) ?? a.resourceVersion}
  }

  protected wrote(key: string, done: {resourceVersion?: string}): void {
    // A dry run changed nothing: a later write names the version the plan saw.
    if (!this.control.dryRun && done.resourceVersion) this.versions.set(key, done.resourceVersion)
  }

  /**
   * A refused write: done after all (a pod, revision or claim to delete or release that is gone),
   * a precondition that found the world changed since planning, or another failure.
   */
  private failed(w: Write, r: ActionResult, error: ActionError): boolean {
    const a = w.action
    const removal = this.removes(a) || a.type === 'deleteControllerRevision' || a.type === 'release' || a.type === 'releaseControllerRevision'
    if (removal && error.code === 404) {
      r.done = {...(r.done ?? {}), alreadyGone: true}
      const choice = this.choiceOf(this.cp.actions[w.index])
      if (!choice) this.settle(r, 'ok')
      else {
        r.done.chosen = [...(r.done.chosen ?? []), this.chosen(a)]
        if (r.done.chosen.length === choice.count && r.outcome !== 'failed') this.settle(r, 'ok')
      }
      return true
    }
    const creates = this.createsByName(a) || a.type === 'createControllerRevision'
    // 409: a precondition, or (creates by exact name) the name taken since planning; 404/422 on a write to an existing object: gone or replaced.
    const changed = error.code === 409 || (!creates && !this.createsByGenerateName(a) && a.type !== 'updateStatus' && (error.code === 404 || error.code === 422))
    if (changed) this.conflicted(r, error, `${this.describeOwn(a, this.cp.namespace) ?? describe(a, this.cp.namespace, this.label)} changed since planning`)
    else this.settle(r, 'failed', error)
    return false
  }
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
    case 'updateStatus':
      return label
    default:
      return 'pod' in a ? `pod ${ns}/${a.pod}` : label
  }
}

