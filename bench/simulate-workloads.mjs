// The simulation benchmark for StatefulSets and DaemonSets: `kctl simulate` runs, to the end,
// StatefulSets of 5 replicas each created ordinal by ordinal (OrderedReady: every pod waits for the
// one before to be Ready) and DaemonSets each putting a pod on every node, with the default model
// (Ready 10 s after creation). Next to it, in the same run on the same machine: `kctl plan` of the
// same file (one sync of every controller), the baseline. Reported: wall time, controller syncs
// per second, and the simulation's cost in plans (simulate ÷ plan).
//
//   npm run bench:simulate-workloads   (builds first)
//   node bench/simulate-workloads.mjs [--statefulsets N] [--replicas N] [--daemonsets N] [--nodes N] [--repeat N]
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath} from 'node:url'

import {numberArgs} from './generate.mjs'
import {fastest, timed} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:00Z'

/** A pod template as the API server stores it: a StatefulSet's revision name is the hash of exactly that. */
const template = (app) => ({
  metadata: {labels: {app}},
  spec: {
    containers: [
      {name: 'main', image: `registry.example.com/${app}:v1`, imagePullPolicy: 'IfNotPresent', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File'},
    ],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
  },
})

function world({statefulsets, replicas, daemonsets, nodes}) {
  const items = []
  const meta = (name, i) => ({name, namespace: 'bench', uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, generation: 1, resourceVersion: String(i + 1), creationTimestamp: '2026-11-20T00:00:00Z'})
  for (let s = 0; s < statefulsets; s++) {
    const app = `db-${s}`
    items.push({apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: meta(app, s), spec: {replicas, serviceName: app, selector: {matchLabels: {app}}, template: template(app)}})
  }
  for (let d = 0; d < daemonsets; d++) {
    const app = `agent-${d}`
    items.push({apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta(app, statefulsets + d), spec: {selector: {matchLabels: {app}}, template: template(app)}})
  }
  for (let n = 0; n < nodes; n++) items.push({apiVersion: 'v1', kind: 'Node', metadata: {name: `node-${n}`, labels: {'kubernetes.io/os': 'linux'}}})
  return items
}

function main() {
  const o = numberArgs({statefulsets: 200, replicas: 5, daemonsets: 20, nodes: 100, repeat: 1})
  mkdirSync(out, {recursive: true})
  const file = join(out, 'simulate-workloads-world.json')
  const items = world(o)
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  const pods = o.statefulsets * o.replicas + o.daemonsets * o.nodes
  process.stderr.write(`world: ${o.statefulsets} StatefulSets × ${o.replicas} replicas, ${o.daemonsets} DaemonSets over ${o.nodes} nodes (${pods} pods to come)\n`)

  const plan = fastest(o.repeat, () => timed([join(root, 'bin/run.js'), 'plan', '-o', 'json', '--now', NOW, '-f', file]))
  const simFile = join(out, 'simulate-workloads-result.json')
  const sim = fastest(o.repeat, () => timed([join(root, 'bin/run.js'), 'simulate', '-o', 'json', '--now', NOW, '-f', file], simFile))
  const doc = JSON.parse(readFileSync(simFile, 'utf8'))
  const readySets = doc.statefulSets.filter((s) => s.final.replicasStatus.available === o.replicas).length
  const readyDaemons = doc.daemonSets.filter((d) => d.final.replicasStatus.available === o.nodes).length
  if (readySets !== o.statefulsets || readyDaemons !== o.daemonsets) throw new Error(`only ${readySets} StatefulSets and ${readyDaemons} DaemonSets reached their pods`)

  const results = {...o, pods, planSeconds: plan, simulateSeconds: sim, simulateVsPlan: sim / plan, ...doc.summary, syncsPerSecond: doc.summary.syncs / sim}
  writeFileSync(join(out, 'simulate-workloads-results.json'), `${JSON.stringify(results, null, 2)}\n`)
  console.log(`kctl simulate, ${o.statefulsets} StatefulSets × ${o.replicas} replicas and ${o.daemonsets} DaemonSets over ${o.nodes} nodes, run until every pod is available:`)
  console.log(`  kctl plan of the same file (baseline)  ${plan.toFixed(2)} s`)
  console.log(`  kctl simulate -o json                  ${sim.toFixed(2)} s   ${(sim / plan).toFixed(1)}× one plan`)
  console.log(`  ${doc.summary.syncs} controller syncs in ${doc.summary.rounds} rounds, ${doc.summary.steps} steps, ${doc.summary.durationSeconds} s of virtual time`)
  console.log(`  ${(doc.summary.syncs / sim).toFixed(0)} syncs per second`)
}

main()
