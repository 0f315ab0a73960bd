// pod-failure-policy-unmatchable (src/controllers/job/rules.ts): what the Job controller would
// silently never do. The CronJob's rules: ../cronjob/rules.test.ts.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
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

describe('pod-failure-policy-unmatchable: onExitCodes In', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-job-rules-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))
  const findings = async (values: number[]) => {
    const path = join(dir, `v${values.join('-')}.yaml`)
    writeFileSync(path, `apiVersion: batch/v1
kind: Job
metadata: {name: codes, namespace: default}
spec:
  podFailurePolicy:
    rules:
      - action: Ignore
        onExitCodes: {operator: In, values: [${values.join(', ')}]}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox:1}]
`)
    return (await check([path])).findings.filter((f) => f.rule === 'pod-failure-policy-unmatchable').map((f) => f.field)
  }
  it('only 0 never matches; 0 beside other codes still matches those', async () => {
    expect(await findings([0])).toEqual(['spec.podFailurePolicy.rules[0].onExitCodes.values'])
    expect(await findings([0, 3])).toEqual([])
  })
})
