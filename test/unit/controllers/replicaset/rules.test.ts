// rc-selector-defaulted (src/controllers/replicaset/rules.ts).
// One positive and one negative fixture per rule (test/fixtures/check/rules/<rule>/), with every
// finding's position asserted exactly: line AND column of the field, not of the document.
import {describe, expect, it} from 'vitest'

import {at, check, ofRule, RULES_FX} from '../../check/helpers.js'

const fx = (rule: string, file: string) => `${RULES_FX}/${rule}/${file}`

describe('rc-selector-defaulted', () => {
  it('says what the API server defaults the selector to', async () => {
    const r = await check([fx('rc-selector-defaulted', 'bad.yaml')])
    const found = ofRule(r, 'rc-selector-defaulted')
    expect(found.map(at)).toEqual(['rc-selector-defaulted@10:7', 'rc-selector-defaulted@23:3'])
    expect(found[0]).toMatchObject({severity: 'info', field: 'spec.template.metadata.labels'})
    expect(found[0].message).toContain('app=frontend,tier=web (and the RC\'s own labels too)')
    expect(found[1].message).toMatch(/^spec\.selector is empty: .*app=backend, so/)
  })

  it('is quiet when the selector is written out', async () => {
    expect((await check([fx('rc-selector-defaulted', 'good.yaml')])).findings).toEqual([])
  })
})
