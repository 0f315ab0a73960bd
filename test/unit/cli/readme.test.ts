// The plan JSON example of docs/plan.md is the program's real output, key for key: its keys are
// compared, in order, with `kctl plan -f examples/tie -o json` at every level the example spells out.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {kctl, NOW, ROOT} from './run-cli.js'

function readmeExample(): any {
  const readme = readFileSync(join(ROOT, 'docs', 'plan.md'), 'utf8')
  const block = /```jsonc\n([\s\S]*?)```/.exec(readme)![1]
  return JSON.parse(block.replace(/\/\/.*$/gm, ''))
}

describe('docs/plan.md', () => {
  it('shows the plan JSON with the keys kctl prints, in its order', () => {
    const example = readmeExample()
    const real = JSON.parse(kctl(['plan', '-f', 'examples/tie', '--now', NOW, '-o', 'json']).stdout)
    expect(Object.keys(example)).toEqual(Object.keys(real))
    const [c] = example.controllers
    const rc = real.controllers.find((x: {name: string}) => x.name === c.name)
    expect(Object.keys(c)).toEqual(Object.keys(rc))
    expect(Object.keys(c.status)).toEqual(Object.keys(rc.status))
    const del = c.actions.find((a: {type: string}) => a.type === 'delete')
    const realDel = rc.actions.find((a: {pod: string}) => a.pod === del.pod)
    expect(Object.keys(del)).toEqual(Object.keys(realDel))
    expect(del).toEqual(realDel)
    expect(Object.keys(example.summary)).toEqual(Object.keys(real.summary))
  })
})
