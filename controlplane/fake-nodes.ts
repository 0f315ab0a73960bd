// Fake nodes and their stand-in kubelet: kwok (sigs.k8s.io/kwok, built by ./build.ts ensureKwok) plays the kubelet
// for every Node annotated `kwok.x-k8s.io/node: fake`, following the Stage objects in ./stages/: it marks the
// nodes Ready, moves pods bound to them to Running and Ready with an IP, ends Job pods and finishes deletions.
// Together with kube-scheduler (./start.ts startScheduler) a Deployment's pods run as on a real cluster, with no
// container runtime. No heartbeats are sent, so the nodelifecycle controller must never run against these nodes.
import {existsSync, readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {ensureKwok} from './build.js'
import {CONTROLPLANE_DIR} from './gen-gomod.js'
import {request} from './http.js'
import {sleep, startComponent, type Component} from './procs.js'
import type {ControlPlaneInfo} from './start.js'

/** The annotation kwok is told to manage nodes by (and the label tests select them by). */
export const FAKE_NODE_ANNOTATION = 'kwok.x-k8s.io/node'

/** `fast`, `timed` (./stages/*.yaml), or the path of a YAML file of pod Stage objects of your own. */
export type StageSet = 'fast' | 'timed' | (string & {})

export interface Allocatable {
  cpu?: string
  memory?: string
  pods?: string
}

export interface KwokOptions {
  /** How many fake nodes to create (`kwok-node-0`, `kwok-node-1`, …) and wait for. Default 3. */
  nodes?: number
  /** Node names are `<prefix>-<i>`. Default `kwok-node`. */
  nodeNamePrefix?: string
  /** Pod stages. Default `fast`. The node stage (./stages/node.yaml) is always loaded. */
  stages?: StageSet
  /** topology.kubernetes.io/zone of the nodes, round-robin. Default zone-a, zone-b, zone-c. */
  zones?: string[]
  /** Allocatable (and capacity) of each node. Default 32 CPUs, 256Gi, 110 pods. */
  allocatable?: Allocatable
  /** Pod IPs come from this range (one pool for all nodes). Default 10.244.0.0/16: 65,534 pods. */
  podCIDR?: string
  extraArgs?: string[]
}

export interface Kwok extends Component {
  /** Names of the nodes created at start (all Ready). */
  nodes: string[]
}

const STAGES_DIR = join(CONTROLPLANE_DIR, 'stages')

/** The --config files for a stage set: kwok's settings, the node stage, then the pod stages. */
export function stageFiles(stages: StageSet = 'fast'): string[] {
  const pods = stages === 'fast' || stages === 'timed' ? join(STAGES_DIR, `${stages}.yaml`) : resolve(stages)
  if (!existsSync(pods)) throw new Error(`kwok stages: ${pods} does not exist (use 'fast', 'timed' or the path of a YAML file of Stage objects)`)
  return [join(CONTROLPLANE_DIR, 'kwok', 'config.yaml'), join(STAGES_DIR, 'node.yaml'), pods]
}

export interface FakeNodeOptions {
  zone?: string
  allocatable?: Allocatable
  labels?: Record<string, string>
  taints?: Array<{key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'}>
}

/** A Node manifest kwok will manage: hostname/os/arch/zone labels, the kwok annotation, allocatable = capacity. */
export function fakeNode(name: string, o: FakeNodeOptions = {}): object {
  const resources = {cpu: '32', memory: '256Gi', pods: '110', ...o.allocatable}
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': o.zone ?? 'zone-a',
        [FAKE_NODE_ANNOTATION]: 'fake',
        ...o.labels,
      },
      annotations: {[FAKE_NODE_ANNOTATION]: 'fake'},
    },
    spec: o.taints ? {taints: o.taints} : {},
    status: {allocatable: resources, capacity: resources},
  }
}

function admin(info: ControlPlaneInfo) {
  const ca = readFileSync(info.caFile)
  return (method: string, path: string, body?: unknown) =>
    request(`${info.server}${path}`, {method, body, token: info.adminToken, ca, timeoutMs: 30_000})
}

/** Creates fake nodes, `parallel` requests at a time. An existing node of the same name is an error. */
export async function createFakeNodes(info: ControlPlaneInfo, nodes: Array<{name: string} & FakeNodeOptions>, parallel = 16): Promise<void> {
  const call = admin(info)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < nodes.length; i = next++) {
      const {name, ...o} = nodes[i]!
      const r = await call('POST', '/api/v1/nodes', fakeNode(name, o))
      if (r.status !== 201) throw new Error(`creating node ${name}: HTTP ${r.status}: ${r.body}`)
    }
  }
  await Promise.all(Array.from({length: Math.min(parallel, nodes.length)}, worker))
}

interface FakeNodeObject {
  metadata: {name: string}
  spec?: {taints?: Array<{key: string}>}
  status?: {conditions?: Array<{type: string; status: string}>}
}

/** kwok's node stage has run: Ready, and the not-ready taint lifted (./stages/node.yaml). */
const schedulable = (n: FakeNodeObject) =>
  Boolean(n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) &&
  !n.spec?.taints?.some((t) => t.key === 'node.kubernetes.io/not-ready')

/** Waits until kwok has made every named node Ready and lifted its not-ready taint. */
export async function waitForReadyNodes(info: ControlPlaneInfo, names: string[], timeoutMs = 120_000): Promise<void> {
  const call = admin(info)
  const want = new Set(names)
  const deadline = Date.now() + timeoutMs
  let ready = 0
  for (;;) {
    const r = await call('GET', `/api/v1/nodes?labelSelector=${encodeURIComponent(`${FAKE_NODE_ANNOTATION}=fake`)}`)
    if (r.status === 200) {
      ready = (r.json.items as FakeNodeObject[]).filter((n) => want.has(n.metadata.name) && schedulable(n)).length
      if (ready === want.size) return
    }
    if (Date.now() > deadline) throw new Error(`fake nodes: ${ready} of ${want.size} Ready after ${timeoutMs / 1000} s`)
    await sleep(250)
  }
}

/**
 * Starts kwok against an existing control plane (from any process that has its ControlPlaneInfo), then creates
 * `nodes` fake nodes and waits until they are Ready. kwok manages only nodes with the fake-node annotation, so
 * hand-made Nodes (test/e2e/setup's makeNode) are left alone.
 */
export async function startKwok(o: KwokOptions & {info: ControlPlaneInfo; log?: (s: string) => void}): Promise<Kwok> {
  const t0 = performance.now()
  const configs = stageFiles(o.stages)
  const binary = await ensureKwok()
  const kwok = await startComponent({
    dataDir: o.info.dataDir,
    name: 'kwok',
    dirName: 'kwok',
    binary,
    args: (port) => [
      `--kubeconfig=${o.info.kwokKubeconfig}`,
      ...configs.map((f) => `--config=${f}`),
      '--manage-all-nodes=false',
      `--manage-nodes-with-annotation-selector=${FAKE_NODE_ANNOTATION}=fake`,
      `--cidr=${o.podCIDR ?? '10.244.0.1/16'}`,
      '--node-ip=10.0.0.1',
      `--server-address=127.0.0.1:${port}`,
      ...(o.extraArgs ?? []),
    ],
    ready: async (port) => (await request(`http://127.0.0.1:${port}/healthz`, {timeoutMs: 2000})).status === 200,
  })
  try {
    const zones = o.zones ?? ['zone-a', 'zone-b', 'zone-c']
    const nodes = Array.from({length: o.nodes ?? 3}, (_, i) => ({name: `${o.nodeNamePrefix ?? 'kwok-node'}-${i}`, zone: zones[i % zones.length], allocatable: o.allocatable}))
    await createFakeNodes(o.info, nodes)
    await waitForReadyNodes(o.info, nodes.map((n) => n.name))
    const stages = o.stages === 'fast' || o.stages === 'timed' || o.stages === undefined ? (o.stages ?? 'fast') : configs.at(-1)
    o.log?.(`kwok ready with ${nodes.length} fake nodes (${stages} stages) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    return {...kwok, nodes: nodes.map((n) => n.name)}
  } catch (e) {
    await kwok.stop()
    throw e
  }
}
