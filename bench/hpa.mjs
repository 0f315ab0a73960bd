// The HPA benchmark: `kctl plan -o json` of 2,000 HorizontalPodAutoscalers with their metrics,
// beside the plan of the same world without them, measured side by side in one run (the two
// runs alternate, each repeated; the medians are compared). Reported: wall time, CPU time and peak
// RSS of both, and the ratios (with HPAs / without).
//
// The world: 2,000 Deployments in 20 namespaces, each with its ReplicaSet and 5 Running, Ready
// pods (one container `main` requesting 200m CPU and 256Mi), in sync. Beside them, as files of
// their own in the same directory: one HPA per Deployment with two metrics, six kinds taken in
// turn (Resource Utilization, Resource AverageValue, ContainerResource, Pods, Object, External),
// and the metrics APIs' answers as `kubectl get --raw` prints them: a PodMetricsList of every
// pod, a MetricValueList (the Pods metric per pod, the Object metric per HPA) and an
// ExternalMetricValueList. Usage varies so that some HPAs scale up, some down, some hold.
//
// The plan is checked before it is timed: it exits 0, every HPA is planned, every metric of every
// HPA is answered (none missing) and gives a proposal.
//
//   npm run bench:hpa                  (builds first)
//   node bench/hpa.mjs [--hpas N] [--podsPerHpa N] [--namespaces N] [--repeat N]
import {execFileSync} from 'node:child_process'
import {mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

import {deploymentUid, podTemplate, replicaSetWithPods} from './deployment-world.mjs'
import {numberArgs, prng} from './generate.mjs'
import {measured} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:00Z'
const SAMPLED = '2026-11-22T09:59:45Z'
const STARTED = '2026-11-20T00:00:30Z'

const args = () => numberArgs({hpas: 2000, podsPerHpa: 5, namespaces: 20, repeat: 5})

const template = (app) => podTemplate(app, 1, {resources: {requests: {cpu: '200m', memory: '256Mi'}, limits: {memory: '512Mi'}}})

/** The six metric kinds an HPA is given, two in turn. */
const METRICS = [
  (app) => ({type: 'Resource', resource: {name: 'cpu', target: {type: 'Utilization', averageUtilization: 60}}}),
  (app) => ({type: 'Resource', resource: {name: 'memory', target: {type: 'AverageValue', averageValue: '200Mi'}}}),
  (app) => ({type: 'ContainerResource', containerResource: {name: 'cpu', container: 'main', target: {type: 'Utilization', averageUtilization: 70}}}),
  (app) => ({type: 'Pods', pods: {metric: {name: 'packets_per_second'}, target: {type: 'AverageValue', averageValue: '100'}}}),
  (app) => ({type: 'Object', object: {describedObject: {apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: app}, metric: {name: 'requests_per_second'}, target: {type: 'Value', value: '2k'}}}),
  (app) => ({type: 'External', external: {metric: {name: 'queue_messages_ready', selector: {matchLabels: {queue: app}}}, target: {type: 'AverageValue', averageValue: '30'}}}),
]

function world({hpas, podsPerHpa, namespaces}, podTemplateHash) {
  const rnd = prng(20261127)
  const between = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1))
  const objects = []
  const hpaObjects = []
  const podMetrics = []
  const customMetrics = []
  const externalMetrics = []
  const replicas = podsPerHpa
  for (let d = 0; d < hpas; d++) {
    const app = `app-${d}`
    const namespace = `ns-${d % namespaces}`
    objects.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {name: app, namespace, uid: deploymentUid(d), generation: 1, resourceVersion: '1', creationTimestamp: '2026-11-20T00:00:00Z', annotations: {'deployment.kubernetes.io/revision': '1'}},
      spec: {replicas, selector: {matchLabels: {app}}, template: template(app)},
      status: {observedGeneration: 1, replicas, updatedReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, terminatingReplicas: 0},
    })
    const items = replicaSetWithPods({app, index: d, namespace, revision: 1, template: template(app), size: replicas, replicas, created: '2026-11-20T00:00:00Z', resourceVersion: '1', podTemplateHash})
    for (const item of items) {
      if (item.kind === 'Pod') item.status.startTime = STARTED
      objects.push(item)
    }
    const pods = items.filter((i) => i.kind === 'Pod')
    // A load level per Deployment: from well under its targets to well over them.
    const load = 0.4 + rnd() * 1.4
    const kinds = [d % METRICS.length, (d + 1) % METRICS.length]
    hpaObjects.push({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: {name: app, namespace, uid: `00000000-0000-4000-a000-${String(d).padStart(12, '0')}`, generation: 1, resourceVersion: '1', creationTimestamp: '2026-11-20T00:05:00Z'},
      spec: {scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: app}, minReplicas: 2, maxReplicas: 20, metrics: kinds.map((k) => METRICS[k](app))},
      status: {currentReplicas: replicas, desiredReplicas: replicas},
    })
    for (const pod of pods) {
      const cpu = Math.round(120 * load * (0.8 + rnd() * 0.4))
      const memory = Math.round(200 * load * (0.8 + rnd() * 0.4))
      podMetrics.push({metadata: {name: pod.metadata.name, namespace, labels: pod.metadata.labels}, timestamp: SAMPLED, window: '30s', containers: [{name: 'main', usage: {cpu: `${cpu}m`, memory: `${memory}Mi`}}]})
      if (kinds.includes(3)) customMetrics.push({describedObject: {kind: 'Pod', namespace, name: pod.metadata.name, apiVersion: 'v1'}, metric: {name: 'packets_per_second'}, timestamp: SAMPLED, value: String(Math.round(100 * load * (0.8 + rnd() * 0.4)))})
    }
    if (kinds.includes(4)) customMetrics.push({describedObject: {kind: 'Ingress', namespace, name: app, apiVersion: 'networking.k8s.io/v1'}, metric: {name: 'requests_per_second'}, timestamp: SAMPLED, value: `${Math.round(2000 * load)}`})
    if (kinds.includes(5)) externalMetrics.push({metricName: 'queue_messages_ready', metricLabels: {queue: app}, timestamp: SAMPLED, value: String(between(0, Math.round(60 * load * replicas)))})
  }
  return {
    objects,
    hpas: hpaObjects,
    podMetrics: {kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {}, items: podMetrics},
    customMetrics: {kind: 'MetricValueList', apiVersion: 'custom.metrics.k8s.io/v1beta2', metadata: {}, items: customMetrics},
    externalMetrics: {kind: 'ExternalMetricValueList', apiVersion: 'external.metrics.k8s.io/v1beta1', metadata: {}, items: externalMetrics},
  }
}

/** The plan with HPAs, checked: every HPA planned, every metric answered with a proposal. */
function checkPlan(dir, expected) {
  const stdout = execFileSync(process.execPath, [join(root, 'bin/run.js'), 'plan', '-A', '-o', 'json', '--now', NOW, '-f', dir], {cwd: root, maxBuffer: 1 << 30})
  const plan = JSON.parse(stdout)
  const planned = plan.controllers.filter((c) => c.kind === 'HorizontalPodAutoscaler')
  const problems = []
  if (planned.length !== expected.hpas) problems.push(`${planned.length} HPAs planned, not ${expected.hpas}`)
  let up = 0
  let down = 0
  let held = 0
  for (const c of planned) {
    const h = c.hpa
    const proposals = h?.proposals ?? []
    if (!h || h.missing.length > 0 || proposals.length !== 2 || proposals.some((p) => typeof p.replicas !== 'number')) {
      problems.push(`${c.namespace}/${c.name}: ${JSON.stringify({missing: h?.missing, proposals: proposals.map((p) => p.replicas ?? p)})}`)
      continue
    }
    if (h.desired > h.currentReplicas) up++
    else if (h.desired < h.currentReplicas) down++
    else held++
  }
  if (problems.length > 0) throw new Error(`the plan is not what it should be:\n  ${problems.slice(0, 5).join('\n  ')}${problems.length > 5 ? `\n  … ${problems.length - 5} more` : ''}`)
  return {planned: planned.length, up, down, held}
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

async function main() {
  const o = args()
  const {podTemplateHash} = await import(pathToFileURL(join(root, 'dist/reconcile/hash/index.js')).href)
  const dir = join(out, 'hpa')
  rmSync(dir, {recursive: true, force: true})
  mkdirSync(dir, {recursive: true})
  const w = world(o, podTemplateHash)
  const worldFile = join(dir, 'world.json')
  writeFileSync(worldFile, JSON.stringify({apiVersion: 'v1', kind: 'List', items: w.objects}))
  writeFileSync(join(dir, 'hpas.json'), JSON.stringify({apiVersion: 'v1', kind: 'List', items: w.hpas}))
  writeFileSync(join(dir, 'pod-metrics.json'), JSON.stringify(w.podMetrics))
  writeFileSync(join(dir, 'custom-metrics.json'), JSON.stringify(w.customMetrics))
  writeFileSync(join(dir, 'external-metrics.json'), JSON.stringify(w.externalMetrics))
  const counts = {
    deployments: w.objects.filter((i) => i.kind === 'Deployment').length,
    pods: w.objects.filter((i) => i.kind === 'Pod').length,
    hpas: w.hpas.length,
    podMetrics: w.podMetrics.items.length,
    metricValues: w.customMetrics.items.length,
    externalMetricValues: w.externalMetrics.items.length,
  }
  process.stderr.write(`world: ${counts.deployments} Deployments, ${counts.pods} pods; ${counts.hpas} HPAs, ${counts.podMetrics} PodMetrics, ${counts.metricValues} MetricValues, ${counts.externalMetricValues} ExternalMetricValues\n`)

  const checked = checkPlan(dir, counts)
  process.stderr.write(`plan checked: ${checked.planned} HPAs planned, every metric answered (${checked.up} scale up, ${checked.down} down, ${checked.held} hold)\n`)

  const plan = (f) => [join(root, 'bin/run.js'), 'plan', '-A', '-o', 'json', '--now', NOW, '-f', f]
  const runs = {with: [], without: []}
  for (let r = 0; r < o.repeat; r++) {
    // Alternated, so that both see the same load on the machine.
    runs.with.push(measured(plan(dir)))
    runs.without.push(measured(plan(worldFile)))
  }
  const stat = (rs) => ({seconds: median(rs.map((r) => r.seconds)), cpuSeconds: median(rs.map((r) => r.cpuSeconds)), rssMiB: median(rs.map((r) => r.rssMiB))})
  const a = stat(runs.with)
  const b = stat(runs.without)
  const results = {
    ...counts,
    ...checked,
    repeat: o.repeat,
    withHpas: a,
    withoutHpas: b,
    wallRatio: a.seconds / b.seconds,
    cpuRatio: a.cpuSeconds / b.cpuSeconds,
    peakRssRatio: a.rssMiB / b.rssMiB,
  }
  writeFileSync(join(out, 'hpa-results.json'), `${JSON.stringify(results, null, 2)}\n`)
  const row = (label, m) => `  ${label.padEnd(36)}${m.seconds.toFixed(2)} s, CPU ${m.cpuSeconds.toFixed(2)} s, peak RSS ${m.rssMiB.toFixed(0)} MiB`
  console.log(`kctl plan -o json, ${counts.deployments} Deployments / ${counts.pods} pods, with and without ${counts.hpas} HPAs and their metrics (median of ${o.repeat}, side by side):`)
  console.log(row('without HPAs', b))
  console.log(row(`with ${counts.hpas} HPAs + metrics`, a))
  console.log(`  HPAs' cost (with / without)         wall ${results.wallRatio.toFixed(2)}×, CPU ${results.cpuRatio.toFixed(2)}×, peak RSS ${results.peakRssRatio.toFixed(2)}×`)
  return results
}

await main()
