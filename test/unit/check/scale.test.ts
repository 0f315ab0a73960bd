// Many objects sharing labels: the report stays one finding per object, and the work no longer
// grows with the number of pairs (500 Deployments with one selector once ended in a stack overflow).
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {check, ofRule} from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-check-scale-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

const deployment = (name: string, selector: string, labels = selector) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  selector: {matchLabels: {${selector}}}
  template:
    metadata: {labels: {${labels}}}
    spec: {containers: [{name: c, image: nginx:1.27}]}
`

function write(name: string, docs: string[]): string {
  const file = join(tmp, name)
  writeFileSync(file, docs.join(''))
  return file
}

describe('overlapping-selectors on many objects with one selector', () => {
  it('reports each later controller once, naming the first, however many share the selector', async () => {
    const n = 600
    const docs = Array.from({length: n}, (_, i) => deployment(`web-${i}`, 'app: web'))
    const found = ofRule(await check([write('same.yaml', docs)]), 'overlapping-selectors')
    expect(found).toHaveLength(n - 1)
    expect(found.map((f) => f.name)).toEqual(Array.from({length: n - 1}, (_, i) => `web-${i + 1}`))
    expect(found[0].message).toContain('selector is the same as the selector of Deployment default/web-0')
    expect(found[0].message).toContain(`${n} controllers in this namespace have this selector`)
    expect(found.every((f) => f.related?.[0]?.name === 'web-0')).toBe(true)
  })

  it('reports two controllers that share a selector, as it does many', async () => {
    const found = ofRule(await check([write('pair.yaml', [deployment('web', 'app: web'), deployment('web-2', 'app: web')])]), 'overlapping-selectors')
    expect(found.map((f) => `${f.name}: ${f.message.slice(0, f.message.indexOf(';'))}`)).toEqual(['web-2: selector is the same as the selector of Deployment default/web'])
  })

  it('pairs different selectors once, through the first of each group', async () => {
    // 300 with app=web, 300 with app=web,track=canary: one pair between the groups, plus the
    // same-selector findings inside each group.
    const docs = [
      ...Array.from({length: 300}, (_, i) => deployment(`stable-${i}`, 'app: web')),
      ...Array.from({length: 300}, (_, i) => deployment(`canary-${i}`, 'app: web, track: canary')),
    ]
    const found = ofRule(await check([write('two.yaml', docs)]), 'overlapping-selectors')
    const pairs = found.filter((f) => f.message.startsWith('selector overlaps'))
    expect(pairs).toHaveLength(1)
    expect(pairs[0].message).toContain('(and 299 more with the same selector)')
    expect(found).toHaveLength(299 + 299 + 1)
  })

  it('ignores copies of one object (duplicate-object says so)', async () => {
    const docs = Array.from({length: 400}, () => deployment('web', 'app: web'))
    const found = ofRule(await check([write('copies.yaml', docs)]), 'overlapping-selectors')
    expect(found).toEqual([])
  })
})

describe('overlapping-selectors on a selector that constrains one key twice', () => {
  it('pairs it with the others, never with itself (even unnamed: generateName)', async () => {
    const twice = `---
apiVersion: apps/v1
kind: Deployment
metadata: {generateName: web-}
spec:
  selector:
    matchLabels: {app: web}
    matchExpressions: [{key: app, operator: NotIn, values: [api]}]
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx:1.27}]}
`
    const found = ofRule(await check([write('twice.yaml', [twice, deployment('canary', 'app: web, track: canary')])]), 'overlapping-selectors')
    expect(found.map((f) => f.message.slice(0, f.message.indexOf(':')))).toEqual(['selector overlaps the selector of Deployment default/(unnamed)'])
  })
})

describe('-o markdown on a large repository', () => {
  it('stays under a pull-request comment\'s limit: the most severe first, then a count of the rest', async () => {
    const {renderCheckMarkdown, MARKDOWN_LIMIT} = await import('../../../src/render/check-markdown.js')
    const {listRules} = await import('../../../src/services/check.js')
    // 2,000 Deployments sharing one selector (warnings) and 50 with an empty selector (errors).
    const docs = [
      ...Array.from({length: 2000}, (_, i) => deployment(`web-${i}`, 'app: web')),
      ...Array.from({length: 50}, (_, i) => deployment(`broken-${i}`, '', 'app: x')),
    ]
    const report = await check([write('big.yaml', docs)])
    const md = renderCheckMarkdown(report, listRules({cwd: tmp}))
    expect(md.length).toBeLessThan(MARKDOWN_LIMIT)
    const rows = md.split('\n').filter((l) => l.startsWith('| 🔴') || l.startsWith('| 🟡'))
    const errors = report.findings.filter((f) => f.severity === 'error').length
    expect(errors).toBeGreaterThan(0)
    // Every error is shown before any warning.
    expect(rows.slice(0, errors).every((l) => l.startsWith('| 🔴'))).toBe(true)
    const rest = report.findings.length - rows.length
    expect(rest).toBeGreaterThan(0)
    expect(md).toContain(`…and ${rest} more findings (${rest} warning) not shown here`)
  })
})
