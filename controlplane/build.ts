/**
 * Builds kube-apiserver, kube-controller-manager and etcd from the Go module proxy, pinned by
 * controlplane/versions.json and the committed go.mod/go.sum files under controlplane/{k8s,etcd}/, into a
 * machine-local cache:
 *
 *   ${KCTL_CACHE_DIR:-$HOME/.cache/kctl}/controlplane/<k8s>-etcd<etcd>/{kube-apiserver,kube-controller-manager,etcd,stamp.json}
 *
 * and, each in a cache entry of its own, kube-scheduler (<k8s>-scheduler/, same module) and kwok (kwok-<v>/,
 * from controlplane/kwok/) for clusters with fake nodes, the hash test tools (<k8s>-tools/), and the service
 * controller with a fake cloud (<k8s>-fakecloud/, from controlplane/fakecloud/), and the fake metrics APIs
 * (<k8s>-fakemetrics/, from controlplane/fakemetrics/).
 *
 *   npx tsx controlplane/build.ts            # ensure the binaries (prints the directory on stdout)
 *   npx tsx controlplane/build.ts --force    # rebuild even if the cache is valid
 *
 * A cache hit costs a stat per binary plus a sha256 over a few small files. A miss is a cold compile of most of
 * Kubernetes: 4–8 min on 2 cores the first time on a machine (3.5 min when idle), seconds once GOCACHE is warm (only the
 * link steps re-run). Binaries are never committed.
 *
 * kubectl, for the e2e tests and `npm run cluster`, has a cache entry of its own too (<k8s>-kubectl/).
 */
import {spawn, spawnSync} from 'node:child_process'
import {createHash, randomBytes} from 'node:crypto'
import {
  closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync,
} from 'node:fs'
import {homedir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {CONTROLPLANE_DIR, goEnv, readVersions, type Versions} from './gen-gomod.js'

export interface ControlPlaneBinaries {
  /** Cache directory holding the three binaries and stamp.json. */
  dir: string
  apiserver: string
  controllerManager: string
  etcd: string
  /** The pins the binaries were built from. */
  version: Versions
}

/** Bump when the build recipe (flags, stamping) changes in a way go.mod/go.sum don't capture. */
const RECIPE = 2
const MIN_GO_MINOR = 26
/** A cold build takes 4–8 min on 2 cores; a lock this old is stale whatever its pid says. */
const LOCK_STALE_MS = 90 * 60_000
const NO_GO =
  'the e2e suite needs Go ≥1.26 to build kube-apiserver, kube-controller-manager and etcd from source; ' +
  'install Go or run `npm run test:unit`'

const log = (s: string) => process.stderr.write(`[controlplane/build] ${s}\n`)

export function cacheRoot(): string {
  return join(process.env.KCTL_CACHE_DIR || join(homedir(), '.cache', 'kctl'), 'controlplane')
}

/** Everything that determines the build output, hashed: the pins, the module files and the recipe number. */
function inputsHash(): string {
  const h = createHash('sha256').update(`recipe ${RECIPE}\n`)
  for (const f of ['versions.json', 'k8s/go.mod', 'k8s/go.sum', 'etcd/go.mod', 'etcd/go.sum']) {
    h.update(`${f}\n`).update(readFileSync(join(CONTROLPLANE_DIR, f)))
  }
  return h.digest('hex')
}

interface Stamp {
  kubernetes: string
  etcd: string
  inputs: string
  go: string
  builtAt: string
  buildSeconds: {etcd: number; kubernetes: number}
}

function binariesIn(dir: string, version: Versions): ControlPlaneBinaries {
  return {
    dir,
    apiserver: join(dir, 'kube-apiserver'),
    controllerManager: join(dir, 'kube-controller-manager'),
    etcd: join(dir, 'etcd'),
    version,
  }
}

/** The cached build if it is complete and was made from exactly the current inputs, else undefined. */
function cached(dir: string, version: Versions, inputs: string): ControlPlaneBinaries | undefined {
  try {
    const stamp = JSON.parse(readFileSync(join(dir, 'stamp.json'), 'utf8')) as Stamp
    if (stamp.kubernetes !== version.kubernetes || stamp.etcd !== version.etcd || stamp.inputs !== inputs) return undefined
    const b = binariesIn(dir, version)
    for (const f of [b.apiserver, b.controllerManager, b.etcd]) {
      if (!(statSync(f).mode & 0o100)) return undefined
    }
    return b
  } catch {
    return undefined
  }
}

function checkGo(): string {
  const r = spawnSync('go', ['version'], {env: goEnv(), encoding: 'utf8'})
  if (r.error || r.status !== 0) throw new Error(NO_GO)
  const m = /go1\.(\d+)/.exec(r.stdout)
  if (!m || Number(m[1]) < MIN_GO_MINOR) throw new Error(`${NO_GO} (found: ${r.stdout.trim()})`)
  return r.stdout.trim().split(' ')[2] ?? r.stdout.trim()
}

/** Release time of a module version as recorded by the proxy: a reproducible buildDate. */
function moduleTime(cwd: string, mod: string): string {
  const r = spawnSync('go', ['list', '-m', '-json', mod], {cwd, env: goEnv(), encoding: 'utf8'})
  const t = r.status === 0 ? (JSON.parse(r.stdout) as {Time?: string}).Time : undefined
  return t ? new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z') : '1970-01-01T00:00:00Z'
}

/**
 * `-X` stamps as upstream's hack/lib/version.sh sets them, on both copies of the version variables. Unstamped
 * binaries report `v0.0.0-master+$Format:%H$` from /version, which breaks any client-side version gating.
 */
function kubeLdflags(k8sVersion: string, buildDate: string): string {
  const [, major, minor] = /^v(\d+)\.(\d+)\./.exec(k8sVersion)!
  const vars: Record<string, string> = {
    gitVersion: k8sVersion,
    gitMajor: major!,
    gitMinor: minor!,
    gitTreeState: 'clean',
    buildDate,
  }
  const x = ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) =>
    Object.entries(vars).map(([k, v]) => `-X ${pkg}.${k}=${v}`),
  )
  return ['-s', '-w', ...x].join(' ')
}

/** Runs `go build`, echoing a heartbeat every 30 s so a 20-minute cold compile doesn't look hung in CI logs. */
async function goBuild(what: string, cwd: string, args: string[]): Promise<number> {
  const started = Date.now()
  log(`building ${what} …`)
  const child = spawn('go', ['build', '-trimpath', '-buildvcs=false', ...args], {
    cwd, env: goEnv(), stdio: ['ignore', 'inherit', 'inherit'],
  })
  const beat = setInterval(() => log(`  … still building ${what} (${Math.round((Date.now() - started) / 1000)} s)`), 30_000)
  const code = await new Promise<number | null>((res, rej) => {
    child.once('error', rej)
    child.once('exit', (c) => res(c))
  }).finally(() => clearInterval(beat))
  if (code !== 0) throw new Error(`go build of ${what} failed (exit ${code}); see the go output above`)
  const secs = (Date.now() - started) / 1000
  log(`built ${what} in ${secs.toFixed(1)} s`)
  return secs
}

function versionLine(bin: string, args = ['--version']): string {
  const r = spawnSync(bin, args, {encoding: 'utf8'})
  return `${r.stdout}${r.stderr}`.trim()
}

/**
 * One build at a time per cache dir (two vitest runs, or `npm run cluster` during a test run, would otherwise
 * both spend 20 minutes compiling). The lock holds the builder's pid; a lock whose pid is gone is taken over.
 */
async function withLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  let waitedLogged = false
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx')
      writeSync(fd, String(process.pid))
      closeSync(fd)
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const pid = Number(readFileSync(lockFile, 'utf8').trim())
      let alive = false
      try {
        process.kill(pid, 0)
        // A lock older than any real build belongs to a dead builder whose pid was reused.
        alive = pid > 0 && pid !== process.pid && Date.now() - statSync(lockFile).mtimeMs < LOCK_STALE_MS
      } catch {
        /* the builder is gone (or the lock vanished meanwhile) */
      }
      if (!alive) {
        rmSync(lockFile, {force: true})
        continue
      }
      if (!waitedLogged) {
        log(`waiting for another build (pid ${pid}) to finish …`)
        waitedLogged = true
      }
      await new Promise((r) => setTimeout(r, 2000))
    }
  }
  try {
    return await fn()
  } finally {
    rmSync(lockFile, {force: true})
  }
}

/**
 * Returns the three control-plane binaries, building them first if the cache doesn't hold a build of exactly
 * the committed pins. Safe to call concurrently from several processes.
 */
export async function ensureControlPlaneBinaries(opts: {force?: boolean} = {}): Promise<ControlPlaneBinaries> {
  const version = readVersions()
  const inputs = inputsHash()
  const root = cacheRoot()
  const dir = join(root, `${version.kubernetes}-etcd${version.etcd}`)
  if (!opts.force) {
    const hit = cached(dir, version, inputs)
    if (hit) return hit
  }
  const goVersion = checkGo()
  mkdirSync(root, {recursive: true})
  return withLock(join(root, `.${version.kubernetes}-etcd${version.etcd}.lock`), async () => {
    // Someone else may have finished the build while we waited for the lock.
    if (!opts.force) {
      const hit = cached(dir, version, inputs)
      if (hit) return hit
    }
    // We hold the lock, so any other .build-* dir is the leftover of an interrupted build: reclaim its space.
    for (const e of readdirSync(root)) {
      if (e.startsWith('.build-')) rmSync(join(root, e), {recursive: true, force: true})
    }
    const t0 = Date.now()
    log(`cache miss in ${dir}; building with ${goVersion} (GOMODCACHE/GOCACHE as in \`go env\`)`)
    // Build into a sibling temp dir and rename it into place at the end: an interrupted build never leaves a
    // directory that looks complete.
    const tmp = join(root, `.build-${process.pid}-${randomBytes(4).toString('hex')}`)
    mkdirSync(tmp, {recursive: true})
    try {
      const etcdDir = join(CONTROLPLANE_DIR, 'etcd')
      const k8sDir = join(CONTROLPLANE_DIR, 'k8s')
      // etcd's version is compiled in from go.etcd.io/etcd/api/v3/version; no stamping needed.
      const etcdSecs = await goBuild(`etcd ${version.etcd}`, etcdDir, [
        '-ldflags', '-s -w', '-o', join(tmp, 'etcd'), 'go.etcd.io/etcd/server/v3',
      ])
      const ldflags = kubeLdflags(version.kubernetes, moduleTime(k8sDir, 'k8s.io/kubernetes'))
      // `-o <dir>/` with several main packages writes one binary per package; they share most compiled packages.
      const k8sSecs = await goBuild(`kube-apiserver + kube-controller-manager ${version.kubernetes}`, k8sDir, [
        '-ldflags', ldflags, '-o', `${tmp}/`,
        'k8s.io/kubernetes/cmd/kube-apiserver', 'k8s.io/kubernetes/cmd/kube-controller-manager',
      ])
      const b = binariesIn(tmp, version)
      for (const [bin, want] of [
        [b.apiserver, `Kubernetes ${version.kubernetes}`],
        [b.controllerManager, `Kubernetes ${version.kubernetes}`],
        [b.etcd, `etcd Version: ${version.etcd.slice(1)}`],
      ] as const) {
        const got = versionLine(bin)
        if (!got.includes(want)) throw new Error(`${bin} --version printed ${JSON.stringify(got)}, expected ${want}`)
      }
      const stamp: Stamp = {
        kubernetes: version.kubernetes,
        etcd: version.etcd,
        inputs,
        go: goVersion,
        builtAt: new Date().toISOString(),
        buildSeconds: {etcd: Math.round(etcdSecs), kubernetes: Math.round(k8sSecs)},
      }
      writeFileSync(join(tmp, 'stamp.json'), `${JSON.stringify(stamp, null, 2)}\n`)
      if (existsSync(dir)) {
        const old = `${tmp}-old`
        renameSync(dir, old)
        rmSync(old, {recursive: true, force: true})
      }
      renameSync(tmp, dir)
      log(`control-plane binaries ready in ${dir} (${((Date.now() - t0) / 1000).toFixed(1)} s total)`)
      return binariesIn(dir, version)
    } catch (e) {
      rmSync(tmp, {recursive: true, force: true})
      throw e
    }
  })
}

/**
 * A small build cached beside the control plane in its own directory, valid while the file `stamp` in it holds
 * `inputs` and every output exists: a hit costs a read and a stat per output. The control plane's own entry is
 * never touched, so these can be added or rebuilt while other runs use it.
 */
async function ensureSideBuild(o: {
  entry: string
  inputs: string
  outputs: string[]
  build: (tmp: string) => Promise<void>
}): Promise<string> {
  const root = cacheRoot()
  const dir = join(root, o.entry)
  const fresh = () => {
    try {
      return readFileSync(join(dir, 'stamp'), 'utf8') === o.inputs && o.outputs.every((f) => statSync(join(dir, f)).isFile())
    } catch {
      return false
    }
  }
  if (fresh()) return dir
  checkGo()
  mkdirSync(root, {recursive: true})
  return withLock(join(root, `.${o.entry}.lock`), async () => {
    if (fresh()) return dir
    const prefix = `.side-${o.entry}-`
    // We hold this entry's lock: any other temp dir of it is the leftover of an interrupted build.
    for (const e of readdirSync(root)) if (e.startsWith(prefix)) rmSync(join(root, e), {recursive: true, force: true})
    const tmp = join(root, `${prefix}${process.pid}-${randomBytes(4).toString('hex')}`)
    mkdirSync(tmp, {recursive: true})
    try {
      await o.build(tmp)
      writeFileSync(join(tmp, 'stamp'), o.inputs)
      rmSync(dir, {recursive: true, force: true})
      renameSync(tmp, dir)
      return dir
    } catch (e) {
      rmSync(tmp, {recursive: true, force: true})
      throw e
    }
  })
}

/** sha256 over a recipe line and some files under controlplane/. */
function hashOf(recipe: string, files: string[]): string {
  const h = createHash('sha256').update(`${recipe}\n`)
  for (const f of files) h.update(`${f}\n`).update(readFileSync(join(CONTROLPLANE_DIR, f)))
  return h.digest('hex')
}

export interface GoTools {
  /** Prints the Go type graph of core/v1 PodTemplateSpec as JSON (controlplane/typetable.ts). */
  typeTable: string
  /** Reads Deployments as NDJSON and prints the pod-template-hash the controller computes for each. */
  hashOracle: string
}

const TOOLS = ['typetable', 'hashoracle'] as const

/**
 * The two small Go programs the tests check kctl's pod-template-hash against, built from the same
 * pinned module as kube-controller-manager (controlplane/k8s/tools/), cached beside the control
 * plane. They share its compiled packages, so once the control plane is built they link in seconds.
 */
export async function ensureGoTools(): Promise<GoTools> {
  const version = readVersions()
  const h = createHash('sha256').update(inputsHash())
  for (const tool of TOOLS) h.update(readFileSync(join(CONTROLPLANE_DIR, 'k8s', 'tools', tool, 'main.go')))
  const dir = await ensureSideBuild({
    entry: `${version.kubernetes}-tools`,
    inputs: h.digest('hex'),
    outputs: ['kctl-typetable', 'kctl-hash-oracle'],
    async build(tmp) {
      await goBuild('the pod-template-hash test tools', join(CONTROLPLANE_DIR, 'k8s'), ['-o', `${tmp}/`, ...TOOLS.map((t) => `./tools/${t}`)])
      renameSync(join(tmp, 'typetable'), join(tmp, 'kctl-typetable'))
      renameSync(join(tmp, 'hashoracle'), join(tmp, 'kctl-hash-oracle'))
    },
  })
  return {typeTable: join(dir, 'kctl-typetable'), hashOracle: join(dir, 'kctl-hash-oracle')}
}

/**
 * Upstream's k8s.io/kubernetes/cmd/<name> at the pin, stamped like the control plane, built from the Go module in
 * controlplane/<module>/ into a cache entry of its own (<k8s>-<entry>/), valid while that module's go.mod and go.sum
 * and the recipe are unchanged. The binary must print `want` when run with `versionArgs`.
 */
async function ensureKubeCommand(o: {name: string; entry: string; module: string; versionArgs: string[]; want: (k8s: string) => string}): Promise<string> {
  const version = readVersions()
  const moduleDir = join(CONTROLPLANE_DIR, o.module)
  const dir = await ensureSideBuild({
    entry: `${version.kubernetes}-${o.entry}`,
    inputs: hashOf(`${o.name} ${version.kubernetes} recipe ${RECIPE}`, [`${o.module}/go.mod`, `${o.module}/go.sum`]),
    outputs: [o.name],
    async build(tmp) {
      const ldflags = kubeLdflags(version.kubernetes, moduleTime(moduleDir, 'k8s.io/kubernetes'))
      await goBuild(`${o.name} ${version.kubernetes}`, moduleDir, ['-ldflags', ldflags, '-o', join(tmp, o.name), `k8s.io/kubernetes/cmd/${o.name}`])
      const got = versionLine(join(tmp, o.name), o.versionArgs)
      if (!got.includes(o.want(version.kubernetes))) throw new Error(`${o.name} ${o.versionArgs.join(' ')} printed ${JSON.stringify(got)}`)
    },
  })
  return join(dir, o.name)
}

/**
 * kube-scheduler from the same pinned k8s.io/kubernetes module (controlplane/k8s/go.mod already holds every
 * module it needs: it adds six packages to kube-apiserver's and kube-controller-manager's), stamped the same way.
 * Its own cache entry, so adding it never invalidates the control plane's.
 */
export function ensureScheduler(): Promise<string> {
  return ensureKubeCommand({name: 'kube-scheduler', entry: 'scheduler', module: 'k8s', versionArgs: ['--version'], want: (v) => `Kubernetes ${v}`})
}

/**
 * kubectl, so the e2e tests and `npm run cluster` use the control plane's own version rather than whatever kubectl
 * is on PATH. From a module of its own (controlplane/kubectl/, generated like k8s/ with the same pins and replaces):
 * kubectl's dependencies stay out of the control plane's go.sum, its cache key. It shares most compiled packages
 * with the control plane. kubectl has no --version flag; `version --client` needs no server.
 */
export function ensureKubectl(): Promise<string> {
  return ensureKubeCommand({name: 'kubectl', entry: 'kubectl', module: 'kubectl', versionArgs: ['version', '--client'], want: (v) => `Client Version: ${v}`})
}

/** The kwok version pinned by controlplane/kwok/go.mod (its only direct requirement). */
export function kwokVersion(): string {
  const v = /^\s*(?:require\s+)?sigs\.k8s\.io\/kwok (v\S+)/m.exec(readFileSync(join(CONTROLPLANE_DIR, 'kwok', 'go.mod'), 'utf8'))?.[1]
  if (!v) throw new Error('controlplane/kwok/go.mod: no sigs.k8s.io/kwok requirement')
  return v
}

/**
 * kwok, the stand-in kubelet for fake nodes, from its own small module (controlplane/kwok/: its go.mod pins the
 * version and has no replaces, as upstream's has none). kwok compiles its version in (pkg/consts), so plain
 * `-s -w` is the whole recipe.
 */
export async function ensureKwok(): Promise<string> {
  const version = kwokVersion()
  const dir = await ensureSideBuild({
    entry: `kwok-${version}`,
    inputs: hashOf(`kwok ${version} recipe ${RECIPE}`, ['kwok/go.mod', 'kwok/go.sum']),
    outputs: ['kwok'],
    async build(tmp) {
      await goBuild(`kwok ${version}`, join(CONTROLPLANE_DIR, 'kwok'), ['-ldflags', '-s -w', '-o', join(tmp, 'kwok'), 'sigs.k8s.io/kwok/cmd/kwok'])
      const got = versionLine(join(tmp, 'kwok'))
      if (!got.includes(version.slice(1))) throw new Error(`kwok --version printed ${JSON.stringify(got)}, expected ${version}`)
    },
  })
  return join(dir, 'kwok')
}

/**
 * kctl-fakecloud (controlplane/fakecloud/): the upstream service controller of k8s.io/cloud-provider with the
 * upstream fake cloud, for the load-balancer oracle. Its own module (no k8s.io/kubernetes, no replaces) and its own
 * cache entry, valid while its go.mod, go.sum and main.go are unchanged.
 */
export async function ensureFakeCloud(): Promise<string> {
  const version = readVersions()
  const dir = await ensureSideBuild({
    entry: `${version.kubernetes}-fakecloud`,
    inputs: hashOf(`kctl-fakecloud recipe ${RECIPE}`, ['fakecloud/go.mod', 'fakecloud/go.sum', 'fakecloud/main.go']),
    outputs: ['kctl-fakecloud'],
    async build(tmp) {
      await goBuild('kctl-fakecloud (the service controller with the fake cloud)', join(CONTROLPLANE_DIR, 'fakecloud'), [
        '-ldflags', '-s -w', '-o', join(tmp, 'kctl-fakecloud'), '.',
      ])
    },
  })
  return join(dir, 'kctl-fakecloud')
}

/**
 * kctl-fakemetrics (controlplane/fakemetrics/): the three metrics APIs the HPA controller reads, with values set by
 * the tests. Standard library only (no go.sum), its own cache entry, valid while its go.mod and main.go are unchanged.
 */
export async function ensureFakeMetrics(): Promise<string> {
  const version = readVersions()
  const dir = await ensureSideBuild({
    entry: `${version.kubernetes}-fakemetrics`,
    inputs: hashOf(`kctl-fakemetrics recipe ${RECIPE}`, ['fakemetrics/go.mod', 'fakemetrics/main.go']),
    outputs: ['kctl-fakemetrics'],
    async build(tmp) {
      await goBuild('kctl-fakemetrics (the metrics APIs for the HPA controller)', join(CONTROLPLANE_DIR, 'fakemetrics'), [
        '-ldflags', '-s -w', '-o', join(tmp, 'kctl-fakemetrics'), '.',
      ])
    },
  })
  return join(dir, 'kctl-fakemetrics')
}

async function main(): Promise<void> {
  const t0 = performance.now()
  try {
    const b = await ensureControlPlaneBinaries({force: process.argv.includes('--force')})
    await ensureGoTools()
    await ensureScheduler()
    await ensureKubectl()
    await ensureKwok()
    await ensureFakeCloud()
    await ensureFakeMetrics()
    log(`${b.version.kubernetes} / etcd ${b.version.etcd} (${(performance.now() - t0).toFixed(0)} ms)`)
    process.stdout.write(`${b.dir}\n`)
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`)
    process.exitCode = 1
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void main()
