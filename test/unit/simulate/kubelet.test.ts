// The kubelet and scheduler model: what it does to one pod, and when it next looks.
import {describe, expect, it} from 'vitest'

import {AVAILABLE_LAG, isFailing, type KubeletModel, podAt, podWakeAt, scheduledNode, SIMULATED_NODE} from '../../../src/simulate/kubelet.js'
import {formatRfc3339, parseRfc3339, seconds} from '../../../src/reconcile/time.js'

const T0 = parseRfc3339('2026-11-22T10:00:00Z')!
const at = (s: number) => T0 + seconds(s)
const model: KubeletModel = {start: T0, readyAfter: seconds(10), fail: []}

const pod = (extra: Record<string, any> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {name: 'p', namespace: 'default', creationTimestamp: formatRfc3339(at(0)), labels: {'pod-template-hash': 'abc'}, ...extra.metadata},
  spec: {containers: [{name: 'c', image: 'nginx:1.28'}], ...extra.spec},
  ...(extra.status ? {status: extra.status} : {}),
})

const ready = (p: any) => p.status?.conditions?.find((c: any) => c.type === 'Ready')

describe('the kubelet model', () => {
  it('binds a new pod at once, Running and not Ready', () => {
    const p = podAt(pod(), at(0), model)!
    expect(p.spec.nodeName).toBe(SIMULATED_NODE)
    expect(p.status.phase).toBe('Running')
    expect(ready(p)).toMatchObject({status: 'False'})
  })

  it('makes it Ready readyAfter after creation, with that instant as the transition time', () => {
    const bound = podAt(pod(), at(0), model)!
    expect(podAt(bound, at(9), model)).toBeUndefined()
    expect(podWakeAt(bound, at(0), model, 0)).toBe(at(10))
    const r = podAt(bound, at(10), model)!
    expect(ready(r)).toMatchObject({status: 'True', lastTransitionTime: formatRfc3339(at(10))})
  })

  it('counts a pod already there (created before the start) from the start', () => {
    const old = podAt(pod({metadata: {creationTimestamp: formatRfc3339(at(-100))}}), at(0), model)!
    expect(podWakeAt(old, at(0), model, 0)).toBe(at(10))
  })

  it('wakes when a Ready pod becomes available after minReadySeconds, and not at all without it', () => {
    const r = podAt(podAt(pod(), at(0), model)!, at(10), model)!
    expect(podWakeAt(r, at(10), model, 5)).toBe(at(15) + AVAILABLE_LAG)
    expect(podWakeAt(r, at(10), model, 0)).toBeUndefined()
    expect(podWakeAt(r, at(15) + AVAILABLE_LAG, model, 5)).toBeUndefined()
  })

  it('never makes a failing pod Ready, by image or by pod-template-hash', () => {
    for (const fail of [['nginx:1.28'], ['abc']]) {
      const m = {...model, fail}
      const p = podAt(pod(), at(0), m)!
      expect(p.status.containerStatuses[0].state).toEqual({waiting: {reason: 'CrashLoopBackOff'}})
      expect(podAt(p, at(1000), m)).toBeUndefined()
      expect(podWakeAt(p, at(0), m, 0)).toBeUndefined()
    }
    expect(isFailing(pod(), ['nginx:1.27', 'def'])).toBe(false)
  })

  it('removes a terminating pod after its grace period, capped at 30 s, or after terminateAfter', () => {
    const deleting = (grace: number) => pod({metadata: {deletionTimestamp: formatRfc3339(at(grace)), deletionGracePeriodSeconds: grace}, spec: {nodeName: 'n'}})
    expect(podWakeAt(deleting(5), at(0), model, 0)).toBe(at(5))
    expect(podAt(deleting(5), at(4), model)).toBeUndefined()
    expect(podAt(deleting(5), at(5), model)).toBeNull()
    expect(podWakeAt(deleting(120), at(0), model, 0)).toBe(at(30))
    expect(podWakeAt(deleting(120), at(0), {...model, terminateAfter: seconds(2)}, 0)).toBe(at(2))
  })

  it('binds a DaemonSet pod to the node its required affinity names, and any other pod to the notional node', () => {
    const affinity = (values: string[]) => ({
      nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: 'metadata.name', operator: 'In', values}]}]}},
    })
    expect(podAt(pod({spec: {affinity: affinity(['node-b'])}}), at(0), model)!.spec.nodeName).toBe('node-b')
    expect(scheduledNode(pod({spec: {affinity: affinity(['node-a', 'node-b'])}}))).toBe(SIMULATED_NODE)
    expect(scheduledNode(pod())).toBe(SIMULATED_NODE)
  })

  it('--fail matches a StatefulSet pod by its revision name and a DaemonSet pod by its revision hash or name', () => {
    const stateful = pod({metadata: {labels: {'controller-revision-hash': 'db-6c5f8d9b7'}}})
    expect(isFailing(stateful, ['db-6c5f8d9b7'])).toBe(true)
    expect(isFailing(stateful, ['6c5f8d9b7'])).toBe(false)
    const daemon = pod({
      metadata: {labels: {'controller-revision-hash': '745cd84b78'}, ownerReferences: [{apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'u', controller: true}]},
    })
    expect(isFailing(daemon, ['745cd84b78'])).toBe(true)
    expect(isFailing(daemon, ['agent-745cd84b78'])).toBe(true)
    expect(isFailing(daemon, ['other-745cd84b78'])).toBe(false)
    // A failing pod is never made Ready.
    const bound = podAt(daemon, at(0), {...model, fail: ['agent-745cd84b78']})!
    expect(podWakeAt(bound, at(0), {...model, fail: ['agent-745cd84b78']}, 0)).toBeUndefined()
  })
})
