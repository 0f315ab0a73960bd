// The Deployment's block of kctl plan's table (controllers/deployment/render.ts): how a refused
// write the controller swallows and a write that stores nothing read (D2.4, D2.5).
import {describe, expect, it} from 'vitest'
import {renderPlanTable} from '../../../../src/render/plan-table.js'
import {computePlan} from '../../../../src/services/plan.js'
import {completedStatus, replicaSetAnnotations} from '../../../helpers/deployments.js'

type Json = Record<string, any>
const NOW = '2026-11-22T10:00:00Z'
const D_UID = '00000000-0000-4000-8000-0000000000d1'
const IMAGES: Record<string, string> = {A: 'nginx:1.27', B: 'nginx:1.28'}
const REVISION = {'deployment.kubernetes.io/revision': '1'}

const template = (t: string, labels: Json) => ({metadata: {labels}, spec: {containers: [{name: 'web', image: IMAGES[t]}]}})
const deployment = (t: string, replicas: number, spec: Json, status: Json): Json => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {name: 'web', namespace: 'default', uid: D_UID, generation: 1, annotations: REVISION},
  spec: {replicas, selector: {matchLabels: {app: 'web'}}, template: template(t, {app: 'web'}), ...spec},
  status,
})
const replicaSet = (name: string, t: string, replicas: number, status: [number, number, number], owned: boolean, annotations: Json): Json => {
  const labels = owned ? {app: 'web', 'pod-template-hash': name.slice(4)} : {app: 'web'}
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {name, namespace: 'default', uid: `uid-${name}`, generation: 1, creationTimestamp: '2026-11-01T00:00:00Z', labels, annotations, ownerReferences: owned ? [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: D_UID, controller: true}] : []},
    spec: {replicas, selector: {matchLabels: labels}, template: template(t, labels)},
    status: {replicas: status[0], readyReplicas: status[1], availableReplicas: status[2], observedGeneration: 1},
  }
}

async function table(...items: Json[]): Promise<string[]> {
  const text = JSON.stringify({apiVersion: 'v1', kind: 'List', items})
  const plan = await computePlan({filename: ['-'], readStdin: async () => text, now: NOW})
  return renderPlanTable(plan).split('\n')
}

describe('a Deployment\'s block', () => {
  it('a refused scale the controller swallows says the sync goes on; the status write follows it', async () => {
    const lines = await table(
      deployment('B', 3, {strategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 2, maxUnavailable: 0}}}, completedStatus(3)),
      replicaSet('web-7bc8986495', 'B', 3, [3, 3, 3], true, replicaSetAnnotations({revision: 1, sized: [3, 5]})),
      replicaSet('web-orphan', 'A', 2, [2, 0, 0], false, {}),
    )
    const scale = lines.findIndex((l) => l.includes('scale ReplicaSet web-orphan 2 → 0'))
    expect(lines[scale]).toContain("(409 Conflict: the controller's own write conflicts here, as it always does; the controller swallows the error and goes on)")
    expect(lines[scale + 1]).toMatch(/^ {2}~ status /)
    expect(lines[scale + 1]).not.toContain('409')
  })

  it('a status write that stores nothing says so; the one after it is not refused', async () => {
    const recorded = {observedGeneration: 1, conditions: [{type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: 'Created new replica set "web-8448b6f544"', lastUpdateTime: '2026-11-22T09:59:00Z', lastTransitionTime: '2026-11-22T09:59:00Z'}]}
    const lines = (await table(deployment('A', 2, {}, recorded))).filter((l) => l.startsWith('  ~ status'))
    expect(lines).toEqual([
      '  ~ status rewritten with the same values  [nothing stored: the resourceVersion stays]',
      expect.stringContaining('unavailableReplicas 0→2'),
    ])
    expect(lines[1]).not.toContain('409')
  })

  it('after a hash collision, the Deployment\'s next sync is shown, naming the ReplicaSet it creates', async () => {
    const taken = {...replicaSet('web-8448b6f544', 'B', 0, [0, 0, 0], false, {}), metadata: {name: 'web-8448b6f544', namespace: 'default', uid: 'uid-taken', labels: {app: 'other'}}}
    taken.spec.selector = {matchLabels: {app: 'other'}}
    taken.spec.template.metadata.labels = {app: 'other'}
    const lines = await table(deployment('A', 2, {}, {}), taken)
    const at = lines.findIndex((l) => l.includes('then, in the Deployment controller\'s next sync (collisionCount 1):'))
    expect(lines[1]).toContain('! create ReplicaSet web-8448b6f544 fails')
    expect(at).toBe(4)
    expect(lines[at + 1]).toMatch(/^ {4}Deployment default\/web/)
    expect(lines[at + 2]).toBe('      + create ReplicaSet web-5f46654bf  replicas 2, revision 1')
    expect(lines.some((l) => l.includes('then, in the ReplicaSet controller\'s next sync (after this one):'))).toBe(true)
  })
})
