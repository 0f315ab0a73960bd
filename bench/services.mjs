// The Service benchmark: `kctl plan -o json` of 5,000 Services over 150,000 pods and 1,000 nodes,
// from JSON. Next to it, in the same run on the same machine: a process that only reads and
// JSON.parses the same file (the floor). Reported: the plan's time as a multiple of the floor's,
// and the plan's peak RSS.
//
// 100 Services in each of 50 namespaces, 30 pods each (one in ten not ready), every pod with a
// named container port the Service's targetPort looks up. What the controllers wrote before
// varies as it does on a live cluster: half the Services have their EndpointSlice and Endpoints
// already as wanted, one in five has a slice that lacks its last pod (an update), the rest have
// none yet (creates); one in ten is a LoadBalancer, one in twenty headless.
//
//   npm run bench:services           (builds first)
//   node bench/services.mjs [--services N] [--podsPerService N] [--nodes N] [--namespaces N] [--repeat N]
import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {numberArgs} from './generate.mjs'
import {planAgainstJsonParse} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:00Z'
const CREATED = '2026-11-20T00:00:00Z'

const args = () => numberArgs({services: 5000, podsPerService: 30, nodes: 1000, namespaces: 50, repeat: 2})

const ip = (n) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`

function world(o) {
  const items = []
  for (let n = 0; n < o.nodes; n++) {
    items.push({apiVersion: 'v1', kind: 'Node', metadata: {name: `node-${n}`, uid: `node-uid-${n}`, labels: {'topology.kubernetes.io/zone': `zone-${n % 3}`}}})
  }
  let podNumber = 0
  for (let s = 0; s < o.services; s++) {
    const name = `svc-${s}`
    const namespace = `ns-${s % o.namespaces}`
    const uid = `svc-uid-${s}`
    const loadBalancer = s % 10 === 0
    const headless = s % 20 === 5
    items.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {name, namespace, uid, labels: {team: `team-${s % 7}`}, creationTimestamp: CREATED, ...(loadBalancer && s % 20 === 0 ? {finalizers: ['service.kubernetes.io/load-balancer-cleanup']} : {})},
      spec: {
        type: loadBalancer ? 'LoadBalancer' : 'ClusterIP',
        selector: {app: name},
        clusterIP: headless ? 'None' : ip(0x0a0000 + s),
        ipFamilies: ['IPv4'],
        ports: [{name: 'http', port: 80, protocol: 'TCP', targetPort: 'web', ...(loadBalancer ? {nodePort: 30000 + (s % 2000)} : {})}],
      },
      ...(loadBalancer && s % 20 === 0 ? {status: {loadBalancer: {ingress: [{ip: ip(0xc60000 + s)}]}}} : {}),
    })
    const pods = []
    for (let p = 0; p < o.podsPerService; p++) {
      const n = podNumber++
      const ready = p % 10 !== 9
      const pod = {name: `${name}-${p}`, uid: `${uid}-pod-${p}`, ip: ip(0x100000 + n), node: `node-${n % o.nodes}`, ready}
      pods.push(pod)
      items.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {name: pod.name, namespace, uid: pod.uid, creationTimestamp: CREATED, labels: {app: name}},
        spec: {nodeName: pod.node, containers: [{name: 'main', image: `registry.example.com/${name}:v1`, ports: [{name: 'web', containerPort: 8080, protocol: 'TCP'}]}]},
        status: {
          phase: 'Running',
          conditions: [{type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: CREATED}],
          podIP: pod.ip,
          podIPs: [{ip: pod.ip}],
        },
      })
    }
    const written = s % 10 < 5 ? pods : s % 10 < 7 ? pods.slice(0, -1) : undefined
    if (!written) continue
    const labels = {team: `team-${s % 7}`, ...(headless ? {'service.kubernetes.io/headless': ''} : {}), 'kubernetes.io/service-name': name, 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io'}
    items.push({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {name: `${name}-abcde`, namespace, uid: `${uid}-slice`, resourceVersion: '7', labels, ownerReferences: [{apiVersion: 'v1', kind: 'Service', name, uid, controller: true, blockOwnerDeletion: true}]},
      addressType: 'IPv4',
      ports: [{name: 'http', port: 8080, protocol: 'TCP'}],
      endpoints: written.map((p) => ({
        addresses: [p.ip],
        conditions: {ready: p.ready, serving: p.ready, terminating: false},
        nodeName: p.node,
        zone: `zone-${Number(p.node.slice(5)) % 3}`,
        targetRef: {kind: 'Pod', namespace, name: p.name, uid: p.uid},
      })),
    })
    const address = (p) => ({ip: p.ip, nodeName: p.node, targetRef: {kind: 'Pod', namespace, name: p.name, uid: p.uid}})
    const byIp = (a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0)
    items.push({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {name, namespace, uid: `${uid}-endpoints`, resourceVersion: '8', labels: {team: `team-${s % 7}`, ...(headless ? {'service.kubernetes.io/headless': ''} : {}), 'endpoints.kubernetes.io/managed-by': 'endpoint-controller'}},
      subsets: [{addresses: written.filter((p) => p.ready).map(address).sort(byIp), notReadyAddresses: written.filter((p) => !p.ready).map(address).sort(byIp), ports: [{name: 'http', port: 8080, protocol: 'TCP'}]}],
    })
  }
  return items
}

async function main() {
  const o = args()
  mkdirSync(out, {recursive: true})
  const items = world(o)
  const file = join(out, 'services.json')
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  const count = (kind) => items.filter((i) => i.kind === kind).length
  const counts = {services: count('Service'), pods: count('Pod'), nodes: count('Node'), endpointSlices: count('EndpointSlice'), endpoints: count('Endpoints')}
  process.stderr.write(`world: ${counts.services} Services, ${counts.pods} pods, ${counts.nodes} nodes, ${counts.endpointSlices} EndpointSlices, ${counts.endpoints} Endpoints\n`)

  planAgainstJsonParse({name: 'services', file, repeat: o.repeat, now: NOW, counts, title: `kctl plan -o json, ${counts.services} Services / ${counts.pods} pods / ${counts.nodes} nodes / ${counts.endpointSlices} EndpointSlices:`, outDir: out})
}

await main()
