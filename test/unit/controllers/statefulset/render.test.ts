// The table lines of StatefulSet plans that the examples' goldens do not show: what an
// OrderedReady sync waits on.
import {describe, expect, it} from 'vitest'
import {fixtureFiles, planTable} from '../../../helpers/fixture-files.js'

const {file} = fixtureFiles('wl-table')
const table = (name: string, yaml: string) => planTable([file(name, yaml)])

const TEMPLATE = (app: string, spec = '') => `
  selector: {matchLabels: {app: ${app}}}
  template:
    metadata: {labels: {app: ${app}}}
    spec: {containers: [{name: c, image: i}]${spec}}`

describe('StatefulSet tables', () => {
  it('an OrderedReady StatefulSet says which pod it waits on', async () => {
    const text = await table(
      'sts.yaml',
      `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: web, uid: u1}\nspec:\n  replicas: 2${TEMPLATE('web')}\n---\n` +
        `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-0\n  labels: {app: web, statefulset.kubernetes.io/pod-name: web-0}\n  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: u1, controller: true}]\nstatus: {phase: Pending}\n`,
    )
    expect(text).toContain('  … then waits: web-0 is not Running and Ready')
    expect(text).not.toContain('create pod web-1')
  })
})
