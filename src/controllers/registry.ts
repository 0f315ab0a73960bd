// The controllers kctl models, one descriptor each, as kube-controller-manager starts its
// controllers from one table (cmd/kube-controller-manager/app/controller_descriptor.go). Commands,
// services and the shared layers iterate this table; adding a controller adds a folder under
// src/controllers/ and one line here.
import {cronjob} from './cronjob/index.js'
import {daemonset} from './daemonset/index.js'
import type {ControllerDescriptor} from './descriptor.js'
import {deployment} from './deployment/index.js'
import {hpa} from './hpa/index.js'
import {job} from './job/index.js'
import {replicaset} from './replicaset/index.js'
import {service} from './service/index.js'
import {statefulset} from './statefulset/index.js'

export type {ControllerDescriptor} from './descriptor.js'
export {SERVICES_CONTROLLER} from './service/index.js'

export const CONTROLLERS: readonly ControllerDescriptor[] = [replicaset, deployment, daemonset, statefulset, job, cronjob, service, hpa]

/** The controllers whose plans `kctl reconcile` carries out. */
export const CARRIED_OUT: readonly string[] = CONTROLLERS.filter((c) => !c.planOnly).map((c) => c.name)
