// pod-failure-policy-unmatchable (src/controllers/job/rules.ts): what the Job controller would
// silently never do. The CronJob's rules: ../cronjob/rules.test.ts.
import {describe, expect, it} from 'vitest'
import {at, check, RULES_FX} from '../../check/helpers.js'

const fx = (file: string) => `${RULES_FX}/batch/${file}`
const RULES = new Set(['cronjob-schedule', 'cronjob-time-zone', 'cronjob-forbid-overlap', 'pod-failure-policy-unmatchable'])

describe('job rules', () => {
  it('point at the policy rule', async () => {
    const r = await check([fx('bad.yaml')])
    expect(r.findings.filter((f) => RULES.has(f.rule) && f.kind !== 'CronJob').map((f) => `${at(f)} ${f.kind}/${f.name} ${f.field}`)).toEqual([
      'pod-failure-policy-unmatchable@60:45 Job/pfp spec.podFailurePolicy.rules[0].onExitCodes.values',
      'pod-failure-policy-unmatchable@62:38 Job/pfp spec.podFailurePolicy.rules[1].onExitCodes.containerName',
    ])
  })
  it('leave good ones alone', async () => {
    expect((await check([fx('good.yaml')])).findings.filter((f) => RULES.has(f.rule) && f.kind !== 'CronJob')).toEqual([])
  })
})
