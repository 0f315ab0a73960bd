// Worlds for the simulation's unit tests: fixtures written to a temporary directory and opened as
// the CLI opens them, and a run of the event loop at a fixed clock.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {expect} from 'vitest'

import type {MemoryWorld} from '../../../src/apply/memory-world.js'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {parseRfc3339, seconds} from '../../../src/reconcile/time.js'
import {runLoop, type LoopResult} from '../../../src/simulate/loop.js'
import {fixtureWorld} from '../../../src/services/reconcile.js'
import {formatRfc3339} from '../../../src/reconcile/time.js'

export const START = parseRfc3339('2026-11-22T10:00:00Z')!

/** A Deployment with no ReplicaSet yet. */
export function deployment(name: string, replicas: number, extra: {strategy?: string; minReadySeconds?: number; progressDeadlineSeconds?: number; image?: string} = {}): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: default, uid: 00000000-0000-4000-8000-${name.padStart(12, '0').slice(-12).replace(/[^0-9a-f]/g, 'a')}, resourceVersion: "1", generation: 1, creationTimestamp: "2026-11-22T09:00:00Z"}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  ${extra.strategy ? `strategy: ${extra.strategy}` : ''}
  ${extra.minReadySeconds ? `minReadySeconds: ${extra.minReadySeconds}` : ''}
  ${extra.progressDeadlineSeconds ? `progressDeadlineSeconds: ${extra.progressDeadlineSeconds}` : ''}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: c, image: "${extra.image ?? 'nginx:1.27'}"}]}
`
}

/** The new image the rollouts of the loop's tests set. */
export const NEW_IMAGE = {kind: 'Deployment', name: 'web', container: 'c', image: 'nginx:1.28'}

/** A world opened and run until quiet (it must get there): the state an operator starts a rollout from. */
export async function settled(yaml: string): Promise<Sim> {
  const sim = await openSim(yaml)
  const first = await sim.run()
  expect(first.endedBy).toBe('quiet')
  return sim
}

export interface Sim {
  world: MemoryWorld
  clock: {now: bigint}
  run(opts?: {readyAfter?: number; fail?: string[]; untilSeconds?: number; terminateAfter?: number}): Promise<LoopResult>
}

/** Opens `yaml` as fixtures; each run() continues from where the clock is. */
export async function openSim(yaml: string, seed?: string): Promise<Sim> {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-sim-'))
  writeFileSync(join(dir, 'world.yaml'), yaml)
  const clock = {now: START}
  const {memory} = await fixtureWorld({filename: [dir]}, () => formatRfc3339(clock.now), {gracefulPodDeletion: true, seed})
  return {
    world: memory,
    clock,
    run: (opts = {}) =>
      runLoop(memory, {
        clock,
        featureGates: {...DEFAULT_FEATURE_GATES},
        until: opts.untilSeconds === undefined ? undefined : clock.now + seconds(opts.untilSeconds),
        kubelet: {
          start: clock.now,
          readyAfter: seconds(opts.readyAfter ?? 10),
          terminateAfter: opts.terminateAfter === undefined ? undefined : seconds(opts.terminateAfter),
          fail: opts.fail ?? [],
        },
      }),
  }
}

/** Each instant's last (old…, new) ReplicaSet sizes: the end of every burst. */
export function burstEnds(result: LoopResult): Array<{t: number; sizes: number[]}> {
  const ends: Array<{t: number; sizes: number[]}> = []
  for (const s of result.steps) {
    const sizes = s.counts.replicaSets.map((r) => r.replicas)
    const last = ends.at(-1)
    if (last && last.t === s.offsetSeconds) last.sizes = sizes
    else ends.push({t: s.offsetSeconds, sizes})
  }
  return ends.filter((e, i) => i === 0 || JSON.stringify(e.sizes) !== JSON.stringify(ends[i - 1].sizes))
}
