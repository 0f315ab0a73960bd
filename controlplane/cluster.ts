// `npm run cluster`: a throwaway local control plane in the foreground, for trying kctl by hand.
//
//   npm run cluster        # terminal 1: prints `export KUBECONFIG=…` and `alias kubectl=…` on stdout, then stays up
//   export KUBECONFIG=…    # terminal 2: paste those lines (the alias is the kubectl of the control plane's version),
//   alias kubectl=…        # then use kubectl / kctl as usual
//   kubectl get rs -A
//
// Ctrl-C (SIGINT) or SIGTERM stops kwok, kube-scheduler, kube-controller-manager, kube-apiserver and etcd and
// removes the data dir. Set KCTL_KEEP_CONTROLPLANE_DATA=1 to keep the data dir (logs, etcd data) for a post-mortem.
//
// Nodes: by default kube-scheduler and kwok run with 3 fake nodes (kwok-node-0…2, one per zone), so a Deployment's
// pods are scheduled and become Running and Ready with an IP. KCTL_NODES=N asks for N nodes; KCTL_NODES=0 is the
// bare control plane (no scheduler, no kwok: pods stay Pending until bound and given a status by hand).
// KCTL_STAGES=fast|timed|<file> picks the stage set (default timed: instant unless a pod's annotations ask for
// delays, never-Ready or failing exits; see controlplane/stages/timed.yaml).
//
// Load balancers: KCTL_FAKE_CLOUD=1 also runs the upstream service controller with the upstream fake cloud
// (./fake-cloud.ts): LoadBalancer Services get the finalizer and an ingress of 203.0.113.10, and each cloud call is
// one JSON line in <data dir>/fakecloud-calls.jsonl.
//
// Controllers: the ones kctl predicts (ReplicaSet, ReplicationController, Deployment, the endpoint controllers;
// with nodes, also daemonset, job, cronjob, ttl-after-finished and statefulset, whose pods now run), plus the
// ones that make a cluster behave like a real one:
//   - serviceaccount, serviceaccount-token, root-ca-cert-publisher: `default` ServiceAccount and kube-root-ca.crt
//     in every namespace, as workloads expect (the apiserver runs without ServiceAccount admission regardless);
//   - namespace: `kubectl delete ns` actually finishes;
//   - garbagecollector: deleting a ReplicaSet deletes its pods, and Foreground/Orphan deletes don't hang.
// Deliberately not nodelifecycle (it would mark hand-made Nodes NotReady and evict their pods, as no kubelet
// heartbeats) nor podgc (it deletes pods bound to Nodes that don't exist). Override with KCTL_CONTROLLERS=a,b,c.
import {readFileSync} from 'node:fs'
import {ensureControlPlaneBinaries, ensureKubectl} from './build.js'
import {startControlPlane, type ControlPlane} from './start.js'

const DEFAULT_CONTROLLERS = [
  'deployment',
  'replicaset',
  'replicationcontroller',
  'serviceaccount',
  'serviceaccount-token',
  'root-ca-cert-publisher',
  'namespace',
  'garbagecollector',
  'endpointslice',
  'endpoint',
  'endpointslicemirroring',
]
const WORKLOAD_CONTROLLERS = ['daemonset', 'job', 'cronjob', 'ttl-after-finished', 'statefulset']
const DEFAULT_NODES = 3

/** KCTL_NODES: a count of fake nodes, 0 for none. */
function nodeCount(): number {
  const raw = process.env.KCTL_NODES
  if (raw === undefined || raw === '') return DEFAULT_NODES
  if (!/^\d+$/.test(raw)) throw new Error(`KCTL_NODES=${raw}: expected a number of fake nodes (0 for none)`)
  return Number(raw)
}

const log = (s: string) => process.stderr.write(`[cluster] ${s}\n`)

/** ppid, session id and start time (clock ticks since boot) of a process, from /proc/<pid>/stat. */
function procStat(pid: number): {ppid: number; sid: number; start: string} | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after "pid (comm)"; comm may itself contain spaces and parentheses.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return {ppid: Number(f[1]), sid: Number(f[3]), start: f[19]!}
  } catch {
    return undefined
  }
}

/**
 * Calls `onOrphaned` once any process between us and our session leader (npm, its `sh -c`, the tsx wrapper) is
 * gone. Why: `npm run` forwards SIGTERM only to its `sh -c` child, which dies without passing it on; without
 * this, `kill <npm pid>` would orphan a running apiserver. The session leader itself (the login shell, a tmux
 * pane) is not watched, so `nohup npm run cluster &` survives logging out. Linux-only; a no-op without /proc.
 */
function watchAncestors(onOrphaned: (pid: number) => void): void {
  const self = procStat(process.pid)
  if (!self) return
  const chain: Array<{pid: number; start: string}> = []
  for (let pid = process.ppid; pid > 1 && pid !== self.sid; ) {
    const st = procStat(pid)
    if (!st) break
    chain.push({pid, start: st.start})
    pid = st.ppid
  }
  if (chain.length === 0) return
  const timer = setInterval(() => {
    // A matching start time guards against the pid having been reused.
    const gone = chain.find((a) => procStat(a.pid)?.start !== a.start)
    if (gone) {
      clearInterval(timer)
      onOrphaned(gone.pid)
    }
  }, 1000)
  timer.unref()
}

async function main(): Promise<void> {
  const nodes = nodeCount()
  const stages = process.env.KCTL_STAGES || 'timed'
  const controllers =
    process.env.KCTL_CONTROLLERS?.split(',').filter(Boolean) ?? (nodes > 0 ? [...DEFAULT_CONTROLLERS, ...WORKLOAD_CONTROLLERS] : DEFAULT_CONTROLLERS)
  let cp: ControlPlane | undefined
  let stopping = false
  const shutdown = (signal: string) => {
    if (stopping) {
      log(`${signal} again: already stopping`)
      return
    }
    stopping = true
    log(`${signal}: stopping …`)
    const done = cp ? cp.stop() : Promise.resolve()
    done.then(
      () => process.exit(0),
      (e: unknown) => {
        log(`stop failed: ${(e as Error).message}`)
        process.exit(1) // the 'exit' hook in procs.ts still SIGKILLs whatever is left
      },
    )
  }
  // Installed before anything starts, so a Ctrl-C during the build or startup also cleans up.
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGHUP', () => shutdown('SIGHUP'))
  watchAncestors((pid) => shutdown(`parent process ${pid} exited`))

  const binaries = await ensureControlPlaneBinaries()
  const kubectl = await ensureKubectl()
  if (stopping) return
  cp = await startControlPlane({binaries, log})
  if (stopping) return void (await cp.stop())
  await cp.startControllerManager(controllers)
  if (stopping) return
  let nodeNames: string[] = []
  if (nodes > 0) {
    await cp.startScheduler()
    if (stopping) return
    nodeNames = (await cp.startKwok({nodes, stages})).nodes
    if (stopping) return
  }

  const fakeCloud = process.env.KCTL_FAKE_CLOUD === '1'
  if (fakeCloud) {
    await cp.startFakeCloud()
    if (stopping) return
  }

  process.stdout.write(`export KUBECONFIG=${cp.adminKubeconfig}\n`)
  process.stdout.write(`alias kubectl='${kubectl.replaceAll("'", "'\\''")}'\n`)
  log(
    [
      `Kubernetes ${binaries.version.kubernetes} (etcd ${binaries.version.etcd}) at ${cp.server}`,
      `  admin:      KUBECONFIG=${cp.adminKubeconfig}`,
      `  restricted: KUBECONFIG=${cp.restrictedKubeconfig}   (user "restricted", no RBAC grants)`,
      `  kubectl ${binaries.version.kubernetes}: ${kubectl}`,
      `  controllers: ${controllers.join(',')}`,
      `  logs and data: ${cp.dataDir}`,
      nodes > 0
        ? `kube-scheduler and kwok (${stages} stages) with ${nodes} fake node${nodes === 1 ? '' : 's'}: ${nodeNames.length > 4 ? `${nodeNames.slice(0, 3).join(', ')}, …` : nodeNames.join(', ')}`
        : 'No nodes, no scheduler, no kubelet: pods stay Pending until you bind them and patch their status.',
      fakeCloud
        ? `service controller with the fake cloud: load balancers at 203.0.113.10, calls in ${cp.dataDir}/fakecloud-calls.jsonl`
        : 'No service controller (KCTL_FAKE_CLOUD=1 runs one with a fake cloud): LoadBalancer Services stay pending.',
      'Ctrl-C to stop.',
    ].join('\n'),
  )
  // Nothing else holds the event loop open (the servers are unref'd children): wait for a signal.
  setInterval(() => {}, 1 << 30)
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).message}\n`)
  process.exit(1)
})
