// The controllers kctl plans, one descriptor each, as kube-controller-manager starts its
// controllers from one table (cmd/kube-controller-manager/app/controller_descriptor.go). Commands
// and services iterate this table; adding a controller adds a folder and an entry here.
import type {Snapshot} from '../model/objects.js'
import type {ControllerKind, ControllerPlan} from '../model/plan.js'
import {planDaemonSets} from './daemonset/planner.js'
import {planDeployments} from './deployment/planner.js'
import {planCronJobs} from './cronjob/planner.js'
import {planJobs} from './job/planner.js'
import {planServices} from './service/planner.js'
import {planStatefulSets} from './statefulset/planner.js'
import {byKindNamespaceName, contestedAdoptions, planController, type World} from './planner.js'

export interface ControllerDescriptor {
  /** kube-controller-manager's name for the controller (its --controllers value). */
  name: string
  /** The kinds whose objects it syncs. */
  kinds: readonly ControllerKind[]
  /** One sync of every object of its kinds in the snapshot. */
  plan(snapshot: Snapshot, world: World): ControllerPlan[]
  /** Planned only: `kctl reconcile` leaves its objects out (it cannot carry out their writes yet). */
  planOnly?: true
}

/** The entry whose plans are Services' (the endpoint controllers' and the service controller's). */
export const SERVICES_CONTROLLER = 'endpointslice'

export const CONTROLLERS: readonly ControllerDescriptor[] = [
  {
    name: 'replicaset',
    kinds: ['ReplicaSet', 'ReplicationController'],
    plan(snapshot, world) {
      const plans = [...snapshot.workloads].sort(byKindNamespaceName).map((w) => planController(w, world))
      for (const [plan, warnings] of contestedAdoptions(plans)) plan.warnings.push(...warnings)
      return plans
    },
  },
  {
    name: 'deployment',
    kinds: ['Deployment'],
    plan: (snapshot, world) => planDeployments(snapshot.deployments ?? [], snapshot.replicaSets, world, planController),
  },
  {
    name: 'daemonset',
    kinds: ['DaemonSet'],
    plan: planDaemonSets,
  },
  {
    name: 'statefulset',
    kinds: ['StatefulSet'],
    plan: planStatefulSets,
  },
  {
    name: 'job',
    kinds: ['Job'],
    plan: planJobs,
  },
  {
    name: 'cronjob',
    kinds: ['CronJob'],
    plan: planCronJobs,
  },
  {
    // One plan per Service joins the endpointslice, endpoint and endpointslicemirroring
    // controllers' syncs with the service controller's (cloud-controller-manager's service-lb).
    name: SERVICES_CONTROLLER,
    kinds: ['Service'],
    plan: (snapshot, world) => planServices(snapshot, world, world.options.maxEndpointsPerSlice),
  },
]

/** The controllers whose plans `kctl reconcile` carries out. */
export const CARRIED_OUT: readonly string[] = CONTROLLERS.filter((c) => !c.planOnly).map((c) => c.name)
