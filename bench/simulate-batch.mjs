// The batch simulation benchmark: `kctl simulate --until 24h` of CronJobs that run every few minutes
// (every minute, every 2 and every 5 minutes, Allow and Forbid, history limits 3 and 1) and a few
// Jobs with parallel pods: a day of runs, Job creates, pods running to their end, history
// deletions. Next to it, in the same run on the same machine: `kctl plan` of the same file (one
// sync of every controller), the baseline. Reported: wall time, syncs per second, the simulation's
// cost in plans (simulate ÷ plan), and the Jobs the CronJobs started.
//
//   npm run bench:simulate-batch         (builds first)
//   node bench/simulate-batch.mjs [--cronjobs N] [--jobs N] [--repeat N]
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {numberArgs} from './generate.mjs'
import {fastest, timed} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:30Z'
const podSpec = {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.example.com/batch:1'}]}

function world({cronjobs, jobs}) {
  const items = []
  const schedules = ['* * * * *', '*/2 * * * *', '*/5 * * * *']
  for (let c = 0; c < cronjobs; c++) {
    items.push({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: {name: `cron-${c}`, namespace: 'bench', uid: `00000000-0000-4002-8000-${String(c).padStart(12, '0')}`, resourceVersion: '1', creationTimestamp: '2026-11-22T09:00:00Z'},
      spec: {
        schedule: schedules[c % schedules.length],
        concurrencyPolicy: c % 2 === 0 ? 'Allow' : 'Forbid',
        successfulJobsHistoryLimit: c % 2 === 0 ? 3 : 1,
        jobTemplate: {spec: {completions: 2, parallelism: 2, template: {spec: podSpec}}},
      },
      status: {lastScheduleTime: '2026-11-22T10:00:00Z'},
    })
  }
  for (let j = 0; j < jobs; j++) {
    items.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {name: `job-${j}`, namespace: 'bench', uid: `00000000-0000-4003-8000-${String(j).padStart(12, '0')}`, resourceVersion: '1', creationTimestamp: '2026-11-22T10:00:00Z'},
      spec: {completions: 20, parallelism: 5, template: {spec: podSpec}},
    })
  }
  return items
}


function main() {
  const o = numberArgs({cronjobs: 6, jobs: 4, repeat: 1})
  mkdirSync(out, {recursive: true})
  const file = join(out, 'simulate-batch-world.json')
  const items = world(o)
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  process.stderr.write(`world: ${o.cronjobs} CronJobs, ${o.jobs} Jobs\n`)

  const plan = fastest(o.repeat, () => timed([join(root, 'bin/run.js'), 'plan', '-o', 'json', '--now', NOW, '-f', file]))
  const simFile = join(out, 'simulate-batch-result.json')
  const sim = fastest(o.repeat, () => timed([join(root, 'bin/run.js'), 'simulate', '-o', 'json', '--now', NOW, '--until', '24h', '-f', file], simFile))
  const doc = JSON.parse(readFileSync(simFile, 'utf8'))
  const runs = doc.cronJobs.reduce((n, c) => n + c.runs.length, 0)
  const deleted = doc.cronJobs.reduce((n, c) => n + c.deleted.length, 0)
  if (runs === 0) throw new Error('no CronJob ran')

  const results = {
    cronjobs: o.cronjobs,
    jobs: o.jobs,
    planSeconds: plan,
    simulateSeconds: sim,
    simulateVsPlan: sim / plan,
    runs,
    deleted,
    ...doc.summary,
    syncsPerSecond: doc.summary.syncs / sim,
  }
  writeFileSync(join(out, 'simulate-batch-results.json'), `${JSON.stringify(results, null, 2)}\n`)
  console.log(`kctl simulate --until 24h, ${o.cronjobs} CronJobs and ${o.jobs} Jobs: ${runs} Jobs started, ${deleted} deleted by history limits`)
  console.log(`  kctl plan of the same file (baseline)  ${plan.toFixed(2)} s`)
  console.log(`  kctl simulate -o json                  ${sim.toFixed(2)} s   ${(sim / plan).toFixed(1)}× one plan`)
  console.log(`  ${doc.summary.syncs} controller syncs in ${doc.summary.rounds} rounds, ${doc.summary.steps} steps`)
  console.log(`  ${(doc.summary.syncs / sim).toFixed(0)} syncs per second`)
}

main()
