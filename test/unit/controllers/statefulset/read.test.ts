// StatefulSets, Nodes, ControllerRevisions and claims read from files: defaulted as
// the API server stores them, and refused where it would refuse them, at the field.
import {describe, expect, it} from 'vitest'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import {fixtureFiles, readError} from '../../../helpers/fixture-files.js'

const {file: fixture} = fixtureFiles('read-statefulset')
const errorLine = (file: string) => readError([file])

const TEMPLATE = `
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec: {containers: [{name: c, image: i}]}`

describe('defaulting', () => {
  it('StatefulSet: replicas 1, OrderedReady, RollingUpdate with partition 0, history 10, start 0, Retain/Retain', async () => {
    const snap = await readFixtures({paths: [fixture('sts.yaml', `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:${TEMPLATE}\n`)]})
    expect(snap.statefulSets?.[0]).toMatchObject({
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 0}},
      revisionHistoryLimit: 10,
      ordinalsStart: 0,
      volumeClaimTemplates: [],
      retention: {whenDeleted: 'Retain', whenScaled: 'Retain'},
      serviceName: '',
    })
  })
  it('StatefulSet: `type: RollingUpdate` written without rollingUpdate stays without it (S4.4)', async () => {
    const snap = await readFixtures({paths: [fixture('sts-ru.yaml', `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:${TEMPLATE}\n  updateStrategy: {type: RollingUpdate}\n`)]})
    expect(snap.statefulSets?.[0].updateStrategy).toEqual({type: 'RollingUpdate'})
  })
  it('Node: cluster-scoped, with its taints; ControllerRevision with its number and data; a claim', async () => {
    const snap = await readFixtures({
      paths: [
        fixture(
          'others.yaml',
          `apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {zone: a}}\nspec: {unschedulable: true, taints: [{key: k, value: v, effect: NoExecute}]}\n---\n` +
            `apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r, namespace: ns}\nrevision: 3\ndata: {spec: {template: {metadata: {labels: {app: x}}}}}\n---\n` +
            `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data-s-0, namespace: ns}\n`,
        ),
      ],
      allNamespaces: true,
    })
    expect(snap.nodes?.[0]).toMatchObject({name: 'n1', namespace: '', labels: {zone: 'a'}, unschedulable: true, taints: [{key: 'k', value: 'v', effect: 'NoExecute'}]})
    expect(snap.controllerRevisions?.[0]).toMatchObject({name: 'r', namespace: 'ns', revision: 3, data: {spec: {template: {metadata: {labels: {app: 'x'}}}}}})
    expect(snap.claims?.map((c) => c.name)).toEqual(['data-s-0'])
    expect(snap.ignored).toEqual({})
  })
  it('a pod: the node its DaemonSet affinity names, and its claim volumes', async () => {
    const snap = await readFixtures({
      paths: [
        fixture(
          'pod.yaml',
          `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n7]}]}]}}}\n  volumes: [{name: data, persistentVolumeClaim: {claimName: data-s-0}}, {name: tmp, emptyDir: {}}]\n  containers: [{name: c, image: i}]\n`,
        ),
      ],
    })
    expect(snap.pods[0]).toMatchObject({affinityNode: 'n7', claimVolumes: {data: 'data-s-0'}})
  })
})

describe('refused as the API server refuses them, at the field', () => {
  it.each([
    ['sts-policy.yaml', `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:${TEMPLATE}\n  podManagementPolicy: Sometimes\n`, /sts-policy\.yaml:9:\d+: spec\.podManagementPolicy: unsupported value "Sometimes"/],
    ['sts-retain.yaml', `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:${TEMPLATE}\n  persistentVolumeClaimRetentionPolicy: {whenScaled: Keep}\n`, /spec\.persistentVolumeClaimRetentionPolicy\.whenScaled: unsupported value "Keep"/],
    ['node-taint.yaml', `apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {taints: [{key: k, effect: Sometimes}]}\n`, /spec\.taints\[0\]\.effect: unsupported value "Sometimes"/],
  ])('%s', async (name, text, line) => {
    expect(await errorLine(fixture(name, text))).toMatch(line)
  })
})
