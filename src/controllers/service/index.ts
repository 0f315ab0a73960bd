// A Service's controllers: one plan per Service joins the endpointslice, endpoint and
// endpointslicemirroring controllers' syncs (pkg/controller/endpointslice, endpoint,
// endpointslicemirroring) with the service controller's (cloud-controller-manager's service-lb,
// staging/src/k8s.io/cloud-provider/controllers/service).
import type {ControllerDescriptor} from '../descriptor.js'
import {LOAD_BALANCER_ACTIONS, ServiceSync} from './apply.js'
import {serviceNotes, servicePlanWarnings} from './notes.js'
import {planServices} from './planner.js'
import {readServicePodFields, SERVICE_READS} from './read.js'
import {applyLines, listFields, listTable, planBlock} from './render.js'
import {serviceChecks} from './rules.js'
import {serviceAction} from './saved.js'
import {serviceWatch} from './watch.js'

/** The registry name under which Services are planned. */
export const SERVICES_CONTROLLER = 'endpointslice'

export const service: ControllerDescriptor = {
  name: SERVICES_CONTROLLER,
  kinds: ['Service'],
  read: {
    kinds: SERVICE_READS,
    podFields: readServicePodFields,
  },
  plan: (snapshot, world) => planServices(snapshot, world, world.options.maxEndpointsPerSlice),
  notSimulated: 'the EndpointSlice, Endpoints and load-balancer controllers are not run in virtual time',
  render: {
    planBlock,
    applyLines,
    listFields,
    listTable,
  },
  apply: {
    resources: {Service: {apiPath: '/api/v1', resource: 'services'}},
    sync: (run, cp, opts) => new ServiceSync(run, cp, opts.services, opts.cloud),
    parseAction: serviceAction,
    replannedWritesMustMatch: true,
    clusterOnly: true,
    needsCloud: (a) => LOAD_BALANCER_ACTIONS.has(a.type),
    idleInSync: true,
    planWarnings: servicePlanWarnings,
    notes: serviceNotes,
  },
  watch: serviceWatch,
  check: serviceChecks,
}
