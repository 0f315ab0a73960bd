// The DaemonSet controller's sync carried out (controllers/daemonset/apply.ts, with what it shares
// with the StatefulSet controller in apply/revisioned-sync.ts), against a recording control.

import {describe, expect, it} from 'vitest'
import {executePlan} from '../../../../src/apply/executor.js'
import type {ControllerPlan, WorkloadAction} from '../../../../src/model/plan.js'
import type {CreateDaemonPodAction, DeleteDaemonPodAction} from '../../../../src/controllers/daemonset/model.js'
import {RecordingPodControl, type RecordingOptions} from '../../../helpers/recording-control.js'
import {NOW, planOf} from '../../apply/plans.js'

const now = () => NOW
const owner = (kind: 'DaemonSet', name: string) => ({apiVersion: 'apps/v1', kind, name, uid: `uid-${name}`, controller: true, blockOwnerDeletion: true})

function daemonSet(actions: WorkloadAction[]) {
  const raw = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {name: 'agent', namespace: 'ns', uid: 'uid-agent', resourceVersion: '20', annotations: {'deprecated.daemonset.template.generation': '2'}},
    spec: {selector: {matchLabels: {app: 'agent'}}, template: {metadata: {labels: {app: 'agent'}}, spec: {containers: [{name: 'a', image: 'agent:1'}]}}},
  }
  const cp: ControllerPlan = {
    kind: 'DaemonSet',
    apiVersion: 'apps/v1',
    namespace: 'ns',
    name: 'agent',
    uid: 'uid-agent',
    resourceVersion: '20',
    desired: 3,
    active: 0,
    diff: -3,
    actions: actions as ControllerPlan['actions'],
    pending: 0,
    status: {} as ControllerPlan['status'],
    warnings: [],
    inSync: false,
  }
  return {cp, raw}
}

const control = (sets: Array<{cp: ControllerPlan; raw: object}>, respond?: RecordingOptions['respond']) =>
  new RecordingPodControl({
    controllers: Object.fromEntries(sets.map(({cp, raw}) => [`${cp.kind}/${cp.namespace}/${cp.name}`, {uid: cp.uid, resourceVersion: cp.resourceVersion, raw: raw as Record<string, unknown>}])),
    respond,
  })

const daemonCreate = (node: string): CreateDaemonPodAction => ({
  type: 'createDaemonPod',
  node,
  generateName: 'agent-',
  nameBase: 'agent-',
  labels: {app: 'agent', 'controller-revision-hash': 'h1', 'pod-template-generation': '2'},
  ownerReference: owner('DaemonSet', 'agent'),
  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: 'metadata.name', operator: 'In', values: [node]}]}]}}},
  tolerations: [{key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute'}],
  reason: 'missing',
})
const daemonDelete = (podName: string, node: string): DeleteDaemonPodAction => ({type: 'deleteDaemonPod', pod: podName, uid: `uid-${podName}`, resourceVersion: '5', node, reason: 'update'})

describe('DaemonSet', () => {
  it('creates in slow-start batches with the node affinity and tolerations the plan holds; deletes all at once', async () => {
    const ds = daemonSet([...['n1', 'n2', 'n3', 'n4'].map(daemonCreate), daemonDelete('agent-a', 'n5'), daemonDelete('agent-b', 'n6'), daemonDelete('agent-c', 'n7')])
    const rec = control([ds], () => new Promise((r) => setTimeout(r, 1)))
    const exec = await executePlan(planOf(ds.cp), {control: rec, now})
    expect(exec.controllers[0].batches).toEqual([1, 2, 1])
    const made = rec.callsOf('createPod').map((c) => c.pod)
    expect(made.map((p) => (p.spec as any).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0])).toEqual(['n1', 'n2', 'n3', 'n4'])
    expect(made[0]).toMatchObject({
      metadata: {generateName: 'agent-', labels: {app: 'agent', 'controller-revision-hash': 'h1', 'pod-template-generation': '2'}, ownerReferences: [owner('DaemonSet', 'agent')]},
      spec: {containers: [{name: 'a', image: 'agent:1'}], tolerations: [{key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute'}]},
    })
    expect(made[0].metadata.name).toBeUndefined()
    // The three deletes were in flight together.
    expect(rec.maxInFlight).toBe(3)
    expect(rec.callsOf('deletePod').map((c) => c.preconditions)).toEqual(['agent-a', 'agent-b', 'agent-c'].map((p) => ({uid: `uid-${p}`, resourceVersion: '5'})))
  })

  it('a random choice: the first `count` candidates in the plan\'s order are carried out, and the result says which', async () => {
    const choices = [daemonDelete('agent-a', 'n1'), daemonDelete('agent-b', 'n2'), daemonDelete('agent-c', 'n3')]
    const ds = daemonSet([{type: 'chooseDaemonPods', operation: 'delete', count: 2, candidates: ['agent-a', 'agent-b', 'agent-c'], choices}])
    const rec = control([ds])
    const exec = await executePlan(planOf(ds.cp), {control: rec, now})
    expect(rec.callsOf('deletePod').map((c) => c.name)).toEqual(['agent-a', 'agent-b'])
    expect(exec.results).toHaveLength(1)
    expect(exec.results[0]).toMatchObject({action: 'chooseDaemonPods', outcome: 'ok', done: {chosen: ['agent-a', 'agent-b']}})
  })

  it('a revision copies the DaemonSet\'s annotations, as constructHistory does', async () => {
    const ds = daemonSet([{type: 'createControllerRevision', name: 'agent-h1', hash: 'h1', revision: 2, labels: {app: 'agent', 'controller-revision-hash': 'h1'}, ownerReference: owner('DaemonSet', 'agent')}])
    const rec = control([ds])
    await executePlan(planOf(ds.cp), {control: rec, now})
    expect(rec.callsOf('createObject')[0].object.metadata.annotations).toEqual({'deprecated.daemonset.template.generation': '2'})
  })

  it('a dry run sends the same calls and reports them as rehearsed', async () => {
    const ds = daemonSet([daemonCreate('n1'), daemonDelete('agent-a', 'n2')])
    const rec = new RecordingPodControl({dryRun: true, controllers: {'DaemonSet/ns/agent': {uid: 'uid-agent', resourceVersion: '20', raw: ds.raw}}})
    const exec = await executePlan(planOf(ds.cp), {control: rec, now})
    expect(rec.calls.map((c) => c.type)).toEqual(['getController', 'createPod', 'deletePod'])
    expect(exec.results.every((r) => r.outcome === 'ok')).toBe(true)
  })
})
