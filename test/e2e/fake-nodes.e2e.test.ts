// A cluster of real parts without machines: kube-scheduler binds pods and kwok plays the kubelet of fake nodes
// (controlplane/fake-nodes.ts, controlplane/stages/). Two setups, each started once:
// - `npm run cluster` as a user runs it (controlplane/cluster.ts, default: 3 fake nodes, `timed` stages), driven
//   with kubectl; stopping it must leave no process behind;
// - the `fast` stages, with a scheduler and kwok started by this test worker against the shared control plane
//   and stopped again, as an oracle test would use them.
import {spawn, spawnSync, type ChildProcess} from 'node:child_process'
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {fakeNode, startKwok, type Kwok} from '../../controlplane/fake-nodes.js'
import {readVersions} from '../../controlplane/gen-gomod.js'
import type {Component} from '../../controlplane/procs.js'
import {startScheduler} from '../../controlplane/start.js'
import {api, apiOk, controlPlane, deleteNamespace, kubectl, newNamespace, waitUntil} from './setup/cluster.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

interface Pod {
  metadata: {name: string; deletionTimestamp?: string; annotations?: Record<string, string>}
  spec: {nodeName?: string}
  status: {
    phase?: string
    podIP?: string
    startTime?: string
    conditions?: Array<{type: string; status: string; lastTransitionTime?: string}>
    containerStatuses?: Array<{state?: {terminated?: {exitCode: number}}}>
  }
}

const ready = (p: Pod) => p.status.conditions?.find((c) => c.type === 'Ready')
const runningAndReady = (p: Pod) => p.status.phase === 'Running' && ready(p)?.status === 'True' && Boolean(p.status.podIP)

const deployment = (name: string, replicas: number, annotations: Record<string, string> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {name},
  spec: {
    replicas,
    selector: {matchLabels: {app: name}},
    template: {metadata: {labels: {app: name}, annotations}, spec: {containers: [{name: 'c', image: 'nginx'}]}},
  },
})

describe('npm run cluster: kube-scheduler, kwok and 3 fake nodes', () => {
  let cluster: ChildProcess
  let kubeconfig = ''
  let kubectlAlias = ''
  let exited: Promise<number | null>
  const k = (args: string[], input?: string) => kubectl(args, {kubeconfig, input})
  const apply = (...objects: object[]) => k(['apply', '-f', '-'], objects.map((o) => JSON.stringify(o)).join('\n'))
  const pods = async (selector: string): Promise<Pod[]> => JSON.parse((await k(['get', 'pods', '-l', selector, '-o', 'json'])).stdout).items

  beforeAll(async () => {
    // Exactly what `npm run cluster` runs, without npm in between (the test owns the process).
    const env = {...process.env}
    for (const v of ['KCTL_NODES', 'KCTL_STAGES', 'KCTL_CONTROLLERS', 'KCTL_KEEP_CONTROLPLANE_DATA']) delete env[v]
    cluster = spawn(process.execPath, ['--import', 'tsx', 'controlplane/cluster.ts'], {cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe']})
    exited = new Promise((r) => cluster.once('exit', (code) => r(code)))
    let stderr = ''
    cluster.stderr!.on('data', (c) => (stderr += c))
    ;[kubeconfig, kubectlAlias] = await new Promise<[string, string]>((resolve, reject) => {
      let out = ''
      cluster.stdout!.on('data', (c) => {
        out += c
        const config = /^export KUBECONFIG=(\S+)$/m.exec(out)
        const alias = /^alias kubectl='([^']+)'$/m.exec(out)
        if (config && alias) resolve([config[1]!, alias[1]!])
      })
      void exited.then((code) => reject(new Error(`npm run cluster exited ${code} before it was up:\n${stderr}`)))
    })
  })

  afterAll(async () => {
    if (cluster && cluster.exitCode === null) {
      cluster.kill('SIGTERM')
      await exited
    }
  })

  it('prints an alias for the kubectl of the control plane\'s own version', () => {
    const r = spawnSync(kubectlAlias, ['version', '-o', 'json'], {env: {...process.env, KUBECONFIG: kubeconfig}, encoding: 'utf8'})
    expect(r.status, r.stderr).toBe(0)
    const v = JSON.parse(r.stdout) as {clientVersion: {gitVersion: string}; serverVersion: {gitVersion: string}}
    expect([v.clientVersion.gitVersion, v.serverVersion.gitVersion]).toEqual([readVersions().kubernetes, readVersions().kubernetes])
  })

  it('runs a Deployment: every pod Running and Ready, with distinct IPs, on the fake nodes', async () => {
    await k(['create', 'deployment', 'web', '--image=nginx', '--replicas=3'])
    const running = await waitUntil(async () => {
      const ps = await pods('app=web')
      return ps.length === 3 && ps.every(runningAndReady) && ps
    }, {what: 'three Running and Ready pods of deployment web'})
    expect(new Set(running.map((p) => p.status.podIP)).size).toBe(3)
    for (const p of running) expect(p.spec.nodeName).toMatch(/^kwok-node-[0-2]$/)
    await waitUntil(async () => JSON.parse((await k(['get', 'deployment', 'web', '-o', 'json'])).stdout).status.availableReplicas === 3, {
      what: 'deployment web: 3 available replicas',
    })
  })

  it('places a DaemonSet pod on each fake node whose taints it tolerates', async () => {
    await apply(fakeNode('kwok-tainted', {zone: 'zone-a', taints: [{key: 'dedicated', value: 'gpu', effect: 'NoSchedule'}]}))
    await waitUntil(async () => JSON.parse((await k(['get', 'node', 'kwok-tainted', '-o', 'json'])).stdout).status.conditions?.some(
      (c: {type: string; status: string}) => c.type === 'Ready' && c.status === 'True',
    ), {what: 'node kwok-tainted Ready'})
    const ds = (name: string, tolerations: object[]) => ({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {name},
      spec: {
        selector: {matchLabels: {app: name}},
        template: {metadata: {labels: {app: name}}, spec: {tolerations, containers: [{name: 'c', image: 'agent'}]}},
      },
    })
    await apply(ds('plain', []), ds('tolerant', [{key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule'}]))
    const placed = async (app: string, n: number) =>
      (await waitUntil(async () => {
        const ps = await pods(`app=${app}`)
        return ps.length === n && ps.every(runningAndReady) && ps
      }, {what: `${n} Running pods of daemonset ${app}`})).map((p) => p.spec.nodeName).sort()
    expect(await placed('plain', 3)).toEqual(['kwok-node-0', 'kwok-node-1', 'kwok-node-2'])
    expect(await placed('tolerant', 4)).toEqual(['kwok-node-0', 'kwok-node-1', 'kwok-node-2', 'kwok-tainted'])
  })

  it('fails a Job whose pods exit 3 (timed stages): BackoffLimitExceeded', async () => {
    await apply({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {name: 'fails'},
      spec: {
        backoffLimit: 1,
        parallelism: 2,
        completions: 2,
        template: {
          metadata: {annotations: {'stage.kctl.io/exit-code': '3', 'stage.kctl.io/complete-after': '1s'}},
          spec: {restartPolicy: 'Never', containers: [{name: 'c', image: 'busybox'}]},
        },
      },
    })
    const failed = await waitUntil(async () => {
      const job = JSON.parse((await k(['get', 'job', 'fails', '-o', 'json'])).stdout)
      return job.status.conditions?.find((c: {type: string; status: string}) => c.type === 'Failed' && c.status === 'True')
    }, {what: 'job fails Failed', timeoutMs: 60_000})
    expect(failed.reason).toBe('BackoffLimitExceeded')
    const ps = await pods('job-name=fails')
    expect(ps.length).toBeGreaterThanOrEqual(2)
    for (const p of ps) {
      expect(p.status.phase).toBe('Failed')
      expect(p.status.containerStatuses?.[0]?.state?.terminated?.exitCode).toBe(3)
    }
  })

  it('makes a pod Ready after the delay its template asks for, and never for a never-ready image', async () => {
    await apply(deployment('slow', 1, {'stage.kctl.io/ready-after': '3s'}), {
      ...deployment('stuck', 1),
      spec: {...deployment('stuck', 1).spec, template: {metadata: {labels: {app: 'stuck'}}, spec: {containers: [{name: 'c', image: 'nginx:never-ready'}]}}},
    })
    const [slow] = await waitUntil(async () => {
      const ps = await pods('app=slow')
      return ps.length === 1 && runningAndReady(ps[0]!) && ps
    }, {what: 'pod of slow Ready'})
    // Timestamps have whole seconds: 3 s can read as 2 to 4.
    const waited = (Date.parse(ready(slow!)!.lastTransitionTime!) - Date.parse(slow!.status.startTime!)) / 1000
    expect(waited).toBeGreaterThanOrEqual(2)
    expect(waited).toBeLessThanOrEqual(5)
    const [stuck] = await pods('app=stuck')
    expect(stuck!.status.phase).toBe('Running')
    expect(stuck!.status.podIP).toBeTruthy()
    expect(ready(stuck!)?.status).toBe('False')
  })

  it('stops kwok, kube-scheduler and the rest on SIGTERM, leaving no process and no data dir', async () => {
    const dataDir = dirname(kubeconfig)
    const pidDir = join(dataDir, 'pids')
    const recorded = readdirSync(pidDir).map((f) => JSON.parse(readFileSync(join(pidDir, f), 'utf8')) as {pid: number; name: string})
    expect(recorded.map((r) => r.name).sort()).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok'])
    cluster.kill('SIGTERM')
    expect(await exited).toBe(0)
    for (const r of recorded) expect(existsSync(`/proc/${r.pid}`), `${r.name} (pid ${r.pid}) still runs`).toBe(false)
    expect(existsSync(dataDir)).toBe(false)
  })
})

describe('fast stages on the shared control plane', () => {
  let scheduler: Component | undefined
  let kwok: Kwok | undefined
  let ns = ''

  beforeAll(async () => {
    const info = controlPlane()
    scheduler = await startScheduler({info, log: () => {}})
    kwok = await startKwok({info, nodes: 2, stages: 'fast', zones: ['zone-x'], nodeNamePrefix: 'fast-node'})
    ns = await newNamespace('fast')
  })

  afterAll(async () => {
    await kwok?.stop()
    await scheduler?.stop()
    if (ns) await deleteNamespace(ns)
    // Leave the shared control plane as bare as it was: no Ready nodes for later files' pods.
    for (const n of kwok?.nodes ?? []) await api('DELETE', `/api/v1/nodes/${n}`)
  })

  it('binds a pod, runs it at once with an IP, and finishes its deletion', async () => {
    await apiOk('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'p'}, spec: {containers: [{name: 'c', image: 'nginx'}]}},
    })
    const pod = await waitUntil(async () => {
      const p = (await apiOk('GET', `/api/v1/namespaces/${ns}/pods/p`)) as Pod
      return runningAndReady(p) && p
    }, {what: 'pod p Running and Ready'})
    expect(kwok!.nodes).toContain(pod.spec.nodeName)
    // A bound pod's deletion waits for its kubelet; kwok finishes it (default grace period, 30 s, not waited out).
    await apiOk('DELETE', `/api/v1/namespaces/${ns}/pods/p`)
    await waitUntil(async () => (await api('GET', `/api/v1/namespaces/${ns}/pods/p`)).status === 404, {what: 'pod p gone', timeoutMs: 10_000})
  })

  it('creates fake nodes with zone labels, allocatable and the kwok annotation', async () => {
    const node = await apiOk('GET', `/api/v1/nodes/${kwok!.nodes[0]}`)
    expect(node.metadata.labels['topology.kubernetes.io/zone']).toBe('zone-x')
    expect(node.metadata.annotations['kwok.x-k8s.io/node']).toBe('fake')
    expect(node.status.allocatable).toMatchObject({cpu: '32', memory: '256Gi', pods: '110'})
    expect(node.spec.taints ?? []).toEqual([])
  })
})
