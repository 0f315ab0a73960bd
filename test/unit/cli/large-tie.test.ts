// One ReplicaSet scaled from 2,500 identical pods to 1,500, through the built CLI: the tie is
// reported whole (all 2,500 pods) once, in the plan's `ties`, each delete pointing at it by
// `tieGroup`, so the plan stays near the input's size; the table words it once.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {largeTieYaml} from '../../helpers/large-tie.js'
import {kctl, NOW} from './run-cli.js'

const dir = mkdtempSync(join(tmpdir(), 'kctl-large-tie-'))
const input = largeTieYaml(2500, 1500)
writeFileSync(join(dir, 'big.yaml'), input)
afterAll(() => rmSync(dir, {recursive: true, force: true}))

describe('a tie of 2,500 pods', () => {
  it('-o json lists the tie once with every pod, each delete points at it, and the plan stays within twice the input', () => {
    const run = kctl(['plan', '-f', dir, '-o', 'json', '--now', NOW])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const [big] = JSON.parse(run.stdout).controllers
    expect(big.ties).toHaveLength(1)
    expect(big.ties[0].id).toBe(1)
    expect(big.ties[0].pods).toHaveLength(2500)
    expect(big.ties[0].delete).toBe(500)
    const deletes = big.actions.filter((a: {type: string}) => a.type === 'delete')
    expect(deletes).toHaveLength(500)
    for (const d of deletes) {
      expect(d.tieGroup).toBe(1)
      expect(d).not.toHaveProperty('tie') // the tie's 2,500 names are listed once, in ties[]
      expect(d.reasons[1]).toMatch(/^upstream's order does not decide between the 2500 pods of tie 1 \(big-\d+, big-\d+, big-\d+ and 2497 more; .*\): the controller may delete any 500 of them$/)
    }
    // Each delete's facts and reasons remain; what grew with the tie's size times its deletes is gone.
    expect(run.stdout.length).toBeLessThan(2 * input.length)
  })

  it('-o table words the tie once, after the last of its deletes', () => {
    const run = kctl(['plan', '-f', dir, '-o', 'table', '--now', NOW])
    expect(run.status).toBe(0)
    const lines = run.stdout.split('\n')
    expect(lines.filter((l) => l.includes('- delete pod'))).toHaveLength(500)
    expect(lines.filter((l) => l.includes('because: a tie, see below'))).toHaveLength(500)
    const tieLines = lines.filter((l) => l.includes("upstream's order does not decide"))
    expect(tieLines).toHaveLength(1)
    expect(lines.indexOf(tieLines[0])).toBe(lines.findLastIndex((l) => l.includes('- delete pod')) + 1)
    expect(tieLines[0]).toContain('the 2500 pods of tie 1')
  })
})
