// ReplicaSets and pods as the API server lists them (no kind or apiVersion on the items; pods
// with managedFields), for the tests of reading a live cluster.
import type {RawObject} from '../../src/sources/documents.js'

export function serverReplicaSet(i: number): RawObject {
  return {
    metadata: {
      name: `web-${i}`,
      namespace: 'default',
      uid: `uid-rs-${i}`,
      resourceVersion: `${100 + i}`,
      generation: 1,
      creationTimestamp: '2026-11-22T09:00:00Z',
      labels: {app: `web-${i}`},
      managedFields: [{manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: {'f:spec': {'f:replicas': {}}}}],
    },
    spec: {
      replicas: 2,
      selector: {matchLabels: {app: `web-${i}`}},
      template: {metadata: {labels: {app: `web-${i}`}}, spec: {containers: [{name: 'main', image: 'registry.example.com/web:v1'}]}},
    },
    status: {replicas: 0, observedGeneration: 1},
  }
}

export function serverPod(i: number): RawObject {
  return {
    metadata: {
      name: `web-${i}-a`,
      namespace: 'default',
      uid: `uid-pod-${i}`,
      creationTimestamp: '2026-11-22T09:00:01Z',
      labels: {app: `web-${i}`},
      ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `web-${i}`, uid: `uid-rs-${i}`, controller: true}],
      managedFields: [{manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {'f:metadata': {'f:labels': {}}}}],
    },
    spec: {containers: [{name: 'main', image: 'registry.example.com/web:v1'}], nodeName: 'node-1'},
    status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: '2026-11-22T09:00:05Z'}]},
  }
}
