// The horizontal pod autoscaler controller (kube-controller-manager's `horizontalpodautoscaling`,
// pkg/controller/podautoscaler): planned, carried out by `kctl reconcile` (the scale write through
// the target's scale subresource, then the status write), kept up to date by `kctl watch`, and run
// in virtual time by `kctl simulate --load` with the history a running controller keeps.
import type {ControllerDescriptor} from '../descriptor.js'
import {HPA_RESOURCES, hpaAction, hpaResizes, HpaSync} from './apply.js'
import {readLiveMetrics} from './live.js'
import {planHpas} from './planner.js'
import {HPA_READS, readHpaPodFields} from './read.js'
import {applyLines, listTable, planBlock} from './render.js'
import {hpaChecks} from './rules.js'
import {hpaWatch} from './watch.js'
import {hpaSimulation} from './simulate.js'

export const hpa: ControllerDescriptor = {
  name: 'horizontalpodautoscaling',
  kinds: ['HorizontalPodAutoscaler'],
  read: {
    kinds: HPA_READS,
    podFields: readHpaPodFields,
    live: readLiveMetrics,
  },
  plan: planHpas,
  simulate: hpaSimulation,
  render: {
    planBlock,
    applyLines,
    listTable,
  },
  apply: {
    resources: HPA_RESOURCES,
    // After every other controller's syncs: a target whose own sync wrote it this round has a new
    // resourceVersion, so the scale write planned against the old one waits for the next round.
    phase: 3,
    sync: (run, cp, _opts, overtaken) => {
      const write = cp.actions.find((a) => a.type === 'scaleTarget')
      return new HpaSync(run, cp, write?.type === 'scaleTarget' && overtaken(write.target.kind, cp.namespace, write.target.name))
    },
    parseAction: hpaAction,
    guard: {resizes: hpaResizes},
    // The status write also writes the conditions annotation of an autoscaling/v1 fixture.
    statusWritesAnnotations: true,
  },
  watch: hpaWatch,
  check: hpaChecks,
}
