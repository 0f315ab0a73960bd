// The building blocks of the patch strategies of the kinds kctl applies: from the
// patchStrategy/patchMergeKey tags in k8s.io/api core/v1, apps/v1 and meta/v1. Each controller's
// simulate part gives its kinds' strategy (part.ts `manifests`) from these; a Pod's is here.
import type {Fields, FieldStrategy} from './strategic-merge.js'

export const OBJECT_META: Fields = {ownerReferences: {mergeKey: 'uid'}, finalizers: {mergeKey: ''}}
const CONTAINER: Fields = {
  ports: {mergeKey: 'containerPort'},
  env: {mergeKey: 'name'},
  volumeMounts: {mergeKey: 'mountPath'},
  volumeDevices: {mergeKey: 'devicePath'},
}
const POD_SPEC: Fields = {
  volumes: {mergeKey: 'name', retainKeys: true},
  initContainers: {mergeKey: 'name', fields: CONTAINER},
  containers: {mergeKey: 'name', fields: CONTAINER},
  ephemeralContainers: {mergeKey: 'name', fields: CONTAINER},
  imagePullSecrets: {mergeKey: 'name'},
  hostAliases: {mergeKey: 'ip'},
  topologySpreadConstraints: {mergeKey: 'topologyKey'},
  schedulingGates: {mergeKey: 'name'},
  resourceClaims: {mergeKey: 'name', retainKeys: true},
}
export const TEMPLATE: FieldStrategy = {fields: {metadata: {fields: OBJECT_META}, spec: {fields: POD_SPEC}}}
export const CONDITIONS: FieldStrategy = {fields: {conditions: {mergeKey: 'type'}}}
const POD_STATUS: FieldStrategy = {fields: {conditions: {mergeKey: 'type'}, podIPs: {mergeKey: 'ip'}, hostIPs: {mergeKey: 'ip'}}}


/** A workload's: its metadata, its pod template, its status conditions (ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job). */
export const WORKLOAD_STRATEGY: FieldStrategy = {fields: {metadata: {fields: OBJECT_META}, spec: {fields: {template: TEMPLATE}}, status: CONDITIONS}}

export const POD_STRATEGY: FieldStrategy = {fields: {metadata: {fields: OBJECT_META}, spec: {fields: POD_SPEC}, status: POD_STATUS}}
