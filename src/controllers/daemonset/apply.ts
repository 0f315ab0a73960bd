// One sync of the DaemonSet controller, carried out as planned (the writes it shares with the
// StatefulSet controller are sent by apply/revisioned-sync.ts): creates in slow-start batches,
// deletes all at once (syncNodes in daemon_controller.go); a `chooseDaemonPods` sends the writes
// of the candidates it takes (apply/revisioned-sync.ts says which).
import type {ActionResult} from '../../model/apply.js'
import type {Action} from '../../model/plan.js'
import {PodControlError} from '../../apply/pod-control.js'
import {type Block, RevisionedSync, type Write} from '../../apply/revisioned-sync.js'
import {setStatusObject} from '../../apply/revisioned-objects.js'
import {daemonPodObject} from './objects.js'

type Obj = Record<string, any>

const CHOSEN_NOTE =
  'a DaemonSet\'s random choice (chooseDaemonPods): the controller picks in Go\'s map order, so which pods or nodes it takes cannot be known; reconcile took the first ones in name order (done.chosen says which)'

/** The report's note when a choice was carried out (`results`: the DaemonSets'). */
export function daemonSetNotes(results: readonly ActionResult[]): string[] {
  return results.some((r) => r.action === 'chooseDaemonPods' && r.done?.chosen) ? [CHOSEN_NOTE] : []
}

export class DaemonSetSync extends RevisionedSync {
  protected override copiesAnnotationsToRevisions = true

  protected blocks(): (a: Write['action']) => Block | undefined {
    return (a) => (a.type === 'createDaemonPod' ? {key: 'daemon-create', mode: 'each'} : a.type === 'deleteDaemonPod' ? {key: 'daemon-delete', mode: 'all'} : undefined)
  }

  protected async own(action: Write['action']): Promise<ActionResult['done'] | 'skip' | void> {
    const ns = this.cp.namespace
    const raw = this.controller.raw as Obj
    const control = this.control
    switch (action.type) {
      case 'createDaemonPod': {
        const made = await control.createPod(daemonPodObject(action, ns, raw))
        return {name: made.name, ...(made.uid ? {uid: made.uid} : {})}
      }
      case 'deleteDaemonPod':
        return control.deletePod(ns, action.pod, this.pre(`Pod/${action.pod}`, action))
      default:
        throw new PodControlError({message: `internal: ${action.type} is not a StatefulSet or DaemonSet write`})
    }
  }

  protected statusObject(view: Obj, before: Obj | undefined): Obj {
    return setStatusObject(view, before)
  }

  /**
   * A `chooseDaemonPods` (upstream picks `count` of the candidates in Go's map order, i.e. at
   * random): reconcile takes the first `count` in the plan's order (by name).
   */
  protected override choiceOf(a: Action): {writes: Array<Write['action']>; count: number} | undefined {
    return a.type === 'chooseDaemonPods' ? {writes: (a.choices ?? []).slice(0, a.count), count: a.count} : undefined
  }

  protected override chosen(a: Write['action']): string {
    return a.type === 'createDaemonPod' ? a.node : super.chosen(a)
  }

  protected override removes(a: Write['action']): boolean {
    return a.type === 'deleteDaemonPod'
  }

  protected override createsByGenerateName(a: Write['action']): boolean {
    return a.type === 'createDaemonPod'
  }
}

/** Pods an action takes away (the guards' count): a pod delete, or the deletes a choice picks. */
export function daemonSetPodDeletes(a: Action): number {
  if (a.type === 'deleteDaemonPod') return 1
  return a.type === 'chooseDaemonPods' && a.operation === 'delete' ? a.count : 0
}

/** A delete that replaces the pod (a rolling update, a surge, a finished pod), or a choice: not the set losing it. */
export function daemonSetReplaces(a: Action): boolean {
  if (a.type === 'deleteDaemonPod') return a.reason === 'update' || a.reason === 'surge-replaced' || a.reason === 'failed' || a.reason === 'succeeded'
  return a.type === 'chooseDaemonPods'
}
