// The Job and CronJob benchmark: `kctl plan -o json` of 5,000 Jobs and 500 CronJobs with 100,000
// pods, from JSON. Next to it, in the same run on the same machine: a process that only reads and
// JSON.parses the same file (the floor). Reported: the plan's time as a multiple of the floor's,
// and the plan's peak RSS.
//
// Each Job runs 20 pods (completions 40, parallelism 20): in one Job of four a pod has just
// succeeded, in one of five one has failed (the rest Running and Ready), one in ten is Indexed. Each
// CronJob (every 5 minutes, one in three Replace) owns its 10th Job as the active one.
//
//   npm run bench:batch          (builds first)
//   node bench/batch.mjs [--jobs N] [--cronJobs N] [--podsPerJob N] [--repeat N]
import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {numberArgs} from './generate.mjs'
import {planAgainstJsonParse} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:00Z'

const TRACKING = ['batch.kubernetes.io/job-tracking']
const spec = {restartPolicy: 'Never', containers: [{name: 'main', image: 'registry.example.com/batch:v1'}]}

function world(o) {
  const items = []
  for (let c = 0; c < o.cronJobs; c++) {
    const name = `cron-${c}`
    const active = `${name}-29922355`
    items.push({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: {name, namespace: `ns-${c % 50}`, uid: `cj-uid-${c}`, creationTimestamp: '2026-11-01T00:00:00Z'},
      spec: {schedule: '*/5 * * * *', concurrencyPolicy: c % 3 === 0 ? 'Replace' : 'Allow', jobTemplate: {spec: {template: {spec}}}},
      status: {lastScheduleTime: '2026-11-22T09:55:00Z', active: [{apiVersion: 'batch/v1', kind: 'Job', name: active, namespace: `ns-${c % 50}`, uid: `job-uid-${c * 10}`}]},
    })
  }
  for (let j = 0; j < o.jobs; j++) {
    const namespace = `ns-${Math.floor(j / 10) % 50}`
    const cron = j % 10 === 0 && j / 10 < o.cronJobs ? j / 10 : undefined
    const name = cron !== undefined ? `cron-${cron}-29922355` : `job-${j}`
    const uid = `job-uid-${j}`
    const indexed = j % 10 === 5
    const owner = [{apiVersion: 'batch/v1', kind: 'Job', name, uid, controller: true, blockOwnerDeletion: true}]
    items.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {name, namespace, uid, ...(cron !== undefined ? {ownerReferences: [{apiVersion: 'batch/v1', kind: 'CronJob', name: `cron-${cron}`, uid: `cj-uid-${cron}`, controller: true}]} : {})},
      spec: {completions: o.podsPerJob * 2, parallelism: o.podsPerJob, ...(indexed ? {completionMode: 'Indexed'} : {}), template: {spec}},
      status: {startTime: '2026-11-22T09:00:00Z', active: o.podsPerJob, ready: o.podsPerJob, terminating: 0, uncountedTerminatedPods: {}},
    })
    for (let p = 0; p < o.podsPerJob; p++) {
      const succeeded = p === 0 && j % 4 === 0
      const failed = p === 1 && j % 5 === 0
      const finished = succeeded || failed
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: `${name}-${p}`,
          namespace,
          uid: `${uid}-pod-${p}`,
          creationTimestamp: '2026-11-22T09:00:01Z',
          finalizers: TRACKING,
          ...(indexed ? {annotations: {'batch.kubernetes.io/job-completion-index': String(p)}} : {}),
          // The labels the API server gives the Job's template (its generated selector matches them).
          labels: {'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name},
          ownerReferences: owner,
        },
        spec: {nodeName: `node-${(j + p) % 1000}`, ...spec},
        status: finished
          ? {phase: succeeded ? 'Succeeded' : 'Failed', containerStatuses: [{name: 'main', restartCount: 0, state: {terminated: {exitCode: succeeded ? 0 : 1, finishedAt: '2026-11-22T09:59:00Z'}}}]}
          : {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: '2026-11-22T09:00:05Z'}], containerStatuses: [{name: 'main', restartCount: 0, state: {running: {}}}]},
      })
    }
  }
  return items
}

async function main() {
  const o = numberArgs({jobs: 5000, cronJobs: 500, podsPerJob: 20, repeat: 2})
  mkdirSync(out, {recursive: true})
  const items = world(o)
  const file = join(out, 'batch.json')
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  const count = (kind) => items.filter((i) => i.kind === kind).length
  const counts = {jobs: count('Job'), cronJobs: count('CronJob'), pods: count('Pod')}
  process.stderr.write(`world: ${counts.jobs} Jobs, ${counts.cronJobs} CronJobs, ${counts.pods} pods\n`)
  planAgainstJsonParse({name: 'batch', file, repeat: o.repeat, now: NOW, counts, title: `kctl plan -o json, ${counts.jobs} Jobs / ${counts.cronJobs} CronJobs / ${counts.pods} pods:`, outDir: out})
}

await main()
