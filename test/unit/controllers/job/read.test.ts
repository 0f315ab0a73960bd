// Jobs and their pods read from files: defaulted as SetDefaults_Job and the Job strategy do, and
// refused at the field where the API server would refuse them.
import {describe, expect, it} from 'vitest'
import {podBatchFields} from '../../../../src/controllers/job/read.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import {fixtureFiles, readError} from '../../../helpers/fixture-files.js'

const {yaml: fixture} = fixtureFiles('read-job')
const errorLine = (text: string) => readError([fixture(text)])

const JOB = (spec: string) => `apiVersion: batch/v1
kind: Job
metadata: {name: j, uid: u1}
spec:
${spec}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox}]
`

describe('Jobs read from files', () => {
  it('J16.1 defaults: completions and parallelism 1, backoffLimit 6, NonIndexed, TerminatingOrFailed', async () => {
    const snapshot = await readFixtures({paths: [fixture(JOB('  suspend: false'))]})
    expect(snapshot.jobs?.[0]).toMatchObject({parallelism: 1, completions: 1, backoffLimit: 6, completionMode: 'NonIndexed', podReplacementPolicy: 'TerminatingOrFailed', suspend: false})
  })
  it('J16.1 parallelism alone leaves completions nil; backoffLimitPerIndex makes backoffLimit MaxInt32; a podFailurePolicy makes the policy Failed', async () => {
    const snapshot = await readFixtures({
      paths: [fixture(JOB('  parallelism: 3\n  completionMode: Indexed\n  completions: 4\n  backoffLimitPerIndex: 1\n  podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}'))],
    })
    expect(snapshot.jobs?.[0]).toMatchObject({parallelism: 3, completions: 4, backoffLimit: 2147483647, podReplacementPolicy: 'Failed'})
    expect(snapshot.jobs?.[0].podFailurePolicy?.[0].onPodConditions).toEqual([{type: 'DisruptionTarget', status: 'True'}])
    const s2 = await readFixtures({paths: [fixture(JOB('  parallelism: 3'))]})
    expect(s2.jobs?.[0].completions).toBeUndefined()
  })
  it('J16.2 without a selector, the generated one and the four template labels', async () => {
    const snapshot = await readFixtures({paths: [fixture(JOB('  parallelism: 1'))]})
    const j = snapshot.jobs![0]
    expect(j.selector).toEqual({matchLabels: {'batch.kubernetes.io/controller-uid': 'u1'}})
    expect(j.template.labels).toEqual({'batch.kubernetes.io/controller-uid': 'u1', 'batch.kubernetes.io/job-name': 'j', 'controller-uid': 'u1', 'job-name': 'j'})
  })
  it('refuses at the field: restartPolicy Always, an unknown action, podReplacementPolicy with a podFailurePolicy', async () => {
    expect(await errorLine(JOB('  parallelism: 1').replace('restartPolicy: Never', 'restartPolicy: Always'))).toMatch(/:8:22: spec.template.spec.restartPolicy: a Job's pods need restartPolicy Never or OnFailure/)
    expect(await errorLine(JOB('  podFailurePolicy: {rules: [{action: Explode, onExitCodes: {operator: In, values: [1]}}]}'))).toMatch(/unsupported value "Explode"/)
    expect(await errorLine(JOB('  podReplacementPolicy: TerminatingOrFailed\n  podFailurePolicy: {rules: [{action: Count, onExitCodes: {operator: In, values: [1]}}]}'))).toMatch(/podReplacementPolicy.*must be `Failed`/)
    expect(await errorLine(JOB('  completionMode: Indexed\n  parallelism: 2'))).toMatch(/completions.*required when completionMode is `Indexed`/)
  })
})

describe("a pod's Job fields (podBatchFields)", () => {
  const meta = (finalizers?: unknown) => (finalizers === undefined ? {} : {finalizers})
  it('finalizers: the strings of the list; none and the tracking finalizer alone are shared, frozen lists', () => {
    const tracking = podBatchFields(meta(['batch.kubernetes.io/job-tracking']), {}, {})
    expect(tracking.finalizers).toEqual(['batch.kubernetes.io/job-tracking'])
    expect(podBatchFields(meta(['batch.kubernetes.io/job-tracking']), {}, {}).finalizers).toBe(tracking.finalizers)
    expect(Object.isFrozen(tracking.finalizers)).toBe(true)
    expect(podBatchFields(meta(['a', 3, 'batch.kubernetes.io/job-tracking']), {}, {}).finalizers).toEqual(['a', 'batch.kubernetes.io/job-tracking'])
    expect(podBatchFields(meta([7]), {}, {}).finalizers).toEqual([])
    expect(podBatchFields(meta(), {}, {})).toEqual({finalizers: [], conditions: [], terminated: [], allTerminated: false, totalRestarts: 0})
  })
  it('conditions and terminated containers (sidecars among the init containers), restarts summed', () => {
    const f = podBatchFields(
      {deletionGracePeriodSeconds: 30},
      {initContainers: [{name: 'side', restartPolicy: 'Always'}, {name: 'init'}]},
      {
        conditions: [{type: 'Ready', status: 'False', lastTransitionTime: '2026-11-22T09:00:00Z'}, 'junk', {type: 'DisruptionTarget'}],
        containerStatuses: [{name: 'main', restartCount: 2, state: {terminated: {exitCode: 3, finishedAt: '2026-11-22T09:01:00Z'}}}],
        initContainerStatuses: [{name: 'init', restartCount: 1, state: {terminated: {exitCode: 0}}}, {name: 'side', state: {running: {}}}],
      },
    )
    expect(f).toEqual({
      finalizers: [],
      conditions: [{type: 'Ready', status: 'False', lastTransitionTime: '2026-11-22T09:00:00Z'}, {type: 'DisruptionTarget', status: ''}],
      terminated: [{name: 'main', exitCode: 3, init: false, finishedAt: '2026-11-22T09:01:00Z'}, {name: 'init', exitCode: 0, init: true}],
      allTerminated: false,
      totalRestarts: 3,
      deletionGracePeriodSeconds: 30,
    })
  })
  it('conditions: a transition time only on the first Ready condition when False; running pods alike share their fields, frozen', () => {
    const running = (since: string) => ({phase: 'Running', conditions: [{type: 'Initialized', status: 'True', lastTransitionTime: since}, {type: 'Ready', status: 'True', lastTransitionTime: since}], containerStatuses: [{name: 'main', restartCount: 0, state: {running: {}}}]})
    const tracking = meta(['batch.kubernetes.io/job-tracking'])
    const a = podBatchFields(tracking, {}, running('2026-11-22T09:00:00Z'))
    expect(a).toEqual({finalizers: ['batch.kubernetes.io/job-tracking'], conditions: [{type: 'Initialized', status: 'True'}, {type: 'Ready', status: 'True'}], terminated: [], allTerminated: false, totalRestarts: 0})
    expect(podBatchFields(tracking, {}, running('2026-11-22T09:30:00Z'))).toBe(a)
    expect(Object.isFrozen(a) && Object.isFrozen(a.conditions) && Object.isFrozen(a.conditions[0])).toBe(true)
    // Other finalizers, a restart, a grace period or another list of conditions: fields of their own.
    expect(podBatchFields(meta(), {}, running('2026-11-22T09:00:00Z'))).not.toBe(a)
    expect(podBatchFields(meta(['x']), {}, running('2026-11-22T09:00:00Z'))).toEqual({...a, finalizers: ['x']})
    const restarted = podBatchFields(tracking, {}, {...running('t'), containerStatuses: [{name: 'main', restartCount: 1, state: {running: {}}}]})
    expect(restarted).toEqual({...a, totalRestarts: 1})
    expect(podBatchFields({...tracking, deletionGracePeriodSeconds: 30}, {}, running('t'))).toEqual({...a, deletionGracePeriodSeconds: 30})
    expect(podBatchFields(tracking, {}, {conditions: [{type: 'Ready', status: 'True'}]}).conditions).toEqual([{type: 'Ready', status: 'True'}])
    // Only the first Ready condition's time, when False: what getFinishedTime reads.
    const notReady = podBatchFields(tracking, {}, {conditions: [{type: 'Ready', status: 'False', lastTransitionTime: '2026-11-22T09:00:00Z'}, {type: 'Ready', status: 'False', lastTransitionTime: '2026-11-22T09:05:00Z'}, {type: 'DisruptionTarget', status: 'True', lastTransitionTime: 'x'}]})
    expect(notReady.conditions).toEqual([{type: 'Ready', status: 'False', lastTransitionTime: '2026-11-22T09:00:00Z'}, {type: 'Ready', status: 'False'}, {type: 'DisruptionTarget', status: 'True'}])
    // Read right after a list of the same types and statuses: a time to keep, a longer or shorter list, are told apart.
    expect(podBatchFields(tracking, {}, {conditions: [{type: 'Ready', status: 'False'}]}).conditions).toEqual([{type: 'Ready', status: 'False'}])
    expect(podBatchFields(tracking, {}, {conditions: [{type: 'Ready', status: 'False', lastTransitionTime: 'T'}]}).conditions).toEqual([{type: 'Ready', status: 'False', lastTransitionTime: 'T'}])
    expect(podBatchFields(tracking, {}, {conditions: [{type: 'Ready', status: 'True'}, {type: 'X', status: 'True'}]}).conditions).toEqual([{type: 'Ready', status: 'True'}, {type: 'X', status: 'True'}])
    expect(podBatchFields(tracking, {}, {conditions: [{type: 'Ready', status: 'True'}]}).conditions).toEqual([{type: 'Ready', status: 'True'}])
    expect(podBatchFields(tracking, {}, {conditions: ['junk']}).conditions).toEqual([])
    // Types and statuses are told apart whatever they hold.
    const ab = podBatchFields(tracking, {}, {conditions: [{type: 'a1:b', status: ''}]})
    const a1 = podBatchFields(tracking, {}, {conditions: [{type: 'a', status: '1:b'}]})
    expect(ab.conditions).toEqual([{type: 'a1:b', status: ''}])
    expect(a1.conditions).toEqual([{type: 'a', status: '1:b'}])
  })
})
