// Seeded random worlds for the workloads oracle: StatefulSets and DaemonSets in random states,
// built with the same pieces as the hand-made scenarios (workload-scenarios.ts).
//
// A DaemonSet world's nodes are all kwok nodes (pods run, finish and go at once) or all hand-made
// (pods keep the status written by hand; a deleted one stays terminating). Mixing them would let
// the controller's random choice of nodes (Go map order) leave end states that no longer tell
// which nodes it chose, sync by sync.
// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import {apiOk} from './setup/cluster.js'
import {ghost, kwok, type SetChange, settled, type Slot} from './workload-scenarios.js'
import {createDaemonSet, type Ctx, daemonPod, daemonRevision, daemonTemplate, handNode, kwokNode, patchSet, type PodState, type Scenario} from './workload-worlds.js'

type Rnd = () => number
const int = (r: Rnd, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1))
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
const chance = (r: Rnd, p: number) => r() < p

function randomSet(r: Rnd, index: number, seed: number): Scenario {
  const image = chance(r, 0.5) ? ('B' as const) : undefined
  const slots: Slot[] = Array.from({length: int(r, 0, 5)}, () => {
    const x = r()
    const slot: Slot = x < 0.2 ? null : x < 0.6 ? {...kwok} : ghost(pick(r, ['Running', 'Pending', 'NotReady', 'Failed', 'Terminating'] as const))
    if (slot && image && chance(r, 0.3)) slot.atUpdate = true
    return slot
  })
  const claims = chance(r, 0.3)
  const retention = pick(r, [['Retain', 'Retain'], ['Delete', 'Retain'], ['Retain', 'Delete'], ['Delete', 'Delete']] as const)
  const options = {
    parallel: chance(r, 0.4),
    start: chance(r, 0.2) ? 2 : undefined,
    updateStrategy: pick(r, [undefined, {type: 'RollingUpdate', rollingUpdate: {partition: int(r, 1, 3)}}, {type: 'OnDelete'}, {type: 'RollingUpdate'}]),
    ...(claims ? {claims: true, retention: [...retention] as [string, string]} : {}),
  }
  const change: SetChange = {replicas: chance(r, 0.6) ? int(r, 0, 4) : undefined, image, claimOwners: claims && retention[0] === 'Delete' && chance(r, 0.5) ? 'set' : undefined}
  const text = JSON.stringify({options, slots: slots.map((s) => (s ? `${s.on}${s.state ? `:${s.state}` : ''}${s.atUpdate ? '@update' : ''}` : '-')), change})
  return {id: `rs${index}`, kind: 'StatefulSet', title: `random StatefulSet ${index} (seed ${seed}) ${text}`, build: (c) => settled(c, options, slots, change).then(() => undefined)}
}

function randomDaemonSet(r: Rnd, index: number, seed: number): Scenario {
  const onKwok = chance(r, 0.5)
  const image = chance(r, 0.6)
  const strategy = pick(r, [undefined, {type: 'RollingUpdate', rollingUpdate: {maxUnavailable: 2}}, {type: 'RollingUpdate', rollingUpdate: {maxUnavailable: '50%'}}, {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}, {type: 'OnDelete'}])
  const states: readonly PodState[] = onKwok ? ['Running', 'Running', 'Running', 'Failed', 'Succeeded'] : ['Running', 'Running', 'NotReady', 'Pending', 'Terminating']
  const nodes = Array.from({length: int(r, 1, 4)}, (_, i) => ({
    suffix: 'abcd'[i]!,
    match: chance(r, 0.8),
    taint: pick(r, [undefined, undefined, undefined, 'NoSchedule', 'NoExecute', 'PreferNoSchedule'] as const),
    pods: Array.from({length: pick(r, [0, 1, 1, 1, 2])}, () => ({state: pick(r, states), updated: image && chance(r, 0.3)})),
  }))
  const text = JSON.stringify({onKwok, image, strategy, nodes})
  const build = async (c: Ctx) => {
    const ds = await createDaemonSet(c, {updateStrategy: strategy, spec: {nodeSelector: {pool: 'x'}}})
    const r1 = await daemonRevision(c, ds, 1, 'A')
    const names: string[] = []
    for (const n of nodes) {
      const o = {labels: {pool: n.match ? 'x' : 'z'}}
      names.push(onKwok ? await kwokNode(c, n.suffix, {...o, taints: n.taint ? [{key: 'foo', value: 'bar', effect: n.taint}] : undefined}) : await handNode(c, n.suffix, o))
      if (!onKwok && n.taint) await taint(names.at(-1)!, n.taint)
    }
    const create = async (updated: boolean) => {
      for (const [i, n] of nodes.entries()) {
        for (const [j, p] of n.pods.entries()) {
          if (p.updated !== updated) continue
          await daemonPod(c, ds, names[i]!, {state: p.state, suffix: j === 0 ? '' : `-${j}`, ...(updated ? {generation: '2'} : {hash: r1, generation: '1'})})
        }
      }
    }
    await create(false)
    if (image) {
      await patchSet(c, {template: daemonTemplate(c, 'B', {nodeSelector: {pool: 'x'}})}, 'daemonsets')
      await create(true)
    }
  }
  return {id: `rd${index}`, kind: 'DaemonSet', title: `random DaemonSet ${index} (seed ${seed}) ${text}`, build}
}

async function taint(node: string, effect: string): Promise<void> {
  await apiOk('PATCH', `/api/v1/nodes/${node}`, {contentType: 'application/merge-patch+json', body: {spec: {taints: [{key: 'foo', value: 'bar', effect}]}}})
}

/** `count` worlds of each kind from `seed`. */
export function randomScenarios(seed: number, count: number): Scenario[] {
  const r = prng(seed) as Rnd
  const out: Scenario[] = []
  for (let i = 0; i < count; i++) out.push(randomSet(r, i, seed), randomDaemonSet(r, i, seed))
  return out
}

