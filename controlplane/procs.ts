// Child-process bookkeeping for the control plane: every server runs in its own process group, is recorded in
// the data dir, and is killed when this process exits for any reason we can observe. Nothing here kills by name.
import {spawn, type ChildProcess} from 'node:child_process'
import {closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {createServer} from 'node:net'
import {join} from 'node:path'

/** Prefix of the default data dirs in os.tmpdir(); the reaper only ever looks at these. */
export const DATA_DIR_PREFIX = 'kctl-cp-'

export interface ManagedProcess {
  name: string
  pid: number
  logFile: string
  child: ChildProcess
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>
  /** True once the process has exited. */
  readonly done: boolean
  /** SIGTERM to the whole process group, SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>
}

interface PidRecord {
  pid: number
  name: string
  binary: string
  owner: number
}

const live = new Set<ManagedProcess & {pidFile: string}>()
let handlersInstalled = false

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    // Negative pid = the process group (we spawn with detached: true, so pgid == pid). This also takes down
    // anything the server itself forked.
    process.kill(-pid, signal)
  } catch {
    try {
      process.kill(pid, signal)
    } catch {
      /* already gone */
    }
  }
}

/** Synchronous last-resort cleanup: runs from 'exit', where no async work is possible. */
function killAllNow(): void {
  for (const p of live) {
    killGroup(p.pid, 'SIGKILL')
    rmSync(p.pidFile, {force: true})
  }
  live.clear()
  for (const f of exitCleanups) {
    try {
      f()
    } catch {
      /* best effort */
    }
  }
}

const exitCleanups = new Set<() => void>()

/** Registers a synchronous cleanup (e.g. removing a data dir) to run if the process exits before it's undone. */
export function onExitCleanup(f: () => void): () => void {
  installHandlers()
  exitCleanups.add(f)
  return () => exitCleanups.delete(f)
}

function installHandlers(): void {
  if (handlersInstalled) return
  handlersInstalled = true
  process.on('exit', killAllNow)
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = () => {
      // If someone else (vitest, controlplane/cluster.ts) also listens, they own the shutdown and will exit,
      // which runs killAllNow via 'exit'. If we are the only listener, restore the default behaviour: clean up,
      // then die of the same signal.
      if (process.listenerCount(sig) > 1) return
      killAllNow()
      process.removeListener(sig, handler)
      process.kill(process.pid, sig)
    }
    process.on(sig, handler)
  }
}

export interface SpawnOptions {
  name: string
  binary: string
  args: string[]
  logFile: string
  /** Directory holding one pid file per running process (the control plane's `<dataDir>/pids`). */
  pidDir: string
  env?: NodeJS.ProcessEnv
}

export function spawnManaged(o: SpawnOptions): ManagedProcess {
  installHandlers()
  mkdirSync(o.pidDir, {recursive: true})
  const fd = openSync(o.logFile, 'a')
  let child: ChildProcess
  try {
    child = spawn(o.binary, o.args, {
      // Own process group, so stop() and the exit handler can kill the server and anything it forked.
      detached: true,
      stdio: ['ignore', fd, fd],
      env: o.env ?? process.env,
    })
  } finally {
    closeSync(fd)
  }
  if (child.pid === undefined) throw new Error(`could not start ${o.binary}`)
  // Don't let a running server keep the Node event loop alive; the owner decides when to stop it.
  child.unref()
  const pid = child.pid
  const pidFile = join(o.pidDir, `${o.name}.${pid}.json`)
  const rec: PidRecord = {pid, name: o.name, binary: o.binary, owner: process.pid}
  writeFileSync(pidFile, JSON.stringify(rec))
  let done = false
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true
      live.delete(mp)
      rmSync(pidFile, {force: true})
      resolve(code ?? signal ?? 'unknown')
    })
    child.once('error', () => {
      done = true
      live.delete(mp)
      rmSync(pidFile, {force: true})
      resolve('spawn-error')
    })
  })
  const mp = {
    name: o.name,
    pid,
    logFile: o.logFile,
    child,
    exited,
    pidFile,
    get done() {
      return done
    },
    async stop(graceMs = 10_000) {
      if (done) return
      // Keep the event loop alive until the exit is observed: the child is unref'd while it runs, and once the
      // SIGKILL timer has fired nothing else may be holding a script that only awaits stop().
      child.ref()
      killGroup(pid, 'SIGTERM')
      const t = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs)
      await exited
      clearTimeout(t)
      // The leader is gone; make sure nothing it forked lingers in the group.
      killGroup(pid, 'SIGKILL')
    },
  }
  live.add(mp)
  return mp
}

/** Last `n` lines of a log file, for error messages. */
export function tail(file: string, n = 30): string {
  try {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    return lines.slice(-n).join('\n')
  } catch {
    return '(no log)'
  }
}

/** The uid that owns a file or directory (a /proc/<pid> directory: the process's user); undefined if gone. */
function ownerUid(path: string): number | undefined {
  try {
    return statSync(path).uid
  } catch {
    return undefined
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** True if `pid` still runs `binary` (guards against pid reuse before we SIGKILL a recorded pid). */
function runs(pid: number, binary: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] === binary
  } catch {
    return false
  }
}

/**
 * Kills every process recorded in `pidDir`, whoever started it (e.g. a kube-controller-manager a test worker
 * started against the shared apiserver), after checking the pid still runs the recorded binary.
 */
export function killRecorded(pidDir: string, only: {uid?: number; binaries?: string} = {}): void {
  if (!existsSync(pidDir)) return
  for (const f of readdirSync(pidDir)) {
    try {
      const rec = JSON.parse(readFileSync(join(pidDir, f), 'utf8')) as PidRecord
      const ours = (only.uid === undefined || ownerUid(`/proc/${rec.pid}`) === only.uid) && (only.binaries === undefined || rec.binary.startsWith(`${only.binaries}/`))
      if (ours && runs(rec.pid, rec.binary)) killGroup(rec.pid, 'SIGKILL')
    } catch {
      /* unreadable or half-written pid file: nothing we can safely kill */
    }
    rmSync(join(pidDir, f), {force: true})
  }
}

/**
 * Cleans up after runs whose owner died without running its exit handlers (SIGKILL, OOM, a crashed CI step):
 * for every default data dir in os.tmpdir() that this user made and whose owner pid is gone, kill its recorded
 * processes (only those this user runs from `binaries`, the binary cache) and delete it. On a shared machine
 * another user's control planes, and anything not started from this cache, are left alone.
 */
export function reapStale(log: (s: string) => void, binaries: string): void {
  const uid = process.getuid?.()
  let entries: string[]
  try {
    entries = readdirSync(tmpdir()).filter((e) => e.startsWith(DATA_DIR_PREFIX))
  } catch {
    return
  }
  for (const e of entries) {
    const dir = join(tmpdir(), e)
    if (uid !== undefined && ownerUid(dir) !== uid) continue // another user's run
    let owner: number
    try {
      owner = Number(readFileSync(join(dir, 'owner'), 'utf8').trim())
    } catch {
      continue // being created right now, or not ours
    }
    if (!owner || isAlive(owner)) continue
    log(`reaping stale control plane ${dir} (owner pid ${owner} is gone)`)
    killRecorded(join(dir, 'pids'), {uid, binaries})
    rmSync(dir, {recursive: true, force: true, maxRetries: 5})
  }
}

const START_TIMEOUT_MS = 60_000

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))))
    })
  })
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `probe` every 100 ms until it returns true; fails early if `proc` exits, or after `timeoutMs`. */
export async function waitFor(what: string, proc: ManagedProcess, probe: () => Promise<boolean>, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let lastErr = ''
  while (Date.now() < deadline) {
    if (proc.done) {
      throw new StartError(`${what}: ${proc.name} exited (${await proc.exited}) before becoming ready`, proc)
    }
    try {
      if (await probe()) return
    } catch (e) {
      lastErr = (e as Error).message
    }
    await sleep(100)
  }
  throw new StartError(`${what}: not ready after ${timeoutMs / 1000} s${lastErr ? ` (last error: ${lastErr})` : ''}`, proc)
}

export class StartError extends Error {
  constructor(message: string, readonly proc: ManagedProcess) {
    super(`${message}\n--- last lines of ${proc.logFile} ---\n${tail(proc.logFile)}`)
  }
  /** A lost race for a port we picked: worth retrying with another one. */
  get portTaken(): boolean {
    return /address already in use/i.test(tail(this.proc.logFile, 50))
  }
}

/** A control-plane component started by this process (kube-controller-manager, kube-scheduler, kwok). */
export interface Component {
  pid: number
  logFile: string
  stop(): Promise<void>
}

/**
 * Starts one component on a fresh loopback port (its health endpoint) in `<dataDir>/<dirName>-<pid>-<port>/`,
 * recorded in the data dir's pid records, so the control plane's stop() and the stale-run reaper find it
 * whoever started it. Waits until `ready(port)`; a port lost to someone else is retried with another.
 */
export async function startComponent(o: {
  dataDir: string
  name: string
  dirName: string
  binary: string
  args: (port: number, dir: string) => string[]
  ready: (port: number) => Promise<boolean>
  timeoutMs?: number
}): Promise<Component> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const dir = join(o.dataDir, `${o.dirName}-${process.pid}-${port}`)
    mkdirSync(dir, {recursive: true})
    const proc = spawnManaged({
      name: o.name,
      binary: o.binary,
      logFile: join(dir, `${o.name}.log`),
      pidDir: join(o.dataDir, 'pids'),
      args: o.args(port, dir),
    })
    try {
      await waitFor(o.name, proc, () => o.ready(port), o.timeoutMs)
    } catch (e) {
      await proc.stop(1000)
      if (e instanceof StartError && e.portTaken && attempt < 5) continue
      throw e
    }
    return {pid: proc.pid, logFile: proc.logFile, stop: () => proc.stop(5000)}
  }
}
