// The Deployment planner, rule by rule (deployment controller D3–D14), through the same path a
// user's files take: objects → fixtures reader → planSnapshot → the plan.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import type {ControllerPlan, DeploymentAction} from '../../../../src/model/plan.js'
import {podTemplateDump, podTemplateHash} from '../../../../src/reconcile/hash/index.js'
import {maxSurge, maxUnavailable, newRSNewReplicas, resolveFenceposts, type RsState} from '../../../../src/controllers/deployment/util.js'
import {progressCheckAt} from '../../../../src/controllers/deployment/sync.js'
import {computePlan} from '../../../../src/services/plan.js'
import {readSnapshot} from '../../../../src/services/snapshot.js'
import {deploymentSimulation} from '../../../../src/controllers/deployment/simulate.js'
import {formatRfc3339} from '../../../../src/reconcile/time.js'
import {completedStatus as available, replicaSetAnnotations, type ReplicaSetShape} from '../../../helpers/deployments.js'

type Json = Record<string, any>
const NOW = '2026-11-22T10:00:00Z'
const IMAGES: Record<string, string> = {A: 'nginx:1.27', B: 'nginx:1.28', C: 'nginx:1.29'}
const HASH: Record<string, string> = {A: '8448b6f544', B: '7bc8986495', C: '66db7fc774'}
const D_UID = '00000000-0000-4000-8000-0000000000d1'

const template = (t: string, labels: Json = {app: 'web'}) => ({metadata: {labels}, spec: {containers: [{name: 'web', image: IMAGES[t]}]}})

function deployment(t: string, replicas: number, more: {spec?: Json; status?: Json; metadata?: Json} = {}): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web', uid: D_UID, generation: 1, ...more.metadata},
    spec: {replicas, selector: {matchLabels: {app: 'web'}}, template: template(t), ...more.spec},
    status: more.status ?? {},
  }
}

interface RsOptions extends ReplicaSetShape {
  created?: string
  more?: Json
}

function replicaSet(t: string, replicas: number, o: RsOptions = {}): Json {
  const labels = o.labels ?? {app: 'web', 'pod-template-hash': HASH[t]}
  const annotations = replicaSetAnnotations(o)
  const [r, rd, av] = o.status ?? [replicas, replicas, replicas]
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: o.name ?? `web-${HASH[t]}`,
      generation: 1,
      creationTimestamp: o.created ?? '2026-11-01T00:00:00Z',
      labels,
      annotations,
      ownerReferences: o.owned === false ? [] : [{apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: D_UID, controller: true}],
      ...o.more,
    },
    spec: {replicas, selector: {matchLabels: labels}, template: template(t, labels)},
    status: {replicas: r, readyReplicas: rd, availableReplicas: av, observedGeneration: 1},
  }
}

/** A Deployment some syncs into a rollout: revision annotation and a Progressing condition. */
const rolling = (revision: number, n: number) => ({metadata: {annotations: {'deployment.kubernetes.io/revision': String(revision)}}, status: available(n)})


async function plan(...objects: Json[]): Promise<ControllerPlan> {
  const text = JSON.stringify({apiVersion: 'v1', kind: 'List', items: objects})
  const p = await computePlan({filename: ['-'], readStdin: async () => text, now: NOW})
  return p.controllers.find((c) => c.kind === 'Deployment')!
}

/** The writes that happen, in order, briefly. */
function writes(cp: ControllerPlan): string[] {
  return (cp.actions as DeploymentAction[]).map((a) => {
    const c = a.conflict ? ' (conflict)' : ''
    switch (a.type) {
      case 'createReplicaSet':
        return `create ${a.name} ${a.replicas}${a.outcome === 'created' ? '' : ` ${a.outcome}`}${c}`
      case 'scaleReplicaSet':
        return `scale ${a.replicaSet} ${a.from}→${a.to} ${a.rule}${c}`
      case 'deleteReplicaSet':
        return `delete ${a.replicaSet}${c}`
      case 'updateStatus':
        return `status${c}`
      case 'rollback':
        return `rollback ${a.toRevision} ${a.outcome}${c}`
      default:
        return `${a.type} ${'replicaSet' in a ? a.replicaSet : ''}${c}`
    }
  })
}

describe('D5 fenceposts and the new ReplicaSet\'s size', () => {
  it.each([
    ['25%', '25%', [[0, 0, 0], [1, 1, 0], [3, 1, 0], [10, 3, 2]]],
    [0, 1, [[0, 0, 0], [1, 0, 1], [3, 0, 1], [10, 0, 1]]],
    [1, 0, [[0, 1, 0], [1, 1, 0], [3, 1, 0], [10, 1, 0]]],
    ['0%', '1%', [[0, 0, 0], [1, 0, 1], [3, 0, 1], [10, 0, 1]]],
    ['1%', '0%', [[0, 0, 0], [1, 1, 0], [3, 1, 0], [10, 1, 0]]],
    ['50%', '50%', [[0, 0, 0], [1, 1, 0], [3, 2, 1], [10, 5, 5]]],
    [3, 5, [[0, 3, 0], [1, 3, 1], [3, 3, 3], [10, 3, 5]]],
  ] as const)('D5.1 MaxSurge / MaxUnavailable for maxSurge %s, maxUnavailable %s', (surge, unav, rows) => {
    for (const [replicas, s, u] of rows) {
      const d = {replicas, strategy: {type: 'RollingUpdate', maxSurge: surge, maxUnavailable: unav}} as never
      expect([maxSurge(d), maxUnavailable(d)], `replicas ${replicas}`).toEqual([s, u])
    }
    expect(resolveFenceposts('0%', '0%', 10)).toEqual({surge: 0, unavailable: 1})
  })

  it.each([
    [10, '25%', '25%', 0, 10, 3],
    [10, '25%', '25%', 3, 8, 5],
    [3, 0, 1, 0, 3, 0],
    [4, '25%', '25%', 0, 4, 1],
  ] as const)('D5.2 NewRSNewReplicas: replicas %i (%s/%s), new %i, old %i → %i', (replicas, surge, unav, newSpec, oldSpec, want) => {
    const d = {replicas, strategy: {type: 'RollingUpdate', maxSurge: surge, maxUnavailable: unav}} as never
    const rs = (n: number) => ({replicas: n}) as RsState
    const fresh = rs(newSpec)
    expect(newRSNewReplicas(d, [rs(oldSpec), fresh], fresh)).toBe(want)
  })
})

describe('D13 pod-template-hash', () => {
  it.each([
    ['A', undefined, '8448b6f544'],
    ['B', undefined, '7bc8986495'],
    ['C', undefined, '66db7fc774'],
    ['A', 1, '5f46654bf'],
    ['B', 1, 'ff6db8d46'],
    ['C', 1, '67bf66b55'],
  ] as const)('D13.8 template %s, collisionCount %s → %s', (t, cc, want) => {
    expect(podTemplateHash(template(t), cc)).toBe(want)
  })

  it('D13.1 a collision count of 0 is not nil', () => {
    const nginx = {metadata: {labels: {app: 'nginx'}}, spec: {containers: [{name: 'nginx', image: 'nginx:1.27'}]}}
    expect(podTemplateHash(nginx, undefined)).toBe('747d4c55d8')
    expect(podTemplateHash(nginx, 0)).toBe('5d7ddbf7f6')
    expect(podTemplateDump(nginx)).toHaveLength(3451)
  })

  it('D13.2 empty lists and maps are absent; an empty securityContext is not', () => {
    const v = (c: Json, meta: Json = {}) => podTemplateHash({metadata: {labels: {app: 'v'}, ...meta}, spec: {containers: [{name: 'c', image: 'img:v1', ...c}]}}, undefined)
    expect(v({})).toBe('644997f8c')
    expect(v({args: []})).toBe('644997f8c')
    expect(v({}, {annotations: {}})).toBe('644997f8c')
    expect(v({securityContext: {}})).toBe('7d9d8c6778')
  })

  it('D13.3 the pull policy follows the image tag', () => {
    const v = (image: string) => podTemplateHash({metadata: {labels: {app: 'v'}}, spec: {containers: [{name: 'c', image}]}}, undefined)
    expect(v('img')).toBe('5c7c49b4b4')
    expect(v('img:latest')).toBe('6f5dc796c')
    expect(v(`img@sha256:${'0'.repeat(64)}`)).toBe('7d8fb5fdf9')
  })

  it('D13.5 quantities are hashed as the server stores them', () => {
    const web = {
      metadata: {labels: {app: 'web', tier: 'frontend'}, annotations: {'example.com/owner': 'team-a'}},
      spec: {
        containers: [
          {
            name: 'web',
            image: 'registry.example.com/web:v2',
            args: ['--port=8080'],
            ports: [{name: 'http', containerPort: 8080}],
            env: [{name: 'MODE', value: 'prod'}],
            resources: {requests: {cpu: '100m', memory: '128Mi'}, limits: {cpu: '1', memory: '0.5Gi'}},
            readinessProbe: {httpGet: {path: '/healthz', port: 'http'}},
          },
        ],
      },
    }
    expect(podTemplateHash(web, undefined)).toBe('ddb79876')
    expect(podTemplateHash(web, 1)).toBe('86db47945c')
    expect(podTemplateDump(web)).toContain('memory:{i:(resource.int64Amount){value:(int64)536870912 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string) Format:(resource.Format)BinarySI}')
  })

  it('D13.9 a resourceFieldRef without divisor is hashed with the zero quantity the server stores', () => {
    // The hashes are controller.ComputeHash's on the same templates decoded as the API server does.
    const env = (ref: Json) => ({metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'web', image: 'nginx:1.27', env: [{name: 'MEM', valueFrom: {resourceFieldRef: ref}}]}]}})
    expect(podTemplateHash(env({resource: 'limits.memory'}), undefined)).toBe('85885ffbfc')
    expect(podTemplateHash(env({resource: 'limits.memory', divisor: '0'}), undefined)).toBe('85885ffbfc')
    expect(podTemplateHash(env({resource: 'limits.memory', divisor: '1Mi'}), undefined)).not.toBe('85885ffbfc')
    const volume = {
      metadata: {labels: {app: 'web'}},
      spec: {containers: [{name: 'web', image: 'nginx:1.27'}], volumes: [{name: 'info', downwardAPI: {items: [{path: 'cpu', resourceFieldRef: {containerName: 'web', resource: 'requests.cpu'}}]}}]},
    }
    expect(podTemplateHash(volume, undefined)).toBe('696984b9c')
    expect(podTemplateDump(volume)).toContain('Divisor:(resource.Quantity){i:(resource.int64Amount){value:(int64)0 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)0 Format:(resource.Format)DecimalSI}')
  })
})

describe('D3–D11 one sync of the Deployment controller', () => {
  it('D4.5 a new Deployment creates its ReplicaSet by the hashed name; the second status write conflicts (T1)', async () => {
    const cp = await plan(deployment('A', 3))
    expect(writes(cp)).toEqual(['create web-8448b6f544 3', 'status', 'status (conflict)'])
    const create = cp.actions[0] as Extract<DeploymentAction, {type: 'createReplicaSet'}>
    expect(create.labels).toEqual({app: 'web', 'pod-template-hash': '8448b6f544'})
    expect(create.selector).toEqual({matchLabels: {app: 'web', 'pod-template-hash': '8448b6f544'}})
    expect(create.annotations).toEqual({'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4'})
    expect(create.event).toBe('Scaled up replica set web-8448b6f544 from 0 to 3')
    expect(cp.newReplicaSet).toEqual({name: 'web-8448b6f544', podTemplateHash: '8448b6f544', created: true})
    // The following step: the ReplicaSet controller creates its three pods.
    expect(cp.then?.map((rs) => [rs.name, rs.actions.filter((a) => a.type === 'create').length])).toEqual([['web-8448b6f544', 3]])
  })

  it('D4.5 replicas 0: created at 0 with no event (T2)', async () => {
    const cp = await plan(deployment('A', 0))
    const create = cp.actions[0] as Extract<DeploymentAction, {type: 'createReplicaSet'}>
    expect([create.replicas, create.event, create.annotations['deployment.kubernetes.io/max-replicas']]).toEqual([0, undefined, '0'])
  })

  it('D3.1/D5.4 a template change: create with 3, old 10→8 in the same sync (T4)', async () => {
    const cp = await plan(deployment('B', 10, {status: available(10)}), replicaSet('A', 10, {revision: 1, sized: [10, 13]}))
    expect(writes(cp)).toEqual(['create web-7bc8986495 3', 'status', 'scale web-8448b6f544 10→8 availability', 'status (conflict)'])
  })

  it('D5.3 the new ReplicaSet grows within maxSurge, and nothing else happens that sync (T4, second sync)', async () => {
    const cp = await plan(deployment('B', 10, rolling(2, 10)), replicaSet('A', 8, {revision: 1, sized: [10, 13]}), replicaSet('B', 3, {status: [0, 0, 0], revision: 2, sized: [10, 13], created: '2026-11-02T00:00:00Z'}))
    expect(writes(cp)).toEqual(['scale web-7bc8986495 3→5 new-replica-set', 'status'])
  })

  it('D5.4 cleanupUnhealthyReplicas takes unavailable old replicas first (T8)', async () => {
    const cp = await plan(deployment('B', 4), replicaSet('A', 4, {status: [4, 2, 2], revision: 1, sized: [4, 5]}))
    expect(writes(cp)).toEqual(['create web-7bc8986495 1', 'status', 'scale web-8448b6f544 4→3 unhealthy', 'status (conflict)'])
  })

  it('D7.2 a replicas change mid-rollout is shared in proportion (T9, T10)', async () => {
    const up = await plan(deployment('B', 15, rolling(2, 10)), replicaSet('A', 8, {revision: 1, sized: [10, 13]}), replicaSet('B', 5, {status: [5, 0, 0], revision: 2, sized: [10, 13], created: '2026-11-02T00:00:00Z'}))
    expect(writes(up)).toEqual(['scale web-8448b6f544 8→12 proportional', 'scale web-7bc8986495 5→7 proportional', 'status'])
    const down = await plan(deployment('B', 6, rolling(2, 15)), replicaSet('A', 12, {status: [8, 8, 8], revision: 1, sized: [15, 19]}), replicaSet('B', 7, {status: [5, 0, 0], revision: 2, sized: [15, 19], created: '2026-11-02T00:00:00Z'}))
    expect(writes(down)).toEqual(['scale web-8448b6f544 12→5 proportional', 'scale web-7bc8986495 7→3 proportional', 'status'])
  })

  it('D7.2 equal sizes growing: the rounding leftover goes to the newer of the two (ReplicaSetsBySizeNewer)', async () => {
    // 4 + 4 + 3 annotated max 11, scaled to 11 with maxSurge 1: allowed 12, every fraction rounds to 0,
    // so the whole +1 goes to the first in order: the larger, and of the two 4s the newer (B).
    const strategy = {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
    const cp = await plan(
      deployment('C', 11, {spec: {strategy}, ...rolling(3, 11)}),
      replicaSet('A', 4, {revision: 1, sized: [10, 11], created: '2026-11-01T00:00:00Z'}),
      replicaSet('B', 4, {revision: 2, sized: [10, 11], created: '2026-11-02T00:00:00Z'}),
      replicaSet('C', 3, {revision: 3, sized: [10, 11], created: '2026-11-03T00:00:00Z'}),
    )
    expect(writes(cp).filter((w) => w.startsWith('scale'))).toEqual([
      `scale web-${HASH.B} 4→5 proportional`,
      `scale web-${HASH.A} 4→4 proportional`,
      `scale web-${HASH.C} 3→3 proportional`,
    ])
  })

  it('D7.2 proportions are rounded half away from zero, not down (the leftover would then go to the first)', async () => {
    // 5 + 5 + 3 annotated max 13, scaled to 20 without surge: 5·20/13 = 7.7 → 8 and 3·20/13 = 4.6 → 5,
    // capped by what is left (+1). Rounding down would give +2, +2, +1 and the leftover 2 to the first.
    const strategy = {type: 'RollingUpdate', rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}
    const cp = await plan(
      deployment('C', 20, {spec: {strategy}, ...rolling(3, 13)}),
      replicaSet('A', 5, {revision: 1, sized: [13, 13], created: '2026-11-01T00:00:00Z'}),
      replicaSet('B', 5, {revision: 2, sized: [13, 13], created: '2026-11-02T00:00:00Z'}),
      replicaSet('C', 3, {revision: 3, sized: [13, 13], created: '2026-11-03T00:00:00Z'}),
    )
    expect(writes(cp).filter((w) => w.startsWith('scale'))).toEqual([
      `scale web-${HASH.B} 5→8 proportional`,
      `scale web-${HASH.A} 5→8 proportional`,
      `scale web-${HASH.C} 3→4 proportional`,
    ])
  })

  it('D7.2 a new ReplicaSet at full size is saturated only once all of it is available', async () => {
    const objects = (available: number) => [
      deployment('B', 3, {spec: {paused: true}, ...rolling(2, 3)}),
      replicaSet('A', 1, {revision: 1, sized: [3, 4]}),
      replicaSet('B', 3, {status: [3, 3, available], revision: 2, sized: [3, 4], created: '2026-11-02T00:00:00Z'}),
    ]
    expect(writes(await plan(...objects(3))).filter((w) => w.startsWith('scale'))).toEqual([`scale web-${HASH.A} 1→0 saturated`])
    // One of three available: not saturated; the sizes already add up to replicas + surge, so nothing is scaled.
    expect(writes(await plan(...objects(1))).filter((w) => w.startsWith('scale'))).toEqual([])
  })

  it('D7.3 paused: no new ReplicaSet; the one active ReplicaSet takes a new size (T13, T16)', async () => {
    const fresh = await plan(deployment('A', 3, {spec: {paused: true}}))
    expect(writes(fresh)).toEqual(['status', 'status (conflict)'])
    const scaled = await plan(deployment('B', 6, {spec: {paused: true}, status: available(4)}), replicaSet('A', 4, {revision: 1, sized: [4, 5]}))
    expect(writes(scaled)).toEqual(['status', 'scale web-8448b6f544 4→6 active-or-latest', 'status (conflict)'])
  })

  it('D6 Recreate: old to 0 first; waits for old pods; then creates at full size (T17–T20)', async () => {
    const recreate = {spec: {strategy: {type: 'Recreate'}}}
    expect(writes(await plan(deployment('B', 2, recreate), replicaSet('A', 2, {revision: 1, sized: [2, 2]})))).toEqual(['scale web-8448b6f544 2→0 recreate', 'status'])
    const oldPod = (phase: string) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: `old-${phase.toLowerCase()}`, labels: {app: 'web'}, ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-8448b6f544', controller: true}]},
      status: {phase},
    })
    const drained = replicaSet('A', 0, {status: [0, 0, 0], revision: 1, sized: [2, 2]})
    expect(writes(await plan(deployment('B', 2, recreate), drained, oldPod('Running')))[0]).toBe('status')
    expect(writes(await plan(deployment('B', 2, recreate), drained, oldPod('Succeeded')))[0]).toBe('create web-7bc8986495 2')
  })

  it('D4.6 a ReplicaSet of that name with another template: collision, collisionCount 1 (T29)', async () => {
    const cp = await plan(deployment('A', 2), replicaSet('C', 0, {name: 'web-8448b6f544', owned: false, labels: {app: 'other'}}))
    expect(writes(cp)).toEqual(['create web-8448b6f544 2 collision', 'status'])
    expect((cp.status as {collisionCount?: number}).collisionCount).toBe(1)
    // The following sync is the Deployment's own: hashed with collisionCount 1, it creates web-5f46654bf,
    // and the ReplicaSet controller's sync of it follows in its turn.
    const next = cp.then?.[0]
    expect([next?.kind, next?.name]).toEqual(['Deployment', 'web'])
    expect(writes(next!)).toEqual(['create web-5f46654bf 2', 'status', 'status (conflict)'])
    expect(next!.newReplicaSet).toEqual({name: 'web-5f46654bf', podTemplateHash: '5f46654bf', created: true})
    expect((next!.status as {collisionCount?: number}).collisionCount).toBe(1)
    expect(next!.then?.map((rs) => [rs.kind, rs.name])).toEqual([['ReplicaSet', 'web-5f46654bf']])
    expect(cp.then).toHaveLength(1)
  })

  it('D4.6 a ReplicaSet released in this sync that holds the new name is no longer ours when the create fails: a collision', async () => {
    // The lister read after AlreadyExists sees the release (its watch event comes back before the create's answer).
    const relabelled = replicaSet('A', 2, {revision: 1, sized: [2, 3], more: {labels: {app: 'gone', 'pod-template-hash': HASH.A}}})
    const cp = await plan(deployment('A', 2), relabelled)
    expect(writes(cp)).toEqual(['releaseReplicaSet web-8448b6f544', 'create web-8448b6f544 2 collision', 'status'])
    expect((cp.status as {collisionCount?: number}).collisionCount).toBe(1)
    expect(writes(cp.then![0])).toEqual(['create web-5f46654bf 2', 'status', 'status (conflict)'])
  })

  it('D4.6 an orphan of the hashed name with another template is adopted, then collides; the following sync counts it as an old ReplicaSet', async () => {
    const cp = await plan(deployment('A', 2), replicaSet('C', 0, {name: 'web-8448b6f544', owned: false, labels: {app: 'web'}}))
    expect(writes(cp)).toEqual(['adoptReplicaSet web-8448b6f544', 'create web-8448b6f544 2 collision', 'status'])
    expect(writes(cp.then![0])).toEqual(['create web-5f46654bf 2', 'status', 'status (conflict)'])
    expect(cp.then![0].replicaSets?.map((rs) => [rs.name, rs.isNew])).toEqual([['web-8448b6f544', false], ['web-5f46654bf', true]])
  })

  it('D4.1 an orphan with the template is adopted and becomes the new ReplicaSet; its update names the version from before the adoption and conflicts (T28)', async () => {
    const cp = await plan(deployment('A', 2), replicaSet('A', 2, {owned: false, name: 'web-handmade', labels: {app: 'web'}}))
    expect(writes(cp)).toEqual(['adoptReplicaSet web-handmade', 'updateReplicaSet web-handmade (conflict)'])
  })

  it('D4.1 an adopted ReplicaSet scaled in the same sync: the scale conflicts (ClaimReplicaSets hands on the object read before the adoption)', async () => {
    const cp = await plan(deployment('A', 3), replicaSet('A', 2, {owned: false, revision: 1, sized: [2, 3], name: 'web-handmade', labels: {app: 'web'}}))
    expect(writes(cp)).toEqual(['adoptReplicaSet web-handmade', 'status', 'scale web-handmade 2→3 active-or-latest (conflict)'])
    expect(cp.events ?? []).toEqual([])
  })

  describe('D2.5 which refused writes end the sync', () => {
    const orphan = (t: string, replicas: number, status: [number, number, number], more: RsOptions = {}) => replicaSet(t, replicas, {owned: false, name: 'web-orphan', labels: {app: 'web'}, status, ...more})

    it('cleanupUnhealthyReplicas: the refused scale of an adopted ReplicaSet is swallowed; the rollout status is still written', async () => {
      const d = deployment('B', 3, {...rolling(1, 3), spec: {strategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 2, maxUnavailable: 0}}}})
      const cp = await plan(d, replicaSet('B', 3, {revision: 1, sized: [3, 5]}), orphan('A', 2, [2, 0, 0]))
      expect(writes(cp)).toEqual(['adoptReplicaSet web-orphan', 'scale web-orphan 2→0 unhealthy (conflict)', 'status'])
      expect(cp.endedBy).toBeUndefined()
      expect(cp.events ?? []).toEqual([])
      const s = cp.status as Json
      expect([s.replicas, s.updatedReplicas, s.availableReplicas, s.unavailableReplicas]).toEqual([5, 3, 3, 2])
      // Nothing was scaled: the ReplicaSet controller's next sync has nothing to follow.
      expect(cp.replicaSets!.find((r) => r.name === 'web-orphan')!.replicas).toBe(2)
      expect(cp.then ?? []).toEqual([])
    })

    it('scaleDownOldReplicaSetsForRollingUpdate: swallowed too; the history cleanup of a complete rollout follows', async () => {
      const d = deployment('B', 3, {...rolling(2, 3), spec: {strategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}, revisionHistoryLimit: 0}})
      const cp = await plan(d, replicaSet('A', 0, {revision: 1, status: [0, 0, 0]}), replicaSet('B', 3, {revision: 2, sized: [3, 4]}), orphan('C', 1, [1, 1, 1]))
      expect(writes(cp)).toEqual(['adoptReplicaSet web-orphan', 'scale web-orphan 1→0 availability (conflict)', 'delete web-8448b6f544', 'status'])
      expect(cp.endedBy).toBeUndefined()
    })

    it('reconcileNewReplicaSet returns the error: the refused scale of the adopted new ReplicaSet ends the sync', async () => {
      const cp = await plan(deployment('A', 3, rolling(1, 3)), orphan('A', 2, [2, 2, 2], {revision: 1, sized: [3, 4]}))
      expect(writes(cp)).toEqual(['adoptReplicaSet web-orphan', 'scale web-orphan 2→3 new-replica-set (conflict)'])
      expect(cp.endedBy).toContain('adopted in this sync')
    })

    it('Recreate returns the error: the refused scale-down ends the sync, no status', async () => {
      const cp = await plan(deployment('B', 2, {spec: {strategy: {type: 'Recreate'}}}), orphan('A', 2, [2, 2, 2]))
      expect(writes(cp)).toEqual(['adoptReplicaSet web-orphan', 'scale web-orphan 2→0 recreate (conflict)'])
      expect(cp.endedBy).toContain('adopted in this sync')
    })
  })

  describe('D2.4 a write that stores nothing keeps the resourceVersion', () => {
    // The new ReplicaSet was deleted by hand: the Deployment still says revision 1, NewReplicaSetCreated.
    const recorded = {
      metadata: {annotations: {'deployment.kubernetes.io/revision': '1'}},
      status: {
        observedGeneration: 1,
        conditions: [{type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', message: 'Created new replica set "web-8448b6f544"', lastUpdateTime: '2026-11-22T09:59:00Z', lastTransitionTime: '2026-11-22T09:59:00Z'}],
      },
    }

    it('getNewReplicaSet\'s status write repeats the recorded revision and condition: unchanged, and the rollout status after it succeeds', async () => {
      const cp = await plan(deployment('A', 2, recorded))
      expect(writes(cp)).toEqual(['create web-8448b6f544 2', 'status', 'status'])
      const [, first, second] = cp.actions as Json[]
      expect(first.unchanged).toBe(true)
      expect(first.revision).toBeUndefined()
      expect(second.unchanged).toBeUndefined()
      expect(second.to.conditions.find((c: Json) => c.type === 'Available')).toMatchObject({status: 'False', reason: 'MinimumReplicasUnavailable'})
      expect([second.to.replicas, second.to.unavailableReplicas]).toEqual([0, 2])
      expect(cp.endedBy).toBeUndefined()
    })

    it('another condition recorded: the first write stores it, and the second conflicts', async () => {
      const other = {...recorded, status: {...recorded.status, conditions: [{...recorded.status.conditions[0], reason: 'ReplicaSetUpdated'}]}}
      const cp = await plan(deployment('A', 2, other))
      expect(writes(cp)).toEqual(['create web-8448b6f544 2', 'status', 'status (conflict)'])
      expect((cp.actions[1] as Json).unchanged).toBeUndefined()
    })

    it('the rollback Update after an unchanged status write succeeds', async () => {
      const withRollback = {...recorded, metadata: {annotations: {...recorded.metadata.annotations, 'deprecated.deployment.rollback.to': '0'}}}
      const cp = await plan(deployment('A', 2, withRollback))
      expect(writes(cp)).toEqual(['create web-8448b6f544 2', 'status', 'rollback 0 revision-not-found'])
    })
  })

  it('D4.4 the new ReplicaSet\'s annotations follow the Deployment\'s; the repeated update conflicts (T35)', async () => {
    const cp = await plan(deployment('A', 3, {metadata: {annotations: {'example.com/note': 'hello'}}}), replicaSet('A', 3, {revision: 1, sized: [3, 4]}))
    expect(writes(cp)).toEqual(['updateReplicaSet web-8448b6f544', 'updateReplicaSet web-8448b6f544 (conflict)'])
    expect((cp.actions[0] as {annotations: Json}).annotations['example.com/note']).toBe('hello')
  })

  it('D10 history cleanup deletes the oldest revisions beyond the limit, when complete (T21)', async () => {
    const rs = (rev: number) => replicaSet('A', 0, {status: [0, 0, 0], revision: rev, name: `web-r${rev}`, labels: {app: 'web', rev: String(rev)}})
    const cp = await plan(deployment('C', 2, {spec: {strategy: {type: 'Recreate'}, revisionHistoryLimit: 2}, status: available(2)}), rs(1), rs(2), rs(3), rs(4), replicaSet('C', 2, {revision: 5, sized: [2, 2]}))
    expect(writes(cp).filter((w) => w.startsWith('delete'))).toEqual(['delete web-r1', 'delete web-r2'])
  })

  it('D10 no cleanup while the Deployment\'s generation is unobserved (DeploymentComplete)', async () => {
    const rs = (rev: number) => replicaSet('A', 0, {status: [0, 0, 0], revision: rev, name: `web-r${rev}`, labels: {app: 'web', rev: String(rev)}})
    const cp = await plan(deployment('C', 2, {metadata: {generation: 2}, spec: {strategy: {type: 'Recreate'}, revisionHistoryLimit: 2}, status: available(2)}), rs(1), rs(2), rs(3), rs(4), replicaSet('C', 2, {revision: 5, sized: [2, 2]}))
    expect(writes(cp).filter((w) => w.startsWith('delete'))).toEqual([])
  })

  it('D10 an old ReplicaSet whose generation is unobserved is kept, and still uses its place', async () => {
    const rs = (rev: number, generation = 1) => replicaSet('A', 0, {status: [0, 0, 0], revision: rev, name: `web-r${rev}`, labels: {app: 'web', rev: String(rev)}, more: {generation}})
    const cp = await plan(deployment('C', 2, {spec: {strategy: {type: 'Recreate'}, revisionHistoryLimit: 2}, status: available(2)}), rs(1, 2), rs(2), rs(3), rs(4), replicaSet('C', 2, {revision: 5, sized: [2, 2]}))
    expect(writes(cp).filter((w) => w.startsWith('delete'))).toEqual(['delete web-r2'])
  })

  it('D4.5 a long Deployment name is cut so that name, dash and hash fit in 253 characters', async () => {
    const name = 'w'.repeat(250)
    const d = deployment('A', 1, {metadata: {name}})
    const cp = await plan(d)
    expect(cp.newReplicaSet!.name).toBe(`${'w'.repeat(253 - 1 - HASH.A.length)}-${HASH.A}`)
    expect(cp.newReplicaSet!.name!.length).toBe(253)
  })

  it('D5.4 unhealthy old replicas go oldest ReplicaSet first, within the room', async () => {
    // Room: 5 replicas − 3 minAvailable − 1 unavailable new = 1; both old ReplicaSets have one unavailable.
    const cp = await plan(
      deployment('C', 4, rolling(3, 3)),
      replicaSet('B', 2, {status: [2, 1, 1], revision: 2, sized: [4, 5], created: '2026-11-02T00:00:00Z'}),
      replicaSet('A', 2, {status: [2, 1, 1], revision: 1, sized: [4, 5], created: '2026-11-01T00:00:00Z'}),
      replicaSet('C', 1, {status: [1, 0, 0], revision: 3, sized: [4, 5], created: '2026-11-03T00:00:00Z'}),
    )
    expect(writes(cp).filter((w) => w.startsWith('scale'))).toEqual([`scale web-${HASH.A} 2→1 unhealthy`])
  })

  it('D5.4 availability scales old ReplicaSets down oldest first, none below 0', async () => {
    const cp = await plan(
      deployment('C', 4, rolling(3, 4)),
      replicaSet('A', 1, {revision: 1, sized: [4, 5], created: '2026-11-01T00:00:00Z'}),
      replicaSet('B', 3, {revision: 2, sized: [4, 5], created: '2026-11-02T00:00:00Z'}),
      replicaSet('C', 4, {revision: 3, sized: [4, 5], created: '2026-11-03T00:00:00Z'}),
    )
    expect(writes(cp).filter((w) => w.startsWith('scale'))).toEqual([`scale web-${HASH.A} 1→0 availability`, `scale web-${HASH.B} 3→0 availability`])
  })

  it('D9.1 unavailableReplicas is never negative (more available than asked for)', async () => {
    const cp = await plan(deployment('B', 2, rolling(2, 3)), replicaSet('B', 2, {status: [3, 3, 3], revision: 2, sized: [2, 3]}))
    expect((cp.status as {unavailableReplicas: number}).unavailableReplicas).toBe(0)
  })

  describe('D9.3/D9.4 Progressing on a rollout that waits', () => {
    const waiting = (lastUpdate: string, ready: number) =>
      plan(
        deployment('B', 3, {
          metadata: {annotations: {'deployment.kubernetes.io/revision': '2'}},
          status: {
            observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: ready, availableReplicas: 1, unavailableReplicas: 2,
            conditions: [
              {type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.', lastUpdateTime: lastUpdate, lastTransitionTime: lastUpdate},
              {type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "web-7bc8986495" is progressing.', lastUpdateTime: lastUpdate, lastTransitionTime: lastUpdate},
            ],
          },
        }),
        replicaSet('B', 3, {status: [3, 3, 1], revision: 2, sized: [3, 4]}),
      )
    const progressing = (cp: ControllerPlan) => (cp.status as {conditions: {type: string; reason: string}[]}).conditions.find((c) => c.type === 'Progressing')!.reason

    it('the deadline passes strictly after lastUpdateTime + progressDeadlineSeconds', async () => {
      expect(progressing(await waiting('2026-11-22T09:50:00Z', 3))).toBe('ReplicaSetUpdated') // exactly 600 s ago
      expect(progressing(await waiting('2026-11-22T09:49:59Z', 3))).toBe('ProgressDeadlineExceeded')
    })

    it('more ready replicas than before the sync is progress (and no timeout)', async () => {
      expect(progressing(await waiting('2026-11-22T08:00:00Z', 2))).toBe('ReplicaSetUpdated')
      expect(progressing(await waiting('2026-11-22T08:00:00Z', 3))).toBe('ProgressDeadlineExceeded')
    })
  })

  it('D9.1 Available at exactly replicas − maxUnavailable', async () => {
    const available = (n: number) =>
      plan(deployment('B', 4, rolling(2, 4)), replicaSet('B', 4, {status: [4, 4, n], revision: 2, sized: [4, 5]})).then(
        (cp) => (cp.status as {conditions: {type: string; status: string}[]}).conditions.find((c) => c.type === 'Available')!.status,
      )
    expect(await available(3)).toBe('True') // 4 − 1 (25% of 4)
    expect(await available(2)).toBe('False')
  })

  it('D7.2 a Deployment scaled to 0 allows no surge: every ReplicaSet goes to 0', async () => {
    const strategy = {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
    const cp = await plan(
      deployment('B', 0, {spec: {strategy}, ...rolling(2, 4)}),
      replicaSet('A', 2, {revision: 1, sized: [4, 5], created: '2026-11-01T00:00:00Z'}),
      replicaSet('B', 2, {revision: 2, sized: [4, 5], created: '2026-11-02T00:00:00Z'}),
    )
    expect(writes(cp).filter((w) => w.startsWith('scale'))).toEqual([`scale web-${HASH.A} 2→0 proportional`, `scale web-${HASH.B} 2→0 proportional`])
  })

  it('D8 the legacy rollback annotation rolls the template back, or warns (T24, T25)', async () => {
    const rollback = (to: string) => deployment('C', 2, {metadata: {annotations: {'deprecated.deployment.rollback.to': to, 'deployment.kubernetes.io/revision': '2'}}, status: available(2)})
    const rss = [replicaSet('A', 0, {status: [0, 0, 0], revision: 1}), replicaSet('C', 2, {revision: 2, sized: [2, 3]})]
    expect(writes(await plan(rollback('1'), ...rss))).toEqual(['rollback 1 rolled-back'])
    expect(writes(await plan(rollback('42'), ...rss))).toEqual(['rollback 42 revision-not-found'])
    expect(writes(await plan(rollback('0'), ...rss))).toEqual(['rollback 1 rolled-back'])
    expect(writes(await plan(rollback('2'), ...rss))).toEqual(['rollback 2 template-unchanged'])
  })

  it('D9.8 terminatingReplicas is absent when a synced ReplicaSet does not report it', async () => {
    const cp = await plan(deployment('A', 3, rolling(1, 0)), replicaSet('A', 3, {revision: 1, sized: [3, 4]}))
    expect(cp.status).not.toHaveProperty('terminatingReplicas')
    expect((cp.status as {availableReplicas: number}).availableReplicas).toBe(3)
  })

  it('D14.1 apps/v1 defaults: 1 replica, RollingUpdate 25%/25%, limit 10, deadline 600', async () => {
    const d = deployment('A', 1)
    delete d.spec.replicas
    const cp = await plan(d)
    expect(cp.desired).toBe(1)
    expect((cp.actions[0] as {annotations: Json}).annotations['deployment.kubernetes.io/max-replicas']).toBe('2')
    expect(cp.status.conditions.map((c) => c.reason)).toContain('NewReplicaSetCreated')
  })
})

describe('properties', () => {
  it('D5 a rolling sync keeps new + old within replicas + maxSurge, and scales old down by no more than availability allows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({min: 1, max: 12}),
        fc.constantFrom<[number | string, number | string]>(['25%', '25%'], [1, 0], [0, 1], ['50%', '50%'], [2, 3]),
        fc.integer({min: 0, max: 14}),
        fc.integer({min: 0, max: 14}),
        fc.integer({min: 0, max: 14}),
        fc.integer({min: 0, max: 14}),
        async (replicas, [surge, unav], oldSpec, oldAvail, newSpec, newAvail) => {
          const {surge: s, unavailable} = resolveFenceposts(surge, unav, replicas)
          fc.pre(oldSpec + newSpec <= replicas + s && oldAvail <= oldSpec && newAvail <= newSpec)
          const sized: [number, number] = [replicas, replicas + s]
          const cp = await plan(
            deployment('B', replicas, {spec: {strategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: surge, maxUnavailable: unav}}}}),
            replicaSet('A', oldSpec, {status: [oldSpec, oldAvail, oldAvail], revision: 1, sized}),
            replicaSet('B', newSpec, {status: [newSpec, newAvail, newAvail], revision: 2, sized, created: '2026-11-02T00:00:00Z'}),
          )
          const after = new Map(cp.replicaSets!.map((rs) => [rs.name, rs.replicas]))
          const total = [...after.values()].reduce((a, b) => a + b, 0)
          expect(total).toBeLessThanOrEqual(replicas + s)
          const byAvailability = (cp.actions as DeploymentAction[]).filter((a) => a.type === 'scaleReplicaSet' && a.rule === 'availability' && !a.conflict)
          const removed = byAvailability.reduce((n, a) => n + (a as {from: number; to: number}).from - (a as {to: number}).to, 0)
          const minAvailable = replicas - Math.min(unavailable, replicas)
          expect(removed).toBeLessThanOrEqual(Math.max(0, oldAvail + newAvail - minAvailable))
        },
      ),
      {numRuns: 200},
    )
  })
})

describe('D10 history cleanup after rollbacks: revision order, not creation or name order', () => {
  // Three templates rolled out in turn (revisions 1, 2, 3), then rollbacks to the first (its
  // ReplicaSet takes revision 4) and the second (5), then a new template (C, revision 6). The
  // oldest revisions are no longer the oldest ReplicaSets, nor the first names.
  const old = (name: string, revision: number, created: string) =>
    replicaSet('A', 0, {status: [0, 0, 0], revision, name, created, labels: {app: 'web', rs: name}})
  const history = () => [old('web-aaa', 4, '2026-11-01T00:00:00Z'), old('web-bbb', 5, '2026-11-02T00:00:00Z'), old('web-ccc', 3, '2026-11-03T00:00:00Z')]
  const complete = (limit: number) =>
    plan(
      deployment('C', 2, {spec: {strategy: {type: 'Recreate'}, revisionHistoryLimit: limit}, status: available(2)}),
      ...history(),
      replicaSet('C', 2, {revision: 6, sized: [2, 2], created: '2026-11-04T00:00:00Z'}),
    )
  const deletes = (cp: ControllerPlan) => writes(cp).filter((w) => w.startsWith('delete'))

  it('revisionHistoryLimit 1: the two lowest revisions go (3, then 4), not the two oldest or first-named', async () => {
    expect(deletes(await complete(1))).toEqual(['delete web-ccc', 'delete web-aaa'])
  })

  it('revisionHistoryLimit 2: only the lowest revision goes', async () => {
    expect(deletes(await complete(2))).toEqual(['delete web-ccc'])
  })

  it('revisionHistoryLimit 0: every old ReplicaSet scaled to 0 goes, lowest revision first', async () => {
    expect(deletes(await complete(0))).toEqual(['delete web-ccc', 'delete web-aaa', 'delete web-bbb'])
  })

  it('revisionHistoryLimit 3: nothing goes', async () => {
    expect(deletes(await complete(3))).toEqual([])
  })
})

describe('D2.3 requeueStuckDeployment: the progress deadline is looked at again one second after it', () => {
  const stuck = (deadline: number | undefined, reason = 'ReplicaSetUpdated', paused = false) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        deployment('B', 3, {
          spec: {...(deadline === undefined ? {} : {progressDeadlineSeconds: deadline}), ...(paused ? {paused: true} : {})},
          metadata: {annotations: {'deployment.kubernetes.io/revision': '2'}},
          status: {
            observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 1, availableReplicas: 1, unavailableReplicas: 2,
            conditions: [{type: 'Progressing', status: 'True', reason, message: 'x', lastUpdateTime: '2026-11-22T09:55:00Z', lastTransitionTime: '2026-11-22T09:55:00Z'}],
          },
        }),
        replicaSet('B', 3, {status: [3, 1, 1], revision: 2, sized: [3, 4]}),
      ],
    })
  const checkAt = async (text: string) => {
    const snapshot = await readSnapshot({filename: ['-'], readStdin: async () => text, now: NOW})
    const d = snapshot.deployments![0]
    return progressCheckAt(d, d.status)
  }

  it('lastUpdateTime + progressDeadlineSeconds + 1 s', async () => {
    expect(await checkAt(stuck(600))).toBe('2026-11-22T10:05:01Z')
    expect(await checkAt(stuck(30))).toBe('2026-11-22T09:55:31Z')
  })

  it('the default deadline is 600 s', async () => {
    expect(await checkAt(stuck(undefined))).toBe('2026-11-22T10:05:01Z')
  })

  it('no re-check once the deadline has been reported exceeded', async () => {
    expect(await checkAt(stuck(600, 'ProgressDeadlineExceeded'))).toBeUndefined()
  })

  it('the simulation wakes the controller at that second, and not for a paused Deployment (no deadline is checked while paused)', async () => {
    const wakes = async (paused: boolean) => {
      const text = stuck(600, 'ReplicaSetUpdated', paused)
      const snapshot = await readSnapshot({filename: ['-'], readStdin: async () => text, now: NOW})
      return [...deploymentSimulation.wakeTimes!(snapshot, undefined as never)].filter((t) => t !== undefined).map((t) => formatRfc3339(t!))
    }
    expect(await wakes(false)).toEqual(['2026-11-22T10:05:01Z'])
    expect(await wakes(true)).toEqual([])
  })
})
