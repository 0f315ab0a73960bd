// immutable-claim-templates-change (src/controllers/statefulset/rules.ts).
import {describe, expect, it} from 'vitest'

import {at, check, ofRule} from '../../check/helpers.js'

const CLAIMS = 'test/fixtures/check/claim-templates'

describe('immutable-claim-templates-change', () => {
  it('a template that changes against the previous render is an error at spec.volumeClaimTemplates', async () => {
    const r = await check([`${CLAIMS}/current-bad`], {against: `${CLAIMS}/previous`})
    const [f] = ofRule(r, 'immutable-claim-templates-change')
    expect(`${at(f)} ${f.severity} ${f.field}`).toBe('immutable-claim-templates-change@16:3 error spec.volumeClaimTemplates')
    expect(f.message).toMatch(/^spec\.volumeClaimTemplates differ from the previous render \(.*db\.yaml\) \(template data changes\): they cannot be changed/)
    expect(f.related?.[0]).toMatchObject({line: 16})
  })

  it('the same templates as stored (defaults filled in, 1024Mi for 1Gi) are no change', async () => {
    const r = await check([`${CLAIMS}/current-good`], {against: `${CLAIMS}/previous`})
    expect(ofRule(r, 'immutable-claim-templates-change')).toEqual([])
  })

  it('without a previous version there is nothing to compare with', async () => {
    expect(ofRule(await check([`${CLAIMS}/current-bad`]), 'immutable-claim-templates-change')).toEqual([])
  })
})
