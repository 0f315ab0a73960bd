// The oracle: kctl's plan against what the real kube-controller-manager then does.
//
// Every scenario is built in its own namespace while no controller runs. kctl plans them all
// (live, and again from `kubectl get -o yaml` exports, which must give the same plan), then
// kube-controller-manager starts with only the replicaset and replicationcontroller controllers,
// and each scenario's observed creates, deletes, adoptions and releases are compared with the plan.
// A delete counts as agreeing when the pods the controller deleted are exactly the planned ones,
// or, where the plan reports a tie, as many pods drawn from the planned victims and their tie.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {kctl, planJson} from './kctl.js'
import {readmeText} from './readme-figures.js'
import {agrees, build, HOUR, MIN, observe, podState, predicted, type Built, type ControllerSpec, type Scenario} from './oracle-worlds.js'
import {api, apiOk, controllerManager, deleteNamespace, inParallel, kubectl, makeNode, waitUntil} from './setup/cluster.js'

const DEPLOYMENT_UID = '7c0d5e2a-0000-4000-8000-00000000d001'
const sameSecond = new Date(Date.now() - 20 * MIN).toISOString().replace(/\.\d+Z$/, 'Z')

const rs = (name: string, replicas: number, app: string, extra: Partial<ControllerSpec> = {}): ControllerSpec => ({
  kind: 'ReplicaSet',
  name,
  replicas,
  selector: {app},
  template: {app},
  ...extra,
})

const SCENARIOS: Scenario[] = [
  {
    id: 'tie',
    title: '2.4.10 equal pods: a UID decision inside one age bucket, or a tie',
    controllers: [rs('web', 1, 'tie')],
    pods: [
      {name: 'tie-a', owner: 'web', node: 'n1', phase: 'Running', readyAt: sameSecond, labels: {app: 'tie'}},
      {name: 'tie-b', owner: 'web', node: 'n2', phase: 'Running', readyAt: sameSecond, labels: {app: 'tie'}},
    ],
  },
  {
    id: 'mixed',
    title: '2.4.1 scale-down over mixed states: unassigned, not ready, cost, ready time',
    controllers: [rs('web', 2, 'mixed')],
    pods: [
      {name: 'a-unscheduled', owner: 'web', labels: {app: 'mixed'}},
      {name: 'b-not-ready', owner: 'web', node: 'n1', phase: 'Running', ready: false, labels: {app: 'mixed'}},
      {name: 'c-costly', owner: 'web', node: 'n2', phase: 'Running', readyAgo: HOUR, cost: '100', labels: {app: 'mixed'}},
      {name: 'd-old', owner: 'web', node: 'n1', phase: 'Running', readyAgo: 2 * HOUR, labels: {app: 'mixed'}},
      {name: 'e-young', owner: 'web', node: 'n2', phase: 'Running', readyAgo: 10 * MIN, labels: {app: 'mixed'}},
    ],
  },
  {
    id: 'ready-before-cost',
    title: '2.4.2 readiness is consulted before the deletion cost',
    controllers: [rs('web', 1, 'rbc')],
    pods: [
      {name: 'b-not-ready', owner: 'web', node: 'n1', phase: 'Running', ready: false, cost: '1000', labels: {app: 'rbc'}},
      {name: 'c-ready', owner: 'web', node: 'n2', phase: 'Running', readyAgo: HOUR, cost: '-100', labels: {app: 'rbc'}},
    ],
  },
  {
    id: 'cost',
    title: '2.4.3 the lower deletion cost goes first',
    controllers: [rs('web', 1, 'cost')],
    pods: [
      {name: 'p1', owner: 'web', node: 'n1', phase: 'Running', readyAgo: HOUR, cost: '-10', labels: {app: 'cost'}},
      {name: 'p2', owner: 'web', node: 'n2', phase: 'Running', readyAgo: HOUR, labels: {app: 'cost'}},
    ],
  },
  {
    // The API server refuses an invalid cost ("+5" of 2.4.4) on a pod; "-007" is valid and means −7.
    id: 'cost-leading-zeros',
    title: '§2.2.4 a cost of "-007" parses as −7, lower than "-1"',
    controllers: [rs('web', 1, 'icost')],
    pods: [
      {name: 'p1', owner: 'web', node: 'n1', phase: 'Running', readyAgo: HOUR, cost: '-007', labels: {app: 'icost'}},
      {name: 'p2', owner: 'web', node: 'n2', phase: 'Running', readyAgo: HOUR, cost: '-1', labels: {app: 'icost'}},
    ],
  },
  {
    id: 'unknown-phase',
    title: '2.4.11 phase Unknown goes before Running',
    controllers: [rs('web', 1, 'unk')],
    pods: [
      {name: 'p1', owner: 'web', node: 'n1', phase: 'Unknown', ready: false, labels: {app: 'unk'}},
      {name: 'p2', owner: 'web', node: 'n2', phase: 'Running', ready: false, labels: {app: 'unk'}},
    ],
  },
  {
    id: 'ready-time',
    title: '2.4.8 the more recently ready pod goes first (log2 buckets)',
    controllers: [rs('web', 1, 'rt')],
    pods: [
      {name: 'p1', owner: 'web', node: 'n1', phase: 'Running', readyAgo: 2 * HOUR, labels: {app: 'rt'}},
      {name: 'p2', owner: 'web', node: 'n2', phase: 'Running', readyAgo: 5 * MIN, labels: {app: 'rt'}},
    ],
  },
  {
    id: 'restarts',
    title: '2.4.9 same ready second: more restarts go first',
    controllers: [rs('web', 1, 'rs9')],
    pods: [
      {name: 'p1', owner: 'web', node: 'n1', phase: 'Running', readyAt: sameSecond, restarts: 4, labels: {app: 'rs9'}},
      {name: 'p2', owner: 'web', node: 'n2', phase: 'Running', readyAt: sameSecond, labels: {app: 'rs9'}},
    ],
  },
  {
    id: 'colocated',
    title: '2.4.5 sibling ReplicaSets of one Deployment: the crowded node goes first',
    controllers: [
      rs('web-new', 2, 'col', {selector: {app: 'col', hash: 'new'}, template: {app: 'col', hash: 'new'}, deploymentUid: DEPLOYMENT_UID}),
      rs('web-old', 1, 'col', {selector: {app: 'col', hash: 'old'}, template: {app: 'col', hash: 'old'}, deploymentUid: DEPLOYMENT_UID}),
    ],
    pods: [
      {name: 'x', owner: 'web-new', node: 'n1', phase: 'Running', readyAgo: 30 * MIN, labels: {app: 'col', hash: 'new'}},
      {name: 'y', owner: 'web-new', node: 'n1', phase: 'Running', readyAgo: 2 * HOUR, labels: {app: 'col', hash: 'new'}},
      {name: 'z', owner: 'web-new', node: 'n2', phase: 'Running', readyAgo: 2 * HOUR, labels: {app: 'col', hash: 'new'}},
      {name: 'o', owner: 'web-old', node: 'n1', phase: 'Running', readyAgo: 3 * HOUR, labels: {app: 'col', hash: 'old'}},
    ],
  },
  {
    id: 'adoption',
    title: '3.5.1 an orphan is adopted, counted, and may be the victim',
    controllers: [rs('web', 2, 'adopt')],
    pods: [
      {name: 'owned-1', owner: 'web', node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'adopt'}},
      {name: 'owned-2', owner: 'web', node: 'n2', phase: 'Running', readyAgo: HOUR, labels: {app: 'adopt'}},
      {name: 'orphan', node: 'n3', phase: 'Running', ready: false, labels: {app: 'adopt'}},
    ],
  },
  {
    id: 'release',
    title: '3.5.4 an owned pod whose labels no longer match is released and replaced',
    controllers: [rs('web', 2, 'rel')],
    pods: [
      {name: 'kept', owner: 'web', node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'rel'}},
      {name: 'relabelled', owner: 'web', node: 'n2', phase: 'Running', readyAgo: HOUR, labels: {app: 'debug'}},
    ],
  },
  {
    id: 'rc-defaulted',
    title: '5.8.5 an RC without a selector: defaulted from the template, scaled up',
    controllers: [{kind: 'ReplicationController', name: 'legacy', replicas: 3, template: {app: 'legacy', tier: 'web'}}],
    pods: [{name: 'legacy-1', owner: 'legacy', node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'legacy', tier: 'web'}}],
  },
  {
    id: 'failed',
    title: '1.8.4 a Failed pod is neither counted nor deleted',
    controllers: [rs('web', 2, 'fail')],
    pods: [
      {name: 'running', owner: 'web', node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'fail'}},
      {name: 'evicted', owner: 'web', node: 'n2', phase: 'Failed', ready: false, labels: {app: 'fail'}},
    ],
  },
  {
    id: 'terminating',
    title: '1.8.3 a terminating pod no longer counts: replaced at once',
    controllers: [rs('web', 3, 'term')],
    pods: [
      {name: 'p1', owner: 'web', node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'term'}},
      {name: 'p2', owner: 'web', node: 'n2', phase: 'Running', readyAgo: HOUR, labels: {app: 'term'}},
      {name: 'p3', owner: 'web', node: 'n3', phase: 'Running', readyAgo: HOUR, labels: {app: 'term'}, terminating: true},
    ],
  },
  {
    id: 'foreign',
    title: '3.5.3 a pod controlled by another ReplicaSet is ignored (overlap)',
    controllers: [rs('first', 1, 'ovl'), rs('second', 1, 'ovl')],
    pods: [{name: 'held', owner: 'first', node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'ovl'}}],
  },
  {
    id: 'misref',
    title: '1.1 step 6 pods naming the uid under another kind or an old name are not the controller\'s: scaled to 0, only its own pod goes',
    controllers: [rs('web', 0, 'misref')],
    pods: [
      {name: 'own', owner: 'web', node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'misref'}},
      {name: 'as-rc', owner: 'web', refAs: {kind: 'ReplicationController'}, node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'misref'}},
      {name: 'old-name', owner: 'web', refAs: {name: 'web-old'}, node: 'n2', phase: 'Running', readyAgo: HOUR, labels: {app: 'misref'}},
      {name: 'old-unmatched', owner: 'web', refAs: {name: 'web-old'}, node: 'n2', phase: 'Running', readyAgo: HOUR, labels: {app: 'elsewhere'}},
    ],
  },
  {
    id: 'scale-up',
    title: '4.3.6 scale 1 → 4: three creates from the template',
    controllers: [rs('web', 4, 'up')],
    pods: [{name: 'only', owner: 'web', node: 'n1', phase: 'Running', readyAgo: HOUR, labels: {app: 'up'}}],
  },
]

describe('the oracle: kctl plan vs kube-controller-manager (replicaset, replicationcontroller)', () => {
  const built: Built[] = []
  let plan: any
  const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z')

  beforeAll(async () => {
    await controllerManager.stop()
    for (const node of ['n1', 'n2', 'n3']) {
      const r = await api('GET', `/api/v1/nodes/${node}`)
      if (r.status === 404) await makeNode(node)
    }
    // The tie scenario goes first: its pods' creation times must sit well inside one log2 bucket
    // (68.7 s – 137.4 s old) both when kctl plans and when the controller acts.
    built.push(await build(SCENARIOS[0]))
    built.push(...(await inParallel(SCENARIOS.slice(1), 6, build)))
    const tiePods = await apiOk('GET', `/api/v1/namespaces/${built[0].ns}/pods`)
    const newest = Math.max(...tiePods.items.map((p: any) => Date.parse(p.metadata.creationTimestamp)))
    const wait = newest + 75_000 - Date.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  }, 240_000)

  afterAll(async () => {
    await controllerManager.stop()
    await Promise.all(built.map((b) => deleteNamespace(b.ns).catch(() => {})))
  })

  it('plans every scenario live, and the same plan from a `kubectl get -o yaml` export', async () => {
    const at = now()
    plan = await planJson(['-A', '--now', at])
    const dir = mkdtempSync(join(tmpdir(), 'kctl-oracle-'))
    // The scenarios side by side: each export and its two plans are separate processes.
    await inParallel(built, 4, async (b) => {
      const r = await kubectl(['get', 'replicasets,replicationcontrollers,pods', '-n', b.ns, '-o', 'yaml'])
      expect(r.code, r.stderr).toBe(0)
      const file = join(dir, `${b.scenario.id}.yaml`)
      writeFileSync(file, r.stdout)
      const [fromFile, live] = await Promise.all([planJson(['-f', file, '-n', b.ns, '--now', at]), planJson(['-n', b.ns, '--now', at])])
      expect(fromFile.controllers, b.scenario.id).toEqual(live.controllers)
      expect(fromFile.summary).toEqual(live.summary)
      expect(live.source.type).toBe('cluster')
      expect(fromFile.source).toEqual({type: 'fixtures', paths: [file]})
    })
  })

  it('agrees with the real controller on every scenario', async () => {
    expect(plan, 'the planning test ran first').toBeDefined()
    await controllerManager.start(['replicaset', 'replicationcontroller'])
    const rows: string[] = []
    let agreed = 0
    let total = 0
    // Every scenario's controllers, watched at once (the controller acts on all of them together):
    // each waits until the controller has done as much as planned (a disagreement shows after the
    // timeout as a short count), then a moment longer in case it does more.
    const results = await inParallel(
      built.flatMap((b) => b.scenario.controllers.map((c) => ({b, c}))),
      20,
      async ({b, c}) => {
        const cp = plan.controllers.find((x: any) => x.namespace === b.ns && x.name === c.name)
        expect(cp, `${b.scenario.id}/${c.name} planned`).toBeDefined()
        const p = predicted(cp)
        const uid = b.uids[c.name]
        await waitUntil(
          async () => {
            const o = observe(b, uid, await podState(b.ns))
            return o.creates >= p.creates && o.deleted.length >= p.deleted.length && o.adopted.length >= p.adopted.length && o.released.length >= p.released.length
          },
          {timeoutMs: 30_000, what: `${b.scenario.id}/${c.name}: the controller to act`},
        ).catch(() => undefined)
        await new Promise((r) => setTimeout(r, 300))
        return {b, c, p, settled: observe(b, uid, await podState(b.ns))}
      },
    )
    for (const {b, c, p, settled} of results) {
      const ok = agrees(p, settled)
      total++
      if (ok) agreed++
      rows.push(`${ok ? 'agree   ' : 'DISAGREE'} ${b.scenario.id}/${c.name}: planned ${JSON.stringify({...p, victims: undefined})}, observed ${JSON.stringify(settled)}`)
    }
    process.stderr.write(`\noracle agreement: ${agreed}/${total} controllers in ${built.length} scenarios\n${rows.join('\n')}\n`)
    expect(rows.filter((r) => r.startsWith('DISAGREE'))).toEqual([])
    // The README states these figures; they must be the ones measured here.
    expect(readmeText()).toContain(`builds ${built.length} hand-made scenarios`)
    expect(readmeText()).toContain(`Agreement: **${agreed} of ${total} controllers**`)
  })
})
