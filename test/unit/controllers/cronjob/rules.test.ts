// cronjob-schedule, cronjob-time-zone, cronjob-forbid-overlap (src/controllers/cronjob/rules.ts):
// what the CronJob controller would silently never do. The Job's own rule: ../job/rules.test.ts.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {at, check, RULES_FX} from '../../check/helpers.js'

const fx = (file: string) => `${RULES_FX}/batch/${file}`
const RULES = new Set(['cronjob-schedule', 'cronjob-time-zone', 'cronjob-forbid-overlap', 'pod-failure-policy-unmatchable'])

describe('cronjob rules', () => {
  it('point at the schedule, the zone and the deadline', async () => {
    const r = await check([fx('bad.yaml')])
    expect(r.findings.filter((f) => RULES.has(f.rule) && f.kind === 'CronJob').map((f) => `${at(f)} ${f.kind}/${f.name} ${f.field}`)).toEqual([
      'cronjob-schedule@5:13 CronJob/typo spec.schedule',
      'cronjob-schedule@17:13 CronJob/never spec.schedule',
      'cronjob-time-zone@31:13 CronJob/zone spec.timeZone',
      'cronjob-forbid-overlap@47:30 CronJob/overlap spec.jobTemplate.spec.activeDeadlineSeconds',
    ])
    expect(r.findings.find((f) => f.rule === 'cronjob-forbid-overlap')?.message).toMatch(/900 s, longer than the 600 s between runs/)
  })
  it('leave good ones alone', async () => {
    expect((await check([fx('good.yaml')])).findings.filter((f) => RULES.has(f.rule) && f.kind === 'CronJob')).toEqual([])
  })
})

describe('cronjob-forbid-overlap at its edge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kctl-cronjob-rules-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))
  const file = (deadline: number) => {
    const path = join(dir, `d${deadline}.yaml`)
    writeFileSync(path, `apiVersion: batch/v1
kind: CronJob
metadata: {name: edge, namespace: default}
spec:
  schedule: "*/10 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      activeDeadlineSeconds: ${deadline}
      template:
        spec:
          restartPolicy: Never
          containers: [{name: main, image: busybox:1}]
`)
    return path
  }
  const overlaps = async (deadline: number) => (await check([file(deadline)])).findings.filter((f) => f.rule === 'cronjob-forbid-overlap').length
  it('a Job that may run exactly the 600 s between runs does not overlap the next; 601 s does', async () => {
    expect(await overlaps(600)).toBe(0)
    expect(await overlaps(601)).toBe(1)
  })
})
