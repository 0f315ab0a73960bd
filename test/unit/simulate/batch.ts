// Worlds with Jobs and CronJobs for the simulation's unit tests: a run of the event loop at a fixed
// clock, with --run-for.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {DEFAULT_FEATURE_GATES} from '../../../src/model/plan.js'
import {formatRfc3339, parseRfc3339, seconds} from '../../../src/reconcile/time.js'
import {fixtureWorld} from '../../../src/services/reconcile.js'
import {runLoop, type LoopResult} from '../../../src/simulate/loop.js'

export const T0 = parseRfc3339('2026-11-22T10:00:00Z')!
export const at = (s: number) => T0 + seconds(s)

export async function simulateYaml(yaml: string, o: {runFor?: number; fail?: string[]; untilSeconds?: number} = {}): Promise<LoopResult> {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-sim-batch-'))
  writeFileSync(join(dir, 'world.yaml'), yaml)
  const clock = {now: T0}
  const {memory} = await fixtureWorld({filename: [dir]}, () => formatRfc3339(clock.now), {gracefulPodDeletion: true})
  return runLoop(memory, {
    clock,
    featureGates: {...DEFAULT_FEATURE_GATES},
    until: o.untilSeconds === undefined ? undefined : T0 + seconds(o.untilSeconds),
    kubelet: {start: T0, readyAfter: seconds(10), fail: o.fail ?? [], runFor: seconds(o.runFor ?? 10)},
  })
}
