// DaemonSets read from files: defaulted as SetDefaults_DaemonSet does, and refused where the API
// server would refuse them, at the field.
import {describe, expect, it} from 'vitest'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import {fixtureFiles, readError} from '../../../helpers/fixture-files.js'

const {file: fixture} = fixtureFiles('read-daemonset')
const errorLine = (file: string) => readError([file])

const TEMPLATE = `
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec: {containers: [{name: c, image: i}]}`

describe('defaulting', () => {
  it('DaemonSet: RollingUpdate with maxUnavailable 1 and maxSurge 0, history 10', async () => {
    const snap = await readFixtures({paths: [fixture('ds.yaml', `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec:${TEMPLATE}\n`)]})
    expect(snap.daemonSets?.[0]).toMatchObject({updateStrategy: {type: 'RollingUpdate', maxUnavailable: 1, maxSurge: 0}, revisionHistoryLimit: 10})
  })
})

describe('refused as the API server refuses them, at the field', () => {
  it.each([
    ['ds-zero.yaml', `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec:${TEMPLATE}\n  updateStrategy: {rollingUpdate: {maxUnavailable: 0}}\n`, /ds-zero\.yaml:9:\d+: spec\.updateStrategy\.rollingUpdate\.maxUnavailable: may not be 0 when `maxSurge` is 0/],
    ['ds-nosel.yaml', `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec:\n  template: {metadata: {labels: {app: x}}}\n`, /spec\.selector: a selector is required \(the API server rejects an apps\/v1 DaemonSet without spec\.selector\)/],
  ])('%s', async (name, text, line) => {
    expect(await errorLine(fixture(name, text))).toMatch(line)
  })
})
