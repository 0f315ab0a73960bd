// One sync of the StatefulSet controller, carried out as planned (the writes it shares with the
// DaemonSet controller are sent by apply/revisioned-sync.ts). How the calls go out follows upstream:
//   - OrderedReady: one write at a time (runForAll, monotonic); the plan already stops where the
//     controller's sync blocks, so nothing past the block is sent.
//   - Parallel: each pod's writes (its claims, then the pod; or its delete) in slow-start batches
//     1, 2, 4 … over the pods (runForAll → slowStartBatch in stateful_set_control.go), one phase
//     after the other: the replicas, the condemned pods' claims, the condemned pods. Upstream's
//     batches also hold pods with nothing to do; here only pods with a write count, so a failure may
//     stop the sync a batch earlier or later than upstream's.
import type {ActionResult} from '../../model/apply.js'
import type {Action} from '../../model/plan.js'
import {parseOrdinal} from './sync.js'
import {PodControlError} from '../../apply/pod-control.js'
import {type Block, RevisionedSync, type Write} from '../../apply/revisioned-sync.js'
import {claimObject, statefulPodObject, statefulSetStatusObject, templateOfRevision} from './objects.js'

export {WORKLOAD_SKIP} from '../../apply/revisioned-sync.js'

type Obj = Record<string, any>

export class StatefulSetSync extends RevisionedSync {
  protected blocks(raw: Obj): (a: Write['action']) => Block | undefined {
    const parallel = raw.spec?.podManagementPolicy === 'Parallel'
    const start = Number(raw.spec?.ordinals?.start ?? 0)
    const end = start + Number(raw.spec?.replicas ?? 1)
    return (a) => {
      const key = blockKey(a, parallel, start, end)
      return key === undefined ? undefined : {key, mode: 'pods'}
    }
  }

  protected async own(action: Write['action']): Promise<ActionResult['done'] | 'skip' | void> {
    const ns = this.cp.namespace
    const raw = this.controller.raw as Obj
    const control = this.control
    switch (action.type) {
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
      case 'deleteStatefulPod':
        return control.deletePod(ns, action.pod, this.pre(`Pod/${action.pod}`, action))
      default:
        throw new PodControlError({message: `internal: ${action.type} is not a StatefulSet or DaemonSet write`})
    }
  }

  protected statusObject(view: Obj, before: Obj | undefined): Obj {
    return statefulSetStatusObject(view, before)
  }

  protected override removes(a: Write['action']): boolean {
    return a.type === 'deleteStatefulPod'
  }

  protected override createsByName(a: Write['action']): boolean {
    return a.type === 'createStatefulPod' || a.type === 'createClaim'
  }

  protected override describeOwn(a: Write['action'], ns: string): string | undefined {
    return a.type === 'createClaim' || a.type === 'updateClaim' ? `PersistentVolumeClaim ${ns}/${a.claim}` : undefined
  }
}

/** Which concurrent block an action belongs to (undefined: sent alone, in order). */
function blockKey(a: Write['action'], parallel: boolean, start: number, end: number): string | undefined {
  if (!parallel) return undefined
  if (a.type === 'deleteStatefulPod' && a.reason === 'update') return undefined
  if (a.type !== 'createClaim' && a.type !== 'updateClaim' && a.type !== 'createStatefulPod' && a.type !== 'updatePod' && a.type !== 'deleteStatefulPod') return undefined
  const {ordinal} = parseOrdinal(a.pod)
  if (ordinal >= start && ordinal < end) return 'replicas'
  return a.type === 'updateClaim' ? 'condemned-claims' : 'condemned'
}

/** Pods an action takes away (the guards' count): a pod delete. */
export function statefulSetPodDeletes(a: Action): number {
  return a.type === 'deleteStatefulPod' ? 1 : 0
}

/** A delete that replaces the pod (an update, a failed pod): not the set losing it. */
export function statefulSetReplaces(a: Action): boolean {
  return a.type === 'deleteStatefulPod' && a.reason !== 'condemned'
}
