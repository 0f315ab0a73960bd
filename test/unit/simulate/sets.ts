// Worlds with StatefulSets and DaemonSets for the simulation's unit tests, and what their runs are read by.
import {expect} from 'vitest'
import type {LoopResult} from '../../../src/simulate/loop.js'
import {openSim} from './helpers.js'

export function statefulSet(replicas: number, extra: {podManagementPolicy?: string; partition?: number; claims?: boolean; minReadySeconds?: number} = {}): string {
  return `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: default, resourceVersion: "1", generation: 1, creationTimestamp: "2026-11-22T09:00:00Z"}
spec:
  replicas: ${replicas}
  serviceName: web
  ${extra.podManagementPolicy ? `podManagementPolicy: ${extra.podManagementPolicy}` : ''}
  ${extra.partition !== undefined ? `updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: ${extra.partition}}}` : ''}
  ${extra.minReadySeconds ? `minReadySeconds: ${extra.minReadySeconds}` : ''}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      # As the API server stores it (defaults filled in): a StatefulSet's revision name is computed from that.
      containers:
        - {name: c, image: "nginx:1.27", imagePullPolicy: IfNotPresent, resources: {}, terminationMessagePath: /dev/termination-log, terminationMessagePolicy: File${extra.claims ? ', volumeMounts: [{name: data, mountPath: /data}]' : ''}}
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 5
  ${extra.claims ? 'volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}]' : ''}
`
}

export function daemonSet(strategy: string, extra: {minReadySeconds?: number} = {}): string {
  const nodes = ['node-a', 'node-b', 'node-c'].map((n) => `---
apiVersion: v1
kind: Node
metadata: {name: ${n}, labels: {kubernetes.io/os: linux}}
`)
  return `apiVersion: apps/v1
kind: DaemonSet
# The API server keeps a template generation on every DaemonSet; its pods carry it as a label.
metadata: {name: agent, namespace: default, resourceVersion: "1", generation: 1, creationTimestamp: "2026-11-22T09:00:00Z", annotations: {deprecated.daemonset.template.generation: "1"}}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: ${strategy}
  ${extra.minReadySeconds ? `minReadySeconds: ${extra.minReadySeconds}` : ''}
  template:
    metadata: {labels: {app: agent}}
    spec:
      terminationGracePeriodSeconds: 5
      containers: [{name: c, image: "agent:1"}]
${nodes.join('')}`
}

/** Pods per revision at the end of each instant where they changed, revisions shortened to their order of appearance (r1, r2). */
export function revisionEnds(r: LoopResult): Array<{t: number; pods: Record<string, number>}> {
  const names: string[] = []
  const short = (name: string) => {
    if (!names.includes(name)) names.push(name)
    return `r${names.indexOf(name) + 1}`
  }
  const ends: Array<{t: number; pods: Record<string, number>}> = []
  for (const s of r.steps) {
    const pods = Object.fromEntries((s.counts.revisions ?? []).map((x) => [short(x.name), x.pods]))
    const last = ends.at(-1)
    if (last && last.t === s.offsetSeconds) last.pods = pods
    else ends.push({t: s.offsetSeconds, pods})
  }
  return ends.filter((e, i) => i === 0 || JSON.stringify(e.pods) !== JSON.stringify(ends[i - 1].pods))
}

/**
 * Three pods replaced one at a time, as a StatefulSet's rolling update and a DaemonSet's with
 * maxUnavailable 1 both go: deleted, gone 5 s later (the grace period) and re-created, Ready 10 s
 * after that, when the next one is deleted.
 */
export const ONE_AT_A_TIME = [
  {t: 0, pods: {r1: 2}},
  {t: 5, pods: {r1: 2, r2: 1}},
  {t: 15, pods: {r1: 1, r2: 1}},
  {t: 20, pods: {r1: 1, r2: 2}},
  {t: 30, pods: {r2: 2}},
  {t: 35, pods: {r2: 3}},
]

export const actionsOf = (r: LoopResult, type: string) =>
  r.steps.flatMap((s) => s.actions.filter((a) => a.type === type).map((a) => ({t: s.offsetSeconds, ...(a as unknown as Record<string, unknown>)})))

export async function settled(yaml: string) {
  const sim = await openSim(yaml)
  const first = await sim.run()
  expect(first.endedBy).toBe('quiet')
  return {sim, first}
}
