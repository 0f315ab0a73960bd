// Applies a plan's actions to a snapshot the way a perfectly successful sync (and informer) would,
// for fixpoint properties: adopt → set our controller ref; release → remove it; delete → the pod is
// gone; create → a Running, Ready pod built from the create action; updateStatus → the `to` status.
import type {OwnerReference, PodView, ReplicaSetStatusView, Snapshot, Workload} from '../../src/model/objects.js'
import type {ReconcilePlan, StatusView} from '../../src/model/plan.js'

export function applyPlan(snapshot: Snapshot, plan: ReconcilePlan): Snapshot {
  const pods = new Map<string, PodView>(snapshot.pods.map((p) => [p.uid, p]))
  const statusByUid = new Map<string, ReplicaSetStatusView>()
  let serial = 0
  for (const c of plan.controllers) {
    const ref: OwnerReference = {apiVersion: c.apiVersion, kind: c.kind, name: c.name, uid: c.uid, controller: true, blockOwnerDeletion: true}
    for (const action of c.actions) {
      switch (action.type) {
        case 'adopt': {
          const p = pods.get(action.uid)
          // The API server refuses a second controller ref: a pod two controllers race for goes to the first.
          if (!p || p.ownerReferences.some((r) => r.controller === true)) break
          pods.set(p.uid, {...p, ownerReferences: [...p.ownerReferences, ref]})
          break
        }
        case 'release': {
          const p = pods.get(action.uid)
          if (p) pods.set(p.uid, {...p, ownerReferences: p.ownerReferences.filter((r) => r.uid !== c.uid)})
          break
        }
        case 'delete':
          pods.delete(action.uid)
          break
        case 'create': {
          if (action.error) break
          serial++
          const name = `${action.nameBase}x${serial.toString().padStart(4, '0')}`
          const created: PodView = {
            namespace: c.namespace,
            name,
            uid: `created-${serial.toString().padStart(6, '0')}`,
            resourceVersion: '1',
            generation: 0,
            labels: {...action.labels},
            annotations: {...action.annotations},
            ownerReferences: [{...action.ownerReference}],
            creationTimestamp: plan.now,
            nodeName: 'n-new',
            phase: 'Running',
            ready: true,
            readySince: plan.now,
            containerStatuses: [{name: 'app', restartCount: 0}],
            sidecarStatuses: [],
          }
          pods.set(created.uid, created)
          break
        }
        case 'updateStatus':
          statusByUid.set(c.uid, toStatus(action.to))
          break
      }
    }
  }
  const updated = (w: Workload): Workload => {
    const status = statusByUid.get(w.uid)
    return status ? {...w, status} : w
  }
  return {
    ...snapshot,
    workloads: snapshot.workloads.map(updated),
    replicaSets: snapshot.replicaSets.map(updated),
    pods: [...pods.values()],
  }
}

function toStatus(view: StatusView): ReplicaSetStatusView {
  const status: ReplicaSetStatusView = {
    replicas: view.replicas,
    fullyLabeledReplicas: view.fullyLabeledReplicas,
    readyReplicas: view.readyReplicas,
    availableReplicas: view.availableReplicas,
    observedGeneration: view.observedGeneration,
    conditions: [...(view.conditions ?? [])],
  }
  if (view.terminatingReplicas !== undefined) status.terminatingReplicas = view.terminatingReplicas
  return status
}
