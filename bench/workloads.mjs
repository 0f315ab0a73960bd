// The StatefulSet and DaemonSet benchmark: `kctl plan -o json` of 1,000 StatefulSets and 200
// DaemonSets over 1,000 nodes with 150,000 pods, from JSON. Next to it, in the same run on the
// same machine: a process that only reads and JSON.parses the same file (the floor). Reported:
// the plan's time as a multiple of the floor's, and the plan's peak RSS.
//
// Each StatefulSet has 50 ready pods at its current revision, one in five mid-rollout (a new
// template); each DaemonSet runs on the 500 nodes of one of two pools, one in four mid-rollout.
//
//   npm run bench:workloads          (builds first)
//   node bench/workloads.mjs [--statefulSets N] [--daemonSets N] [--nodes N] [--repeat N]
import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

import {numberArgs} from './generate.mjs'
import {planAgainstJsonParse} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:00Z'

const args = () => numberArgs({statefulSets: 1000, daemonSets: 200, nodes: 1000, podsPerSet: 50, repeat: 2})

const template = (app, version, extra = {}) => ({
  metadata: {labels: {app}},
  spec: {containers: [{name: 'main', image: `registry.example.com/${app}:v${version}`, resources: {requests: {cpu: '100m'}}}], ...extra},
})
const ready = {phase: 'Running', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: '2026-11-20T00:01:00Z'}]}

function world(o, podTemplateHash) {
  const items = []
  for (let n = 0; n < o.nodes; n++) items.push({apiVersion: 'v1', kind: 'Node', metadata: {name: `node-${n}`, uid: `node-uid-${n}`, labels: {pool: n % 2 ? 'a' : 'b'}}})
  for (let s = 0; s < o.statefulSets; s++) {
    const name = `db-${s}`
    const namespace = `ns-${s % 50}`
    const uid = `sts-uid-${s}`
    const owner = [{apiVersion: 'apps/v1', kind: 'StatefulSet', name, uid, controller: true}]
    const rolling = s % 5 === 0
    const current = `${name}-r1`
    items.push({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {name, namespace, uid, generation: rolling ? 2 : 1},
      spec: {replicas: o.podsPerSet, serviceName: name, selector: {matchLabels: {app: name}}, template: template(name, rolling ? 2 : 1)},
      status: {observedGeneration: 1, replicas: o.podsPerSet, readyReplicas: o.podsPerSet, currentReplicas: o.podsPerSet, updatedReplicas: o.podsPerSet, availableReplicas: o.podsPerSet, currentRevision: current, updateRevision: current},
    })
    items.push({apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: {name: current, namespace, uid: `${uid}-r1`, labels: {app: name, 'controller-revision-hash': 'r1'}, ownerReferences: owner}, revision: 1, data: {spec: {template: {...template(name, 1), $patch: 'replace'}}}})
    for (let p = 0; p < o.podsPerSet; p++) {
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {name: `${name}-${p}`, namespace, uid: `${uid}-pod-${p}`, creationTimestamp: '2026-11-20T00:00:00Z', labels: {app: name, 'controller-revision-hash': current, 'statefulset.kubernetes.io/pod-name': `${name}-${p}`}, ownerReferences: owner},
        spec: {nodeName: `node-${(s + p) % o.nodes}`},
        status: ready,
      })
    }
  }
  for (let d = 0; d < o.daemonSets; d++) {
    const name = `agent-${d}`
    const namespace = `ns-${d % 50}`
    const uid = `ds-uid-${d}`
    const owner = [{apiVersion: 'apps/v1', kind: 'DaemonSet', name, uid, controller: true}]
    const pool = d % 2 ? 'a' : 'b'
    const old = template(name, 1, {nodeSelector: {pool}})
    const hash = podTemplateHash(old, undefined)
    items.push({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {name, namespace, uid, generation: 1},
      spec: {selector: {matchLabels: {app: name}}, template: template(name, d % 4 === 0 ? 2 : 1, {nodeSelector: {pool}})},
    })
    items.push({apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: {name: `${name}-${hash}`, namespace, uid: `${uid}-r1`, labels: {app: name, 'controller-revision-hash': hash}, ownerReferences: owner}, revision: 1, data: {spec: {template: {...old, $patch: 'replace'}}}})
    for (let n = d % 2 ? 1 : 0; n < o.nodes; n += 2) {
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {name: `${name}-${n}`, namespace, uid: `${uid}-pod-${n}`, creationTimestamp: '2026-11-20T00:00:00Z', labels: {app: name, 'controller-revision-hash': hash}, ownerReferences: owner},
        spec: {nodeName: `node-${n}`},
        status: ready,
      })
    }
  }
  return items
}

async function main() {
  const o = args()
  const {podTemplateHash} = await import(pathToFileURL(join(root, 'dist/reconcile/hash/index.js')).href)
  mkdirSync(out, {recursive: true})
  const items = world(o, podTemplateHash)
  const file = join(out, 'workloads.json')
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  const count = (kind) => items.filter((i) => i.kind === kind).length
  const counts = {statefulSets: count('StatefulSet'), daemonSets: count('DaemonSet'), nodes: count('Node'), pods: count('Pod')}
  process.stderr.write(`world: ${counts.statefulSets} StatefulSets, ${counts.daemonSets} DaemonSets, ${counts.nodes} nodes, ${counts.pods} pods\n`)

  planAgainstJsonParse({name: 'workloads', file, repeat: o.repeat, now: NOW, counts, title: `kctl plan -o json, ${counts.statefulSets} StatefulSets / ${counts.daemonSets} DaemonSets / ${counts.nodes} nodes / ${counts.pods} pods:`, outDir: out})
}

await main()
