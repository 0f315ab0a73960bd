// Starts a real etcd + kube-apiserver on 127.0.0.1 (and, on demand, kube-controller-manager) from the binaries
// built by ./build.ts. Used by `npm run cluster` (./cluster.ts) and the e2e suite's globalSetup.
//
// Design choices, and why:
// - Auth is a static token file (`--token-auth-file`): three identities, no client-cert PKI to generate.
//   `admin` and `system:kube-controller-manager` are in `system:masters`; `restricted` has no groups beyond
//   the implicit `system:authenticated`, so it can do nothing until a test binds it a role.
// - Authorization is `Node,RBAC` as on a real cluster; the apiserver's default, AlwaysAllow, would hide every 403.
// - Serving certs: kube-apiserver generates a self-signed CA + serving cert into `--cert-dir` when no
//   `--tls-*-file` is given (apiserver.crt holds both). The kubeconfigs embed that file as
//   certificate-authority-data. It is generated once per data dir, so restartApiServer() keeps it.
// - The ServiceAccount admission plugin is disabled (as controller-runtime's envtest does): without the
//   serviceaccount controller no namespace has a `default` ServiceAccount and every pod create, including the
//   ReplicaSet controller's, would be rejected. Tests choose which controllers run, so creating a pod must not
//   depend on one of them.
// - `--endpoint-reconciler-type=none` (as kwok does): 127.0.0.1 is not a valid Endpoints address, so the
//   `kubernetes` Service reconciler could only log errors.
import {randomBytes, generateKeyPairSync} from 'node:crypto'
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {cacheRoot, ensureControlPlaneBinaries, ensureScheduler, type ControlPlaneBinaries} from './build.js'
import {request} from './http.js'
import {startKwok, type Kwok, type KwokOptions} from './fake-nodes.js'
import {startFakeCloud, type FakeCloud, type FakeCloudOptions} from './fake-cloud.js'
import {
  DATA_DIR_PREFIX, freePort, killRecorded, onExitCleanup, reapStale, sleep, spawnManaged, startComponent, StartError, waitFor,
  type Component, type ManagedProcess,
} from './procs.js'

/** Everything a process other than the one that started the control plane needs to use it (JSON-serializable). */
export interface ControlPlaneInfo {
  /** https://127.0.0.1:PORT */
  server: string
  adminKubeconfig: string
  /** User `restricted`: authenticated, no RBAC grants. */
  restrictedKubeconfig: string
  /** Identity kube-controller-manager runs as (`system:kube-controller-manager`, in `system:masters`). */
  controllerManagerKubeconfig: string
  /** Identity kube-scheduler runs as (`system:kube-scheduler`, in `system:masters`). */
  schedulerKubeconfig: string
  /** Identity kwok runs as (`kwok`, in `system:masters`). */
  kwokKubeconfig: string
  adminToken: string
  restrictedToken: string
  /** PEM bundle (self-signed CA + serving cert) that verifies `server`. */
  caFile: string
  /** http://127.0.0.1:PORT — etcd's client URL (and its gRPC-JSON gateway). */
  etcdEndpoint: string
  /** Signing key for service-account tokens (kube-controller-manager's serviceaccount-token controller). */
  serviceAccountKeyFile: string
  dataDir: string
  binaries: ControlPlaneBinaries
}

export interface ControlPlane extends ControlPlaneInfo {
  info(): ControlPlaneInfo
  /** Starts kube-controller-manager with exactly these controllers (replacing a running one). */
  startControllerManager(controllers: string[], extraArgs?: string[]): Promise<void>
  stopControllerManager(): Promise<void>
  /** Starts kube-scheduler (replacing a running one). */
  startScheduler(extraArgs?: string[]): Promise<void>
  stopScheduler(): Promise<void>
  /** Starts kwok and its fake nodes (replacing a running kwok; nodes already created stay). */
  startKwok(opts?: KwokOptions): Promise<Kwok>
  stopKwok(): Promise<void>
  /** Starts the service controller with the fake cloud (./fake-cloud.ts), replacing a running one. */
  startFakeCloud(opts?: Omit<FakeCloudOptions, 'info' | 'log'>): Promise<FakeCloud>
  stopFakeCloud(): Promise<void>
  /** Stops kube-apiserver and starts it again on the same port against the same etcd. */
  restartApiServer(): Promise<void>
  /**
   * Compacts etcd to its current revision and returns it. Reads served from etcd at an older resourceVersion
   * then get 410 Expired; with the watch cache on (the default) most reads and watches never reach etcd.
   */
  compactEtcd(): Promise<number>
  /** Stops everything and removes the data dir. Idempotent. */
  stop(): Promise<void>
}

export interface StartOptions {
  /** Where etcd data, certs, kubeconfigs and logs go. Default: a fresh `$TMPDIR/kctl-cp-XXXXXX`. Removed by stop(). */
  dataDir?: string
  log?: (s: string) => void
  binaries?: ControlPlaneBinaries
  /**
   * Extra kube-apiserver flags, appended after ours (a repeated scalar flag takes the last value), e.g.
   * `--watch-cache=false` for etcd-served reads and watches, or `--feature-gates=…`.
   */
  apiServerArgs?: string[]
  /** Also start kube-scheduler: pods get bound to nodes. */
  scheduler?: boolean
  /** Also start kwok with fake nodes: bound pods run (see ./fake-nodes.ts). Implies nothing about the scheduler. */
  kwok?: KwokOptions
}

const defaultLog = (s: string) => process.stderr.write(`[controlplane] ${s}\n`)

function kubeconfig(server: string, caPem: string, user: string, token: string): string {
  // JSON-quoted scalars are valid YAML, so no YAML library is needed. kubectl and
  // @kubernetes/client-node's KubeConfig.loadFromFile both read this.
  const q = JSON.stringify
  const ca = Buffer.from(caPem).toString('base64')
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: kctl`,
    '  cluster:',
    `    server: ${q(server)}`,
    `    certificate-authority-data: ${q(ca)}`,
    'users:',
    `- name: ${q(user)}`,
    '  user:',
    `    token: ${q(token)}`,
    'contexts:',
    `- name: ${q(`${user}@kctl`)}`,
    '  context:',
    '    cluster: kctl',
    `    user: ${q(user)}`,
    `current-context: ${q(`${user}@kctl`)}`,
    '',
  ].join('\n')
}

export interface ControllerManagerOptions {
  info: ControlPlaneInfo
  controllers: string[]
  extraArgs?: string[]
  log?: (s: string) => void
}

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1)

/**
 * Starts kube-controller-manager against an existing control plane. Usable from any process that has the
 * ControlPlaneInfo (the e2e tests run it as a child of the test worker, while the apiserver belongs to the
 * globalSetup process); its pid is recorded in the data dir, so the control plane's stop() kills it too.
 *
 * Readiness: kube-controller-manager serves /healthz on a loopback port of its own, and adds one health check per
 * controller (named `<controller>-controller`, see cmd/kube-controller-manager/names) only after that controller
 * has been started. So "ready" = /healthz?verbose answers 200 and lists as many controller checks as we asked
 * for. Each controller then waits for its informer caches to sync, which takes milliseconds on a small cluster.
 */
export async function startControllerManager(o: ControllerManagerOptions): Promise<Component> {
  const log = o.log ?? defaultLog
  if (o.controllers.length === 0) throw new Error('startControllerManager: name at least one controller')
  const {info} = o
  const t0 = performance.now()
  const want = o.controllers.filter((c) => !c.startsWith('-') && c !== '*').length
  const kcm = await startComponent({
    dataDir: info.dataDir,
    name: 'kube-controller-manager',
    dirName: 'kcm',
    binary: info.binaries.controllerManager,
    args: (port, dir) => [
      `--kubeconfig=${info.controllerManagerKubeconfig}`,
      // No --authentication-kubeconfig/--authorization-kubeconfig: delegated authn would wait for the
      // kube-system/extension-apiserver-authentication ConfigMap, which an apiserver without client-cert auth
      // never publishes. /healthz is in the default --authorization-always-allow-paths, which is all we serve.
      `--controllers=${o.controllers.join(',')}`,
      '--leader-elect=false',
      // One identity for every controller; per-controller service accounts need the token machinery and buy
      // nothing here.
      '--use-service-account-credentials=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      // Self-signed serving cert for /healthz goes here (the default, /var/run/kubernetes, is shared).
      `--cert-dir=${dir}`,
      // For the serviceaccount-token and root-ca-cert-publisher controllers, if asked for.
      `--service-account-private-key-file=${info.serviceAccountKeyFile}`,
      `--root-ca-file=${info.caFile}`,
      // The client-go defaults (20 QPS, burst 30) throttle the slow-start batches of big scale-ups.
      '--kube-api-qps=1000',
      '--kube-api-burst=2000',
      '--v=2',
      ...(o.extraArgs ?? []),
    ],
    async ready(port) {
      const r = await request(`https://127.0.0.1:${port}/healthz?verbose`, {timeoutMs: 2000})
      const checks = (r.body.match(/^\[\+\]\S+-controller ok$/gm) ?? []).length
      return r.status === 200 && checks >= want
    },
  })
  log(`kube-controller-manager (${o.controllers.join(',')}) ready in ${seconds(t0)} s`)
  return kcm
}

/**
 * Starts kube-scheduler (built from the same module, ./build.ts ensureScheduler) against an existing control
 * plane, as `system:kube-scheduler`. Ready when its /readyz is 200, which includes the scheduler's informer
 * sync. Like kube-controller-manager it serves only the always-allowed health paths, so it needs no delegated
 * authentication. QPS is raised from client-go's 50 so that binding thousands of pods is not throttled.
 */
export async function startScheduler(o: {info: ControlPlaneInfo; extraArgs?: string[]; log?: (s: string) => void}): Promise<Component> {
  const log = o.log ?? defaultLog
  const t0 = performance.now()
  const binary = await ensureScheduler()
  const scheduler = await startComponent({
    dataDir: o.info.dataDir,
    name: 'kube-scheduler',
    dirName: 'scheduler',
    binary,
    args: (port, dir) => [
      `--kubeconfig=${o.info.schedulerKubeconfig}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${dir}`,
      '--kube-api-qps=5000',
      '--kube-api-burst=10000',
      '--v=1',
      ...(o.extraArgs ?? []),
    ],
    ready: async (port) => (await request(`https://127.0.0.1:${port}/readyz`, {timeoutMs: 2000})).status === 200,
  })
  log(`kube-scheduler ready in ${seconds(t0)} s`)
  return scheduler
}

/**
 * Compacts etcd to its current revision, so any older resourceVersion is gone: watches/lists served from etcd at
 * an older RV then get 410 Expired. Uses etcd's gRPC-JSON gateway (api/etcdserverpb/rpc.proto): any Range returns
 * the store revision in its header, and compacting to exactly that revision is allowed (only a future one is
 * rejected). Needs nothing but the client URL, so tests can call it from any process. Returns the revision.
 */
export async function compactEtcd(etcdEndpoint: string): Promise<number> {
  const range = await request(`${etcdEndpoint}/v3/kv/range`, {body: {key: Buffer.from('/').toString('base64')}})
  const revision = Number(range.json?.header?.revision)
  if (range.status !== 200 || !Number.isFinite(revision)) throw new Error(`etcd range failed: ${range.status} ${range.body}`)
  const c = await request(`${etcdEndpoint}/v3/kv/compaction`, {body: {revision: String(revision), physical: true}})
  // Nothing written since the last compaction: already compacted to this revision, which is what we want.
  if (c.status !== 200 && !/has been compacted/.test(c.body)) throw new Error(`etcd compaction failed: ${c.status} ${c.body}`)
  return revision
}

export async function startControlPlane(opts: StartOptions = {}): Promise<ControlPlane> {
  const log = opts.log ?? defaultLog
  reapStale(log, cacheRoot())
  const binaries = opts.binaries ?? (await ensureControlPlaneBinaries())
  const keep = process.env.KCTL_KEEP_CONTROLPLANE_DATA === '1'

  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), DATA_DIR_PREFIX))
  mkdirSync(dataDir, {recursive: true})
  // The owner file lets a later run reap this dir (and its processes) if we die without cleaning up.
  writeFileSync(join(dataDir, 'owner'), String(process.pid))
  const pidDir = join(dataDir, 'pids')
  const pki = join(dataDir, 'pki')
  mkdirSync(pki, {recursive: true})
  const removeDataDir = () => {
    killRecorded(pidDir)
    if (!keep) rmSync(dataDir, {recursive: true, force: true, maxRetries: 5})
  }
  const undoExitCleanup = onExitCleanup(removeDataDir)

  const token = () => randomBytes(24).toString('hex')
  const tokens = {admin: token(), kcm: token(), scheduler: token(), kwok: token(), restricted: token()}
  // Static token file: token,user,uid,"group1,group2"
  writeFileSync(
    join(pki, 'tokens.csv'),
    [
      `${tokens.admin},admin,admin,"system:masters"`,
      `${tokens.kcm},system:kube-controller-manager,system:kube-controller-manager,"system:masters"`,
      `${tokens.scheduler},system:kube-scheduler,system:kube-scheduler,"system:masters"`,
      `${tokens.kwok},kwok,kwok,"system:masters"`,
      `${tokens.restricted},restricted,restricted`,
      '',
    ].join('\n'),
    {mode: 0o600},
  )
  // Service-account token signing key (mandatory flags since 1.20). EC P-256, PEM, straight from node:crypto.
  const sa = generateKeyPairSync('ec', {namedCurve: 'prime256v1'})
  const saKey = join(pki, 'sa.key')
  const saPub = join(pki, 'sa.pub')
  writeFileSync(saKey, sa.privateKey.export({type: 'pkcs8', format: 'pem'}), {mode: 0o600})
  writeFileSync(saPub, sa.publicKey.export({type: 'spki', format: 'pem'}))

  let etcd: ManagedProcess | undefined
  let apiserver: ManagedProcess | undefined
  let kcm: Component | undefined
  let scheduler: Component | undefined
  let kwok: Kwok | undefined
  let fakeCloud: FakeCloud | undefined
  let stopped = false

  const stop = async () => {
    if (stopped) return
    stopped = true
    // Reverse start order: controllers first, so they don't spend the shutdown logging connection errors.
    // kwok first: it plays the kubelets, and nothing should act on pods while the rest goes down.
    await kwok?.stop().catch(() => {})
    await fakeCloud?.stop().catch(() => {})
    await scheduler?.stop().catch(() => {})
    await kcm?.stop().catch(() => {})
    killRecorded(pidDir) // controller-managers started by other processes against this control plane
    await apiserver?.stop(10_000)
    await etcd?.stop(5_000)
    undoExitCleanup()
    removeDataDir()
    log(keep ? `stopped; kept ${dataDir}` : 'stopped')
  }

  try {
    // --- etcd -------------------------------------------------------------------------------------------
    let etcdEndpoint = ''
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now()
      const clientPort = await freePort()
      etcdEndpoint = `http://127.0.0.1:${clientPort}`
      const etcdData = join(dataDir, 'etcd')
      rmSync(etcdData, {recursive: true, force: true})
      const proc = spawnManaged({
        name: 'etcd',
        binary: binaries.etcd,
        logFile: join(dataDir, 'etcd.log'),
        pidDir,
        args: [
          '--name=default',
          `--data-dir=${etcdData}`,
          `--listen-client-urls=${etcdEndpoint}`,
          `--advertise-client-urls=${etcdEndpoint}`,
          // Port 0: a one-member cluster never dials its peer URL, so let the kernel pick (as hack/lib/etcd.sh).
          '--listen-peer-urls=http://127.0.0.1:0',
          // Throwaway data: skip fsync, the single biggest etcd latency on a CI disk.
          '--unsafe-no-fsync=true',
          '--log-level=warn',
        ],
      })
      try {
        await waitFor('etcd', proc, async () => {
          const r = await request(`${etcdEndpoint}/readyz`, {timeoutMs: 1000})
          return r.status === 200
        })
        etcd = proc
        log(`etcd ${binaries.version.etcd} ready at ${etcdEndpoint} in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
        break
      } catch (e) {
        await proc.stop(1000)
        if (e instanceof StartError && e.portTaken && attempt < 5) continue
        throw e
      }
    }

    // --- kube-apiserver ---------------------------------------------------------------------------------
    const caFile = join(pki, 'apiserver.crt')
    const apiArgs = (port: number) => [
      `--etcd-servers=${etcdEndpoint}`,
      '--bind-address=127.0.0.1',
      // Without it, hosts with no default route fail with "no default routes found" (kudobuilder/kudo#509).
      '--advertise-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${pki}`,
      `--token-auth-file=${join(pki, 'tokens.csv')}`,
      '--authorization-mode=Node,RBAC',
      `--service-account-issuer=https://127.0.0.1:${port}`,
      `--service-account-key-file=${saPub}`,
      `--service-account-signing-key-file=${saKey}`,
      // Both families, so dual-stack Services can be created (single-stack ones still get an IPv4 address).
      '--service-cluster-ip-range=10.0.0.0/24,fd00:10:96::/112',
      '--endpoint-reconciler-type=none',
      // Actively end open watches on SIGTERM. With the default (0) the apiserver stops listening, but its HTTP
      // server then waits for every watch connection (e.g. kube-controller-manager's informers) to go idle, so
      // a restart took the whole 10 s kill timeout instead of ~1 s.
      '--shutdown-watch-termination-grace-period=2s',
      '--disable-admission-plugins=ServiceAccount',
      '--allow-privileged=true',
      '--profiling=false',
      '--v=1',
      ...(opts.apiServerArgs ?? []),
    ]
    /**
     * Starts kube-apiserver and waits until it serves. On the first start a port someone else grabbed is
     * replaced by a fresh one; on a restart the port is fixed (clients hold the URL), so we retry it briefly.
     */
    const startApiServer = async (what: 'start' | 'restart', port: number): Promise<{proc: ManagedProcess; port: number}> => {
      const t0 = performance.now()
      for (let attempt = 1; ; attempt++) {
        const server = `https://127.0.0.1:${port}`
        const proc = spawnManaged({
          name: 'kube-apiserver',
          binary: binaries.apiserver,
          logFile: join(dataDir, 'kube-apiserver.log'),
          pidDir,
          args: apiArgs(port),
        })
        try {
          // /readyz is readable anonymously (system:public-info-viewer). It covers etcd, the RBAC bootstrap
          // post-start hook and, from 1.36, watch-cache initialization (WatchCacheInitializationPostStartHook).
          await waitFor(`kube-apiserver ${what}`, proc, async () => (await request(`${server}/readyz`, {timeoutMs: 2000})).status === 200)
          const ca = readFileSync(caFile)
          await waitFor(`kube-apiserver ${what} (default namespace)`, proc, async () =>
            (await request(`${server}/api/v1/namespaces/default`, {token: tokens.admin, ca, timeoutMs: 2000})).status === 200)
          log(`kube-apiserver ${binaries.version.kubernetes} ${what}: ready at ${server} in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
          return {proc, port}
        } catch (e) {
          await proc.stop(2000)
          if (e instanceof StartError && e.portTaken && attempt < 10) {
            if (what === 'start') port = await freePort()
            else await sleep(500)
            continue
          }
          throw e
        }
      }
    }
    const started = await startApiServer('start', await freePort())
    apiserver = started.proc
    const port = started.port
    const server = `https://127.0.0.1:${port}`

    // --- kubeconfigs ------------------------------------------------------------------------------------
    const caPem = readFileSync(caFile, 'utf8')
    const kc = (name: string, user: string, token: string) => {
      const f = join(dataDir, `${name}.kubeconfig`)
      writeFileSync(f, kubeconfig(server, caPem, user, token), {mode: 0o600})
      return f
    }
    const info: ControlPlaneInfo = {
      server,
      adminKubeconfig: kc('admin', 'admin', tokens.admin),
      restrictedKubeconfig: kc('restricted', 'restricted', tokens.restricted),
      controllerManagerKubeconfig: kc('controller-manager', 'system:kube-controller-manager', tokens.kcm),
      schedulerKubeconfig: kc('scheduler', 'system:kube-scheduler', tokens.scheduler),
      kwokKubeconfig: kc('kwok', 'kwok', tokens.kwok),
      adminToken: tokens.admin,
      restrictedToken: tokens.restricted,
      caFile,
      etcdEndpoint,
      serviceAccountKeyFile: saKey,
      dataDir,
      binaries,
    }

    const cp: ControlPlane = {
      ...info,
      info: () => ({...info}),
      async startControllerManager(controllers, extraArgs) {
        await kcm?.stop()
        kcm = undefined
        kcm = await startControllerManager({info, controllers, extraArgs, log})
      },
      async stopControllerManager() {
        await kcm?.stop()
        kcm = undefined
      },
      async startScheduler(extraArgs) {
        await scheduler?.stop()
        scheduler = undefined
        scheduler = await startScheduler({info, extraArgs, log})
      },
      async stopScheduler() {
        await scheduler?.stop()
        scheduler = undefined
      },
      async startKwok(kwokOpts = {}) {
        await kwok?.stop()
        kwok = undefined
        kwok = await startKwok({...kwokOpts, info, log})
        return kwok
      },
      async stopKwok() {
        await kwok?.stop()
        kwok = undefined
      },
      async startFakeCloud(fakeCloudOpts = {}) {
        await fakeCloud?.stop()
        fakeCloud = undefined
        fakeCloud = await startFakeCloud({...fakeCloudOpts, info, log})
        return fakeCloud
      },
      async stopFakeCloud() {
        await fakeCloud?.stop()
        fakeCloud = undefined
      },
      async restartApiServer() {
        const t0 = performance.now()
        await apiserver?.stop(10_000)
        apiserver = (await startApiServer('restart', port)).proc
        log(`kube-apiserver restarted in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
      },
      compactEtcd: () => compactEtcd(etcdEndpoint),
      stop,
    }
    if (opts.scheduler) await cp.startScheduler()
    if (opts.kwok) await cp.startKwok(opts.kwok)
    return cp
  } catch (e) {
    await stop()
    throw e
  }
}
