// The Deployment benchmark, in two parts.
//
// 1. `kctl plan -o json` on 2,000 Deployments with 10,000 ReplicaSets (five revisions each) and
//    150,000 pods, from JSON; next to it, in the same run on the same machine: JSON.parse of the
//    same file (the floor), and `kctl plan` of the same file without the Deployments (the
//    ReplicaSet-only plan of the same pods). Target: planning the Deployments costs at most 20%
//    over the ReplicaSet-only plan.
// 2. pod-template-hash of 100,000 generated templates, in one process: microseconds per template.
//
//   npm run bench:deployments          (builds first)
//   node bench/deployments.mjs [--deployments N] [--pods N] [--templates N]
import {execFileSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

import {deploymentUid, podTemplate, replicaSetWithPods} from './deployment-world.mjs'
import {numberArgs, prng} from './generate.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:00Z'

const args = () => numberArgs({deployments: 2000, pods: 150_000, templates: 100_000, repeat: 2})

const template = (app, version) =>
  podTemplate(app, version, {
    ports: [{containerPort: 8080, name: 'http'}],
    resources: {requests: {cpu: '100m', memory: '128Mi'}, limits: {cpu: '1', memory: '512Mi'}},
    readinessProbe: {httpGet: {path: '/healthz', port: 'http'}},
  })

/** 2,000 Deployments mid-rollout: five ReplicaSets each (revisions 1–5), pods on the newest two. */
function world({deployments, pods}, podTemplateHash) {
  const rnd = prng(20261124)
  const items = []
  const perDeployment = Math.floor(pods / deployments)
  for (let d = 0; d < deployments; d++) {
    const app = `app-${d}`
    const namespace = `ns-${d % 50}`
    const replicas = perDeployment
    items.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {name: app, namespace, uid: deploymentUid(d), generation: 5, resourceVersion: String(d), annotations: {'deployment.kubernetes.io/revision': '5'}},
      spec: {replicas, selector: {matchLabels: {app}}, template: template(app, 5)},
      status: {observedGeneration: 5, replicas, updatedReplicas: 0, readyReplicas: replicas, availableReplicas: replicas},
    })
    const newPods = Math.floor(rnd() * replicas)
    for (let v = 1; v <= 5; v++) {
      const size = v === 5 ? newPods : v === 4 ? replicas - newPods : 0
      const created = `2026-11-${String(10 + v).padStart(2, '0')}T00:00:00Z`
      items.push(...replicaSetWithPods({app, index: d, namespace, revision: v, template: template(app, v), size, replicas, created, resourceVersion: String(v), podTemplateHash}))
    }
  }
  return items
}

function timed(argv) {
  const t0 = process.hrtime.bigint()
  execFileSync(process.execPath, argv, {cwd: root, stdio: ['ignore', 'ignore', 'inherit'], maxBuffer: 1 << 30})
  return Number(process.hrtime.bigint() - t0) / 1e9
}

const fastest = (n, fn) => Math.min(...Array.from({length: n}, fn))

async function main() {
  const o = args()
  const {podTemplateHash} = await import(pathToFileURL(join(root, 'dist/reconcile/hash/index.js')).href)
  mkdirSync(out, {recursive: true})
  const items = world(o, podTemplateHash)
  const withDeployments = join(out, 'deployments.json')
  const withoutDeployments = join(out, 'deployments-rs-only.json')
  writeFileSync(withDeployments, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  writeFileSync(withoutDeployments, JSON.stringify({apiVersion: 'v1', kind: 'List', items: items.filter((i) => i.kind !== 'Deployment')}))
  const counts = {deployments: items.filter((i) => i.kind === 'Deployment').length, replicaSets: items.filter((i) => i.kind === 'ReplicaSet').length, pods: items.filter((i) => i.kind === 'Pod').length}
  process.stderr.write(`world: ${counts.deployments} Deployments, ${counts.replicaSets} ReplicaSets, ${counts.pods} pods\n`)

  const floor = fastest(o.repeat, () => timed([join(here, 'cases', 'floor-json.mjs'), withDeployments]))
  const plan = (file) => fastest(o.repeat, () => timed([join(root, 'bin/run.js'), 'plan', '-o', 'json', '--now', NOW, '-f', file]))
  const full = plan(withDeployments)
  const rsOnly = plan(withoutDeployments)

  // Part 2: hashing, in this process.
  const rnd = prng(7)
  const templates = Array.from({length: o.templates}, (_, i) => template(`t${i % 997}`, Math.floor(rnd() * 1000)))
  podTemplateHash(templates[0], undefined) // warm up
  const t0 = process.hrtime.bigint()
  for (const t of templates) podTemplateHash(t, undefined)
  const hashSeconds = Number(process.hrtime.bigint() - t0) / 1e9

  const results = {
    ...counts,
    jsonParseSeconds: floor,
    planSeconds: full,
    rsOnlyPlanSeconds: rsOnly,
    planVsJsonParse: floor / full,
    deploymentOverhead: full / rsOnly - 1,
    templates: o.templates,
    hashMicrosecondsPerTemplate: (hashSeconds * 1e6) / o.templates,
  }
  writeFileSync(join(out, 'deployments-results.json'), `${JSON.stringify(results, null, 2)}\n`)
  console.log(`kctl plan -o json, ${counts.deployments} Deployments / ${counts.replicaSets} ReplicaSets / ${counts.pods} pods:`)
  console.log(`  JSON.parse of the file (floor)  ${floor.toFixed(2)} s (process: read + parse)`)
  console.log(`  kctl plan, with Deployments      ${full.toFixed(2)} s   ${(floor / full).toFixed(2)}× JSON.parse's throughput`)
  console.log(`  kctl plan, ReplicaSets only      ${rsOnly.toFixed(2)} s   Deployments add ${((full / rsOnly - 1) * 100).toFixed(1)}% (target ≤ 20%)`)
  console.log(`pod-template-hash: ${o.templates} templates, ${((hashSeconds * 1e6) / o.templates).toFixed(1)} µs per template`)
}

await main()
