// A PodControl that records every call and answers from a script (upstream's FakePodControl):
// the executor is tested by handing it hand-built plans and reading what it sent.
import type {ActionError} from '../../src/model/apply.js'
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
} from '../../src/apply/pod-control.js'

export type RecordedCall =
  | {type: 'getController'; key: ControllerKey}
  | {type: 'createPod'; pod: PodManifest}
  | {type: 'deletePod'; namespace: string; name: string; preconditions: DeletePreconditions}
  | {type: 'patchPod'; namespace: string; name: string; patch: OwnerPatch}
  | {type: 'updateStatus'; key: ControllerKey; object: Record<string, unknown>}
  | {type: 'updateScale'; key: ControllerKey; scale: ScaleObject}
  | {type: 'createReplicaSet'; rs: ReplicaSetManifest}
  | {type: 'patchReplicaSet'; namespace: string; name: string; patch: OwnerPatch | ReplicaSetPatch}
  | {type: 'deleteReplicaSet'; namespace: string; name: string; preconditions: DeletePreconditions}
  | {type: 'getObject'; kind: SideKind; namespace: string; name: string}
  | {type: 'createObject'; object: SideObject; json?: string}
  | {type: 'patchObject'; kind: SideKind | 'Pod'; namespace: string; name: string; patch: ObjectPatch | OwnerPatch; patchType: 'merge' | 'strategic'}
  | {type: 'deleteObject'; kind: SideKind; namespace: string; name: string; preconditions: DeletePreconditions}

/** What a scripted call answers: nothing (success), an error, or a value for getController/createPod. */
export type Answer = void | undefined | ActionError | Partial<ControllerObject> | CreatedPod

export interface RecordingOptions {
  dryRun?: boolean
  /** Controllers getController returns, by `kind/namespace/name`; others answer 404. */
  controllers?: Record<string, Partial<ControllerObject>>
  /** Decides each call's answer (after it is recorded); return an ActionError (with `message`) to fail it. */
  respond?: (call: RecordedCall, index: number) => Answer | Promise<Answer>
}

export class RecordingPodControl implements PodControl {
  readonly dryRun: boolean
  readonly calls: RecordedCall[] = []
  /** Calls in flight right now, and the most ever seen at once. */
  inFlight = 0
  maxInFlight = 0
  /** Creates answered so far (names the pods of unscripted creates). */
  private created = 0

  constructor(private readonly opts: RecordingOptions = {}) {
    this.dryRun = opts.dryRun ?? false
  }

  callsOf<T extends RecordedCall['type']>(type: T): Extract<RecordedCall, {type: T}>[] {
    return this.calls.filter((c): c is Extract<RecordedCall, {type: T}> => c.type === type)
  }

  async getController(key: ControllerKey): Promise<ControllerObject> {
    const answer = await this.run({type: 'getController', key})
    const scripted = this.opts.controllers?.[`${key.kind}/${key.namespace}/${key.name}`]
    const found = {...(scripted ?? {}), ...((answer && !isError(answer) ? answer : {}) as Partial<ControllerObject>)}
    if (!scripted && !(answer && !isError(answer))) {
      throw new PodControlError({code: 404, reason: 'NotFound', message: `${key.kind} "${key.name}" not found`})
    }
    return {
      uid: found.uid ?? '',
      resourceVersion: found.resourceVersion ?? '',
      deletionTimestamp: found.deletionTimestamp,
      templateSpec: found.templateSpec ?? {containers: [{name: 'c', image: 'img'}]},
      raw: found.raw ?? {apiVersion: key.apiVersion, kind: key.kind, metadata: {name: key.name, namespace: key.namespace, uid: found.uid, resourceVersion: found.resourceVersion}},
    }
  }

  async createPod(pod: PodManifest): Promise<CreatedPod> {
    const answer = await this.run({type: 'createPod', pod})
    if (answer && 'name' in answer && typeof answer.name === 'string') return answer as CreatedPod
    this.created++
    return {name: `${pod.metadata.generateName}${String(this.created).padStart(5, '0')}`, uid: `uid-created-${this.created}`}
  }

  async deletePod(namespace: string, name: string, preconditions: DeletePreconditions): Promise<void> {
    await this.run({type: 'deletePod', namespace, name, preconditions})
  }

  async patchPod(namespace: string, name: string, patch: OwnerPatch): Promise<{resourceVersion?: string}> {
    await this.run({type: 'patchPod', namespace, name, patch})
    return {resourceVersion: `patched-${name}`}
  }

  async updateStatus(key: ControllerKey, object: Record<string, unknown>): Promise<{resourceVersion?: string}> {
    await this.run({type: 'updateStatus', key, object})
    return {resourceVersion: 'after-status'}
  }

  async updateScale(key: ControllerKey, scale: ScaleObject): Promise<{resourceVersion?: string}> {
    await this.run({type: 'updateScale', key, scale})
    return {resourceVersion: 'after-scale'}
  }

  async createReplicaSet(rs: ReplicaSetManifest): Promise<{name: string; uid?: string; resourceVersion?: string}> {
    await this.run({type: 'createReplicaSet', rs})
    return {name: rs.metadata.name, uid: `uid-${rs.metadata.name}`, resourceVersion: 'created'}
  }

  /** Answers with a new resourceVersion per call: `patched-<name>-<n>`. */
  async patchReplicaSet(namespace: string, name: string, patch: OwnerPatch | ReplicaSetPatch): Promise<{resourceVersion?: string}> {
    await this.run({type: 'patchReplicaSet', namespace, name, patch})
    return {resourceVersion: `patched-${name}-${this.callsOf('patchReplicaSet').length}`}
  }

  async deleteReplicaSet(namespace: string, name: string, preconditions: DeletePreconditions): Promise<void> {
    await this.run({type: 'deleteReplicaSet', namespace, name, preconditions})
  }

  /** Answers with the scripted object, or a 404. */
  async getObject(kind: SideKind, namespace: string, name: string): Promise<Record<string, unknown>> {
    const answer = await this.run({type: 'getObject', kind, namespace, name})
    if (answer && typeof answer === 'object' && 'raw' in answer && answer.raw) return answer.raw
    throw new PodControlError({code: 404, reason: 'NotFound', message: `${kind} "${name}" not found`})
  }

  async createObject(object: SideObject, json?: string): Promise<{name: string; uid?: string; resourceVersion?: string}> {
    await this.run({type: 'createObject', object, ...(json === undefined ? {} : {json})})
    return {name: object.metadata.name, uid: `uid-${object.metadata.name}`, resourceVersion: 'created'}
  }

  async patchObject(kind: SideKind | 'Pod', namespace: string, name: string, patch: ObjectPatch | OwnerPatch, patchType: 'merge' | 'strategic'): Promise<{resourceVersion?: string}> {
    await this.run({type: 'patchObject', kind, namespace, name, patch, patchType})
    return {resourceVersion: `patched-${name}-${this.callsOf('patchObject').length}`}
  }

  async deleteObject(kind: SideKind, namespace: string, name: string, preconditions: DeletePreconditions): Promise<void> {
    await this.run({type: 'deleteObject', kind, namespace, name, preconditions})
  }

  private async run(call: RecordedCall): Promise<Answer> {
    const index = this.calls.length
    this.calls.push(call)
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      // Yield once, so calls started together are in flight together.
      await Promise.resolve()
      const answer = await this.opts.respond?.(call, index)
      if (isError(answer)) throw new PodControlError(answer)
      return answer
    } finally {
      this.inFlight--
    }
  }
}

function isError(answer: Answer): answer is ActionError {
  return typeof answer === 'object' && answer !== null && 'message' in answer && typeof (answer as ActionError).message === 'string'
}
