// What the simulation oracles share: the real controllers with a scheduler and a timed kubelet,
// and the comparison of the simulation's burst ends with the states the real objects went through.
import {startKwok, type Kwok} from '../../controlplane/fake-nodes.js'
import type {Component} from '../../controlplane/procs.js'
import {startScheduler} from '../../controlplane/start.js'
import {api, controllerManager, controlPlane} from './setup/cluster.js'

export interface TimedCluster {
  /** The fake nodes' names. */
  nodes: string[]
  /** Stops the controllers, the scheduler and kwok, and deletes the fake nodes. */
  stop(): Promise<void>
}

/** kube-controller-manager with `controllers`, kube-scheduler, and kwok with the `timed` stages on three fake nodes. */
export async function startTimedCluster(controllers: string[], nodeNamePrefix: string): Promise<TimedCluster> {
  const info = controlPlane()
  await controllerManager.start(controllers)
  const scheduler: Component = await startScheduler({info, log: () => {}})
  const kwok: Kwok = await startKwok({info, nodes: 3, stages: 'timed', nodeNamePrefix})
  return {
    nodes: kwok.nodes,
    async stop() {
      await controllerManager.stop()
      await kwok.stop()
      await scheduler.stop()
      for (const n of kwok.nodes) await api('DELETE', `/api/v1/nodes/${n}`)
    },
  }
}

/** Whether `wanted`, in order, are among `seen` (each a later or the same state than the one before). */
export function inOrder<T>(wanted: readonly T[], seen: readonly T[]): {ok: boolean; missing?: T} {
  let at = 0
  for (const w of wanted) {
    const found = seen.findIndex((s, i) => i >= at && JSON.stringify(s) === JSON.stringify(w))
    if (found < 0) return {ok: false, missing: w}
    at = found
  }
  return {ok: true}
}
