// The horizontal pod autoscaler controller (kube-controller-manager's `horizontalpodautoscaling`,
// pkg/controller/podautoscaler). Planned only: `kctl reconcile` does not carry out its writes yet,
// and it has no watch or simulation part.
import type {ControllerDescriptor} from '../descriptor.js'
import {readLiveMetrics} from './live.js'
import {planHpas} from './planner.js'
import {HPA_READS, readHpaPodFields} from './read.js'
import {listTable, planBlock} from './render.js'
import {hpaChecks} from './rules.js'
import {hpaSimulation} from './simulate.js'

export const hpa: ControllerDescriptor = {
  name: 'horizontalpodautoscaling',
  kinds: ['HorizontalPodAutoscaler'],
  planOnly: true,
  read: {
    kinds: HPA_READS,
    podFields: readHpaPodFields,
    live: readLiveMetrics,
  },
  plan: planHpas,
  simulate: hpaSimulation,
  render: {
    planBlock,
    listTable,
  },
  check: hpaChecks,
}
