// kctl watch's benchmark: the memory the watch cache keeps per pod, and the time from a pod event
// to the re-planned controllers, with 150,000 pods and 10,000 ReplicaSets cached.
//
//   npm run build && node bench/watch.mjs [--pods N] [--replicasets N] [--events N]
//
// It runs the real code path on data in memory: a SharedInformer per resource (pages of 500 from a
// scripted lister, through the same transform the live source uses: stripping, the Normalizer,
// interning), the WatchEngine's handlers feeding the incremental planner, and the work queue.
//   - cache bytes per pod: heap growth (after GC) from caching the pods in the informer and the
//     planner's index, divided by the number of pods; target <= 1 KB;
//   - event -> re-plan latency: a MODIFIED pod event (a new resourceVersion, readiness or restarts
//     changed), from its line of JSON as the watch stream carries it, through the informer, until
//     the changed plans have been rendered as NDJSON lines; each event is its own batch; target p99 <= 50 ms.
// Floors, measured in the same run on the same data: the same pods kept as parsed JSON in a plain
// Map keyed by namespace/name (bytes per pod), and the same event lines parsed and set into that
// Map (latency per event): what any cache pays before a single rule runs.
// Results: a table on stdout and bench/out/watch-results.json.
import {spawnSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const TARGETS = {bytesPerPod: 1024, p99Ms: 50}

if (typeof globalThis.gc !== 'function') {
  // Heap deltas need a full GC before each reading: run again with --expose-gc.
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {stdio: 'inherit'})
  process.exit(r.status ?? 1)
}

const args = process.argv.slice(2)
const arg = (name, dflt) => {
  const i = args.indexOf(name)
  return i >= 0 ? Number(args[i + 1]) : dflt
}
const PODS = arg('--pods', 150_000)
const REPLICASETS = arg('--replicasets', 10_000)
const EVENTS = arg('--events', 2000)

const load = (p) => import(pathToFileURL(join(root, 'dist', p)).href)
const {makeWorld} = await import(pathToFileURL(join(here, 'generate.mjs')).href)
const {SharedInformer} = await load('watch/informer.js')
const {Interner} = await load('watch/objects.js')
const {normalizePods} = await load('watch/pods.js')
const {normalizeWorkloads} = await load('controllers/replicaset/watch.js')
const {WatchEngine} = await load('watch/engine.js')
const {realClock} = await load('watch/clock.js')
const {DEFAULT_FEATURE_GATES} = await load('model/plan.js')
const {watchUpdateLine} = await load('render/watch-ndjson.js')

const heap = () => {
  for (let i = 0; i < 4; i++) globalThis.gc()
  return process.memoryUsage().heapUsed
}
const mib = (b) => `${(b / 1048576).toFixed(1)} MiB`
const log = (s) => process.stderr.write(`${s}\n`)

log(`generating ${REPLICASETS} ReplicaSets and ${PODS} pods ...`)
// The API server's list pages, as the bytes of their JSON (items without kind and apiVersion, as
// in a PodList): parsed when listed, like the live source does with each response. Kept as
// Buffers, outside the JS heap, so they do not blur the heap measurements.
function pages(objects, listKind) {
  const out = []
  for (let i = 0; i < objects.length; i += 500) {
    const items = objects.slice(i, i + 500).map(({kind: _k, apiVersion: _a, ...rest}) => rest)
    out.push(Buffer.from(JSON.stringify({kind: listKind, apiVersion: 'v1', metadata: {resourceVersion: '2000000'}, items})))
  }
  return out
}
let world = makeWorld({replicaSets: REPLICASETS, pods: PODS})
const podPages = pages(world.pods, 'PodList')
const rsPages = pages(world.replicaSets, 'ReplicaSetList')
world = undefined

// The events, made once so that the floor and kctl apply the same lines: MODIFIED pods with a new
// resourceVersion, readiness flipped or a restart, as the watch stream carries them.
let seed = 7
const rnd = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}
let rv = 3_000_000
const eventLines = []
for (let i = 0; i < EVENTS; i++) {
  const page = podPages[Math.floor(rnd() * podPages.length)]
  const items = JSON.parse(page.toString('utf8')).items
  const base = items[Math.floor(rnd() * items.length)]
  const ready = rnd() < 0.5
  const raw = {
    ...base,
    metadata: {...base.metadata, resourceVersion: String(++rv)},
    status: {
      ...base.status,
      conditions: [{type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-11-21T23:59:59Z'}, ...(base.status.conditions ?? []).filter((c) => c.type !== 'Ready')],
      containerStatuses: (base.status.containerStatuses ?? [{name: 'main', restartCount: 0}]).map((c) => ({...c, ready, restartCount: c.restartCount + (rnd() < 0.2 ? 1 : 0)})),
    },
  }
  eventLines.push(JSON.stringify({type: 'MODIFIED', object: raw}))
}

// Floor: the pods as parsed JSON in a plain Map, and the same events set into it.
const floor = (() => {
  const start = heap()
  let map = new Map()
  for (const page of podPages) for (const item of JSON.parse(page.toString('utf8')).items) map.set(`${item.metadata.namespace}/${item.metadata.name}`, item)
  const bytes = heap() - start
  const size = map.size
  const lat = []
  for (const line of eventLines) {
    const t0 = performance.now()
    const event = JSON.parse(line)
    map.set(`${event.object.metadata.namespace}/${event.object.metadata.name}`, event.object)
    lat.push(performance.now() - t0)
  }
  map = undefined
  lat.sort((a, b) => a - b)
  return {bytesPerPod: Math.round(bytes / size), lat}
})()
log(`floor: a plain Map of the parsed pods, ${floor.bytesPerPod} bytes per pod; the same events set into it`)

/** A lister over those pages; its watch never delivers (the benchmark applies events itself). */
function lister(pageBuffers) {
  return {
    async list(o) {
      const at = o.continue ? Number(o.continue) : 0
      const page = JSON.parse(pageBuffers[at].toString('utf8'))
      return {items: page.items, resourceVersion: page.metadata.resourceVersion, continue: at + 1 < pageBuffers.length ? String(at + 1) : undefined}
    },
    async watch(_o, signal) {
      return (async function* () {
        await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), {once: true}))
      })()
    },
  }
}

const interner = new Interner()
let deferred
let emitted = 0
let rendering = false
let bytesOut = 0
const engine = new WatchEngine({
  featureGates: {...DEFAULT_FEATURE_GATES},
  burstReplicas: 500,
  clock: realClock,
  // Each change is rendered as the NDJSON line `kctl watch -o json` prints (not written anywhere).
  emit: (u) => {
    if (u.kind === 'PlanChange') emitted++
    if (rendering) bytesOut += watchUpdateLine(u).length
  },
  defer: (fn) => (deferred = fn),
})
const options = {clock: realClock, pageSize: 500, watchdogMs: 3_600_000}
const pods = new SharedInformer('pods', lister(podPages), (raws) => normalizePods(raws, interner), options)
const replicaSets = new SharedInformer('replicasets', lister(rsPages), (raws) => normalizeWorkloads('ReplicaSet', raws, interner), options)
replicaSets.addEventHandler(engine.workloadHandler)

const ac = new AbortController()
// 0. Memory: the ReplicaSets' cache (with the annotations and template the Deployment planner reads).
const beforeRs = heap()
const runningRs = replicaSets.run(ac.signal)
await waitFor(() => replicaSets.hasSynced)
const rsCacheBytes = heap() - beforeRs
log(`cached ${replicaSets.size} ReplicaSets: ${mib(rsCacheBytes)} (${Math.round(rsCacheBytes / replicaSets.size)} bytes per ReplicaSet)`)

// 1. Memory: the pods' cache (informer store + cached objects) and the planner's index of them.
const before = heap()
let t = performance.now()
pods.addEventHandler(engine.podHandler)
const runningPods = pods.run(ac.signal)
await waitFor(() => pods.hasSynced)
const syncMs = performance.now() - t
const after = heap()
const cacheBytes = after - before
log(`cached ${pods.size} pods in ${(syncMs / 1000).toFixed(1)} s: ${mib(cacheBytes)} (${Math.round(cacheBytes / pods.size)} bytes per pod)`)

// 2. The first plan of every controller.
t = performance.now()
engine.markSynced()
const initialMs = performance.now() - t
const plansBytes = heap() - after
log(`planned ${engine.controllers} controllers in ${initialMs.toFixed(0)} ms (${mib(plansBytes)} of plans)`)

// 3. Event -> re-plan latency: one MODIFIED pod event at a time (the floor's lines).
const latencies = []
rendering = true
let replans = 0
for (const line of eventLines) {
  // The event as the watch stream carries it: one line of JSON, parsed on arrival.
  const before = emitted
  const start = performance.now()
  const event = JSON.parse(line)
  pods.apply(event.type, event.object)
  const run = deferred
  deferred = undefined
  run?.()
  latencies.push(performance.now() - start)
  replans += emitted - before
}
ac.abort()
await Promise.allSettled([runningRs, runningPods])

latencies.sort((a, b) => a - b)
const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
const q = (p) => quantile(latencies, p)
const result = {
  params: {pods: PODS, replicaSets: REPLICASETS, events: EVENTS, node: process.version},
  cache: {bytes: cacheBytes, bytesPerPod: Math.round(cacheBytes / pods.size), pods: pods.size, syncSeconds: +(syncMs / 1000).toFixed(2), target: TARGETS.bytesPerPod, bytesPerReplicaSet: Math.round(rsCacheBytes / replicaSets.size)},
  initialPlan: {controllers: engine.controllers, ms: Math.round(initialMs), plansBytes},
  latency: {p50: +q(0.5).toFixed(3), p90: +q(0.9).toFixed(3), p99: +q(0.99).toFixed(3), max: +latencies.at(-1).toFixed(3), events: EVENTS, planChanges: replans, target: TARGETS.p99Ms},
  floor: {
    what: 'the same pods as parsed JSON in a plain Map; the same event lines parsed and set into it',
    bytesPerPod: floor.bytesPerPod,
    p50: +quantile(floor.lat, 0.5).toFixed(4),
    p99: +quantile(floor.lat, 0.99).toFixed(4),
  },
}
result.vsFloor = {
  bytesPerPod: +(result.cache.bytesPerPod / result.floor.bytesPerPod).toFixed(3),
  p50: +(result.latency.p50 / result.floor.p50).toFixed(1),
  p99: +(result.latency.p99 / result.floor.p99).toFixed(1),
}
const ok = (v, target) => (v <= target ? 'ok' : 'OVER TARGET')
process.stdout.write(
  [
    `kctl watch, ${pods.size} pods and ${engine.controllers} ReplicaSets cached (${process.version})`,
    `  cache per pod         ${String(result.cache.bytesPerPod).padStart(8)} bytes   target <= ${TARGETS.bytesPerPod}   ${ok(result.cache.bytesPerPod, TARGETS.bytesPerPod)}   floor (plain Map of parsed pods) ${result.floor.bytesPerPod} bytes: ${result.vsFloor.bytesPerPod}x`,
    `  cache per ReplicaSet  ${String(result.cache.bytesPerReplicaSet).padStart(8)} bytes`,
    `  event -> plan p50     ${result.latency.p50.toFixed(3).padStart(8)} ms      floor (parse + Map.set) ${result.floor.p50.toFixed(4)} ms: ${result.vsFloor.p50}x`,
    `  event -> plan p99     ${result.latency.p99.toFixed(3).padStart(8)} ms      target <= ${TARGETS.p99Ms}     ${ok(result.latency.p99, TARGETS.p99Ms)}   floor ${result.floor.p99.toFixed(4)} ms: ${result.vsFloor.p99}x`,
    `  event -> plan max     ${result.latency.max.toFixed(3).padStart(8)} ms   (${EVENTS} events, ${replans} plan changes)`,
    `  initial sync          ${result.cache.syncSeconds.toFixed(1).padStart(8)} s    first plan of every controller ${result.initialPlan.ms} ms`,
    '',
  ].join('\n'),
)
mkdirSync(join(here, 'out'), {recursive: true})
writeFileSync(join(here, 'out', 'watch-results.json'), `${JSON.stringify(result, null, 2)}\n`)
process.exit(result.cache.bytesPerPod <= TARGETS.bytesPerPod && result.latency.p99 <= TARGETS.p99Ms ? 0 : 1)

async function waitFor(cond) {
  while (!cond()) await new Promise((r) => setTimeout(r, 5))
}
