// CronJobs read from files: defaulted as SetDefaults_CronJob does, the jobTemplate read as a Job,
// and refused at the field where the API server would refuse them.
import {describe, expect, it} from 'vitest'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import {fixtureFiles, readError} from '../../../helpers/fixture-files.js'

const {yaml: fixture} = fixtureFiles('read-cronjob')
const errorLine = (text: string) => readError([fixture(text)])

describe('CronJobs read from files', () => {
  const CJ = (extra: string) => `apiVersion: batch/v1
kind: CronJob
metadata: {name: c}
spec:
  schedule: "*/5 * * * *"
${extra}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: main, image: busybox}]
`
  it('SetDefaults_CronJob: Allow, not suspended, history 3 and 1; the template read as a Job', async () => {
    const snapshot = await readFixtures({paths: [fixture(CJ('  timeZone: Europe/Berlin'))]})
    expect(snapshot.cronJobs?.[0]).toMatchObject({concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, timeZone: 'Europe/Berlin'})
    expect(snapshot.cronJobs?.[0].jobTemplate.job).toMatchObject({parallelism: 1, completions: 1, backoffLimit: 6})
  })
  it('refuses a bad concurrencyPolicy and a Job template mistake at its own field', async () => {
    expect(await errorLine(CJ('  concurrencyPolicy: Sometimes'))).toMatch(/:6:\d+.*unsupported value "Sometimes"/)
    expect(await errorLine(CJ('').replace('restartPolicy: Never', 'restartPolicy: Always'))).toMatch(/:11:\d+.*restartPolicy Never or OnFailure/)
  })
})
