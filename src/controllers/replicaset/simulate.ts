// ReplicaSets and ReplicationControllers in the simulation: their pods counted after each round
// (a ReplicaSet a Deployment owns is counted as its Deployment), with the grouping the Deployment
// controller's simulation (../deployment/simulate.ts) counts its ReplicaSets' pods with. Their pods
// run as the shared kubelet model runs any pod.
import type {PodView, Snapshot, Workload} from '../../model/objects.js'
import type {WorldCounts} from '../../model/simulation.js'
import {objectTime, seconds} from '../../reconcile/time.js'
import {cmp, push} from '../../simulate/collections.js'
import type {ControllerSimulation} from '../../simulate/part.js'
import {WORKLOAD_STRATEGY} from '../../simulate/patch-strategies.js'

/** A snapshot grouped for counting: ReplicaSets by owner, pods by controller. */
export class WorldView {
  private readonly rsByOwner = new Map<string, Workload[]>()
  private readonly rsByUid = new Map<string, Workload>()
  private readonly podsByOwner = new Map<string, PodView[]>()
  private readonly deploymentUids: Set<string>

  constructor(
    snapshot: Snapshot,
    private readonly now: bigint,
  ) {
    this.deploymentUids = new Set((snapshot.deployments ?? []).map((d) => d.uid))
    for (const rs of snapshot.replicaSets) {
      this.rsByUid.set(rs.uid, rs)
      const owner = rs.ownerReferences.find((r) => r.controller)
      if (owner) push(this.rsByOwner, owner.uid, rs)
    }
    for (const pod of snapshot.pods) {
      const owner = pod.ownerReferences.find((r) => r.controller)
      if (owner) push(this.podsByOwner, owner.uid, pod)
    }
  }

  replicaSet(uid: string): Workload | undefined {
    return this.rsByUid.get(uid)
  }

  hasDeployment(uid: string): boolean {
    return this.deploymentUids.has(uid)
  }

  deploymentCounts(uid: string): WorldCounts {
    return this.counts(this.rsByOwner.get(uid) ?? [])
  }

  counts(replicaSets: readonly Workload[]): WorldCounts {
    const ordered = [...replicaSets].sort((a, b) => cmp(a.creationTimestamp ?? '', b.creationTimestamp ?? '') || cmp(a.name, b.name))
    const pods = {total: 0, ready: 0, available: 0, terminating: 0}
    for (const rs of ordered) {
      for (const pod of this.podsByOwner.get(rs.uid) ?? []) {
        if (pod.deletionTimestamp) {
          pods.terminating++
          continue
        }
        if (pod.phase === 'Succeeded' || pod.phase === 'Failed') continue
        pods.total++
        if (!pod.ready) continue
        pods.ready++
        const since = objectTime(pod.readySince) ?? 0n
        if (rs.minReadySeconds === 0 || since + seconds(rs.minReadySeconds) <= this.now) pods.available++
      }
    }
    return {replicaSets: ordered.map((rs) => ({name: rs.name, replicas: rs.replicas})), pods}
  }
}

/** The ReplicaSet controller (with ReplicationControllers) in `kctl simulate`. */
export const replicaSetSimulation: ControllerSimulation = {
  manifests: {
    ReplicaSet: {group: '/apis/apps/v1', plural: 'replicasets', patchStrategy: WORKLOAD_STRATEGY},
    ReplicationController: {group: '/api/v1', plural: 'replicationcontrollers', patchStrategy: WORKLOAD_STRATEGY},
  },
  minReady: (snapshot) => snapshot.replicaSets.map((rs) => [rs.uid, rs.minReadySeconds] as const),
  /** Counts for a ReplicaSet's Deployment (its owner), or for the ReplicaSet itself. */
  counter(snapshot, now) {
    const view = new WorldView(snapshot, now)
    return (cp) => {
      const rs = view.replicaSet(cp.uid)
      const owner = rs?.ownerReferences.find((r) => r.controller && r.kind === 'Deployment')
      if (owner && view.hasDeployment(owner.uid)) return {deployment: owner.name, counts: view.deploymentCounts(owner.uid)}
      return {counts: view.counts(rs ? [rs] : [])}
    }
  },
  targets: {
    replicaset: 'ReplicaSet',
    replicasets: 'ReplicaSet',
    rs: 'ReplicaSet',
    replicationcontroller: 'ReplicationController',
    replicationcontrollers: 'ReplicationController',
    rc: 'ReplicationController',
  },
}
