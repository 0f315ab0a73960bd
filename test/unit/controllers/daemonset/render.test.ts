// The table lines of DaemonSet plans that the examples' goldens do not show: long lists of
// nodes folded.
import {describe, expect, it} from 'vitest'
import {fixtureFiles, planTable} from '../../../helpers/fixture-files.js'

const {file} = fixtureFiles('ds-table')
const table = (name: string, yaml: string) => planTable([file(name, yaml)])

const TEMPLATE = (app: string, spec = '') => `
  selector: {matchLabels: {app: ${app}}}
  template:
    metadata: {labels: {app: ${app}}}
    spec: {containers: [{name: c, image: i}]${spec}}`

describe('DaemonSet tables', () => {
  it('a DaemonSet over many nodes lists ten it leaves out, then counts the rest', async () => {
    const nodes = Array.from({length: 12}, (_, i) => `apiVersion: v1\nkind: Node\nmetadata: {name: node-${String(i).padStart(2, '0')}, labels: {pool: b}}\n`).join('---\n')
    const text = await table('ds.yaml', `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:${TEMPLATE('agent', ', nodeSelector: {pool: a}')}\n---\n${nodes}`)
    expect(text.split('\n').filter((l) => l.startsWith('  · node '))).toHaveLength(10)
    expect(text).toContain('  · and 2 more nodes without the daemon pod (see nodes[] in -o json)')
  })
})
