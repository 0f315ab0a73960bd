// Views built from metadata share one hidden class, whatever hidden classes the metadata objects
// came in: a planner reading a field of a thousand Nodes then reads it at a known place instead
// of looking it up by name in each. Told by V8 itself (%HaveSameMap), in a child process that
// may use its native syntax.
import {execFileSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'

import {describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))

const probe = `
const {viewOf} = await import('./src/sources/part.ts')
const {readNode} = await import('./src/sources/shared.ts')
const {Ctx} = await import('./src/sources/context.ts')
// Metadata in three hidden classes, as objects read from different places come.
const metas = Array.from({length: 300}, (_, i) => {
  const m = {namespace: 'ns', name: 'n' + i, uid: 'u' + i, resourceVersion: '', generation: 1, labels: {}, annotations: {}, ownerReferences: []}
  if (i % 3 === 1) m.creationTimestamp = '2026-11-20T00:00:00Z'
  if (i % 3 === 2) m.deletionTimestamp = '2026-11-20T00:00:00Z'
  return m
})
const distinct = (xs) => xs.reduce((reps, x) => (reps.some((r) => %HaveSameMap(r, x)) ? reps : [...reps, x]), []).length
const raw = {spec: {taints: []}}
const ctx = new Ctx({raw, locator: {format: 'json'}}, [], 'Node')
const spread = metas.map((m) => ({...m, namespace: '', unschedulable: false}))
console.log(JSON.stringify({views: distinct(metas.map((m) => viewOf(m, {revision: 1}))), nodes: distinct(metas.map((m) => readNode(ctx, m, raw))), spread: distinct(spread)}))
`

describe('views made from metadata', () => {
  it('share one hidden class where a spread of the metadata gives nearly every copy its own', () => {
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', probe], {cwd: root, encoding: 'utf8'})
    const counts = JSON.parse(out.trim().split('\n').pop()!) as {views: number; nodes: number; spread: number}
    expect(counts.views).toBe(1)
    expect(counts.nodes).toBe(1)
    // What the views avoid: without it the probe would not tell anything.
    expect(counts.spread).toBeGreaterThan(100)
  })
})
