// HorizontalPodAutoscalers in the simulation, under `--load`: the controller runs every sync
// period (15 s) from the start of the run (an HPA created less than a period before the start and
// never synced: from one period after its creation, as the real controller first syncs it), with
// the memory a running controller keeps — the recommendations its stabilization window reads and
// the scale events its behavior policies count — held by the run, so what a fresh plan has to
// assume is known here. Its metrics are synthesized at each sync from the load given for its
// target:
//   - Resource and ContainerResource: the demand in all (e.g. CPU millicores), spread evenly over
//     the target's Ready pods (integer thousandths, the remainder to the first pods by name); a
//     Running pod not Ready reports 0. Each sample is stamped with the sync's time and a 30 s
//     window (metrics-server's), so a pod that just became Ready is still unready to the CPU
//     initialization rules until its sample's window lies after its Ready transition — as the
//     real controller sees a pod whose sample still covers its start;
//   - Pods: the demand in all, spread the same way, one value per Running pod;
//   - Object and External: the demand as the one value.
// A metric no loaded series names is answered with an error (the controller reports it failed).
// An HPA whose target no --load names is left as read (notSimulated), as without --load.
// The controller's writes — the target's scale (spec.replicas, generation + 1) and the HPA's
// status — are carried out on the memory world by this part (the executor does not carry out HPA
// plans); the Deployment, ReplicaSet and StatefulSet controllers see them in the next round.
import {groupOf, replicasFieldPath, withField, type MemoryWorld} from '../../apply/memory-world.js'
import type {PodView, Snapshot} from '../../model/objects.js'
import type {ControllerPlan, PlannerOptions} from '../../model/plan.js'
import type {Simulation, SimulationStep} from '../../model/simulation.js'
import {planningWorld} from '../../reconcile/planner.js'
import {PodIndex} from '../../reconcile/pod-index.js'
import {parseSelectorString, selectorMatches} from '../../reconcile/selector.js'
import {formatRfc3339, objectTime, seconds} from '../../reconcile/time.js'
import {count} from '../../render/words.js'
import {cmp} from '../../simulate/collections.js'
import {changeOffsets, demandAt, pointLabel, type LoadSeries} from '../../simulate/load.js'
import type {ControllerSimulation, Described, OwnSyncs, PlacedLoad, RunContext, SimulationRun, StepAction, Unlisted} from '../../simulate/part.js'
import {offset} from '../../simulate/report.js'
import {formatDuration} from '../../watch/duration.js'
import {hpaStatusWrite} from './apply.js'
import {milliValue} from './defaults.js'
import {DEFAULT_HPA_CONFIG, DEFAULT_HPA_GATES, type HpaHistory, type HpaObject, type HpaStatus, type MetricAnswer, type MetricSpec, type ScaleTargetAction} from './model.js'
import {HpaPlanIndex, metricName, planHpa, readScale, scaleTargets} from './planner.js'
import {tolerancesFor} from './replicas.js'
import type {AutoscalerInterval, AutoscalerPoint, AutoscalerScaleEvent, AutoscalerTimeline} from './timeline.js'

type Obj = Record<string, any>

/** The window metrics-server reports with its samples. */
export const METRIC_WINDOW_SECONDS = 30

const SYNC_PERIOD = seconds(DEFAULT_HPA_CONFIG.syncPeriodSeconds)

/**
 * When the controller first syncs an HPA in the run: at the start, or, for an HPA it has never
 * synced (no condition in its status) created less than a sync period before the start, one sync
 * period after its creation — the informer's add event queues it rate-limited, and the HPA rate
 * limiter always waits the full period (enqueueHPA, NewDefaultHPARateLimiter in
 * pkg/controller/podautoscaler).
 */
export function firstSync(hpa: Pick<HpaObject, 'creationTimestamp' | 'status'>, start: bigint): bigint {
  const created = objectTime(hpa.creationTimestamp)
  if (created === undefined || (hpa.status?.conditions ?? []).length > 0) return start
  return created + SYNC_PERIOD > start ? created + SYNC_PERIOD : start
}

/** The --load for an HPA's target, if one names it. */
export function loadFor(hpa: {namespace: string; spec: {scaleTargetRef: {kind: string; name: string}}}, loads: readonly PlacedLoad[]): PlacedLoad | undefined {
  const ref = hpa.spec.scaleTargetRef
  return loads.find((l) => l.namespace === hpa.namespace && l.kind === ref.kind && l.name === ref.name)
}

/** `600m` for 600 thousandths. */
const milliText = (milli: number) => `${milli}m`

/** `total` thousandths over `n` parts: equal integer shares, the remainder one each to the first. */
export function spread(total: number, n: number): number[] {
  if (n <= 0) return []
  const base = Math.floor(total / n)
  const rest = total - base * n
  return Array.from({length: n}, (_, i) => base + (i < rest ? 1 : 0))
}

/** The series a metric of the HPA reads, by the metric's name (`cpu` for a Resource metric on CPU). */
function seriesOf(m: MetricSpec, load: PlacedLoad): LoadSeries | undefined {
  const s = m as Obj
  const name: string | undefined = s.resource?.name ?? s.containerResource?.name ?? s.pods?.metric?.name ?? s.object?.metric?.name ?? s.external?.metric?.name
  return name === undefined ? undefined : load.series.find((x) => x.metric === name)
}

/** The target's pods that report metrics (Running, not terminating), by name, and which of them are Ready. */
function runningPods(pods: readonly PodView[]): PodView[] {
  return pods.filter((p) => p.phase === 'Running' && !p.deletionTimestamp).sort((a, b) => cmp(a.name, b.name))
}

/**
 * The metrics APIs' answers at `now`, synthesized from the load: one per entry of spec.metrics
 * (same order), from the pods the target's selector matches.
 */
export function loadAnswers(hpa: HpaObject, load: PlacedLoad, pods: readonly PodView[], now: bigint, start: bigint): MetricAnswer[] {
  const at = Number(now - start) / 1e9
  const timestamp = formatRfc3339(now)
  const running = runningPods(pods)
  const ready = running.filter((p) => p.ready)
  return hpa.spec.metrics.map((m): MetricAnswer => {
    const series = seriesOf(m, load)
    if (!series) return {kind: 'error', message: `no --load series names ${metricName(m) || m.type}`}
    const total = demandAt(series, at)
    const shares = spread(total, ready.length)
    const share = new Map(ready.map((p, i) => [p.name, shares[i]]))
    const s = m as Obj
    switch (m.type) {
      case 'Resource':
      case 'ContainerResource': {
        const resource: string = s.resource?.name ?? s.containerResource.name
        const carrying: string | undefined = s.containerResource?.container
        return {
          kind: 'podMetrics',
          items: running.map((p) => {
            const names = (p.autoscaling?.containers ?? []).map((c) => c.name)
            const containers = names.length > 0 ? names : [carrying ?? 'main']
            // The pod's usage on the container the metric reads (a Resource metric sums them: the first carries it).
            const on = carrying !== undefined && containers.includes(carrying) ? carrying : containers[0]
            return {name: p.name, timestamp, windowSeconds: METRIC_WINDOW_SECONDS, containers: containers.map((c) => ({name: c, usage: {[resource]: milliText(c === on ? (share.get(p.name) ?? 0) : 0)}}))}
          }),
        }
      }
      case 'Pods':
        return {kind: 'podValues', items: running.map((p) => ({pod: p.name, value: milliText(share.get(p.name) ?? 0), timestamp}))}
      case 'Object':
        return {kind: 'objectValues', items: [{value: milliText(total), timestamp}]}
      case 'External':
        return {kind: 'externalValues', items: [{value: milliText(total), timestamp}]}
      default:
        return {kind: 'missing'}
    }
  })
}

/** Thousandths of a quantity, or undefined. */
function milli(q: string | undefined): number | undefined {
  if (q === undefined) return undefined
  try {
    return Number(milliValue(q))
  } catch {
    return undefined
  }
}

/** What one Ready pod carries at the HPA's target for this metric (thousandths); undefined for a metric with no per-pod target (Object, External). */
export function perPodTarget(m: MetricSpec, pod: PodView): number | undefined {
  const s = m as Obj
  const src = s.resource ?? s.containerResource ?? s.pods
  if (!src || m.type === 'Object' || m.type === 'External') return undefined
  const target = src.target ?? {}
  if (target.type === 'AverageValue') return milli(target.averageValue)
  if (target.type !== 'Utilization' || typeof target.averageUtilization !== 'number') return undefined
  const containers = pod.autoscaling?.containers ?? []
  const resource: string = src.name
  const asked = m.type === 'ContainerResource' ? containers.filter((c) => c.name === s.containerResource.container) : containers
  const podLevel = m.type === 'Resource' ? milli(pod.autoscaling?.podRequests?.[resource]) : undefined
  const request = podLevel ?? asked.reduce((sum, c) => sum + (milli(c.requests[resource]) ?? 0), 0)
  return Math.floor((request * target.averageUtilization) / 100)
}

/** The target's pods, by the scale's selector. */
function targetPods(hpa: HpaObject, snapshot: Snapshot): {pods: PodView[]; replicas?: number} {
  const {scale} = readScale(hpa, scaleTargets(snapshot))
  if (!('scale' in scale) || scale.scale.selector === '') return {pods: []}
  try {
    const selector = parseSelectorString(scale.scale.selector)
    return {pods: snapshot.pods.filter((p) => p.namespace === hpa.namespace && selectorMatches(selector, p.labels)), replicas: scale.scale.specReplicas}
  } catch {
    return {pods: []}
  }
}

/**
 * The demand of the first loaded metric at `at` seconds, and what the Ready pods carry at the
 * target (capacity) for the first loaded metric with a per-pod target (not Object or External).
 */
function demandAndCapacity(hpa: HpaObject, load: PlacedLoad, pods: readonly PodView[], at: number): {metric: string; demand: number; capacity?: number} | undefined {
  const ready = runningPods(pods).filter((p) => p.ready)
  let first: {metric: string; demand: number} | undefined
  for (const m of hpa.spec.metrics) {
    const series = seriesOf(m, load)
    if (!series) continue
    const demand = demandAt(series, at)
    first ??= {metric: series.metric, demand}
    if (m.type === 'Object' || m.type === 'External') continue
    const per = ready.map((p) => perPodTarget(m, p))
    if (per.some((x) => x === undefined)) continue
    return {metric: series.metric, demand, capacity: per.reduce<number>((a, b) => a + (b ?? 0), 0)}
  }
  return first
}

interface Tracked {
  hpa: HpaObject
  load: PlacedLoad
  history?: HpaHistory
  nextSync: bigint
  syncs: number
  curve: AutoscalerPoint[]
  scaleEvents: AutoscalerScaleEvent[]
  limited: Array<AutoscalerInterval & {reason: string; message: string}>
  unmet?: {metric: string; seconds: number; intervals: AutoscalerInterval[]; since?: bigint; lastAt?: bigint; lastUnmet: boolean}
}

/** The HPA controller's run: its memory per HPA, its syncs, and the timelines. */
export class HpaRun implements SimulationRun, OwnSyncs {
  readonly syncs: OwnSyncs = this
  private readonly tracked = new Map<string, Tracked>()
  private readonly changes: bigint[]
  /**
   * The controller's selector map (hpaSelectors): `ns/name` → the selector its last sync
   * registered (validateAndParseSelector). An HPA not yet synced has none (enqueueHPA's
   * match-nothing); a deleted one is dropped (deleteHPA).
   */
  private readonly selectors = new Map<string, string>()

  constructor(private readonly ctx: RunContext) {
    this.changes = [...new Set(ctx.loads.flatMap((l) => changeOffsets(l)))].map((s) => ctx.start + seconds(s)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  }

  private seconds(t: bigint): number {
    return Number(t - this.ctx.start) / 1e9
  }

  private track(hpa: HpaObject): Tracked | undefined {
    let t = this.tracked.get(hpa.uid)
    if (t) {
      t.hpa = hpa
      return t
    }
    const load = loadFor(hpa, this.ctx.loads)
    if (!load) return undefined
    this.tracked.set(hpa.uid, (t = {hpa, load, nextSync: firstSync(hpa, this.ctx.start), syncs: 0, curve: [], scaleEvents: [], limited: []}))
    return t
  }

  /** Unmet demand, integrated between the instants the loop looks (demand and Ready pods only change at those). */
  sample(snapshot: Snapshot, now: bigint): void {
    for (const hpa of snapshot.hpas ?? []) {
      const t = this.track(hpa)
      if (!t) continue
      const {pods} = targetPods(hpa, snapshot)
      const dc = demandAndCapacity(hpa, t.load, pods, this.seconds(now))
      if (!dc || dc.capacity === undefined) continue
      const tolerance = tolerancesFor(hpa.spec, DEFAULT_HPA_CONFIG.tolerance, DEFAULT_HPA_GATES).up
      const unmet = dc.demand > dc.capacity * (1 + tolerance)
      const u = (t.unmet ??= {metric: dc.metric, seconds: 0, intervals: [], lastUnmet: false})
      this.advance(u, now)
      if (unmet && u.since === undefined) u.since = now
      if (!unmet && u.since !== undefined) {
        u.intervals.push({fromSeconds: this.seconds(u.since), toSeconds: this.seconds(now)})
        u.since = undefined
      }
      u.lastUnmet = unmet
    }
  }

  private advance(u: NonNullable<Tracked['unmet']>, now: bigint): void {
    if (u.lastAt !== undefined && u.lastUnmet && now > u.lastAt) u.seconds += Number(now - u.lastAt) / 1e9
    u.lastAt = now
  }

  sync(world: MemoryWorld, snapshot: Snapshot, now: bigint): {plans: ControllerPlan[]; warnings: string[]} {
    const due = (snapshot.hpas ?? []).flatMap((h) => {
      const t = this.track(h)
      return t && t.nextSync <= now ? [t] : []
    })
    if (due.length === 0) return {plans: [], warnings: []}
    const options = {now: formatRfc3339(now), featureGates: this.ctx.featureGates} as unknown as PlannerOptions
    const planning = planningWorld(new PodIndex(snapshot.pods), new Map(), options, () => undefined)
    const targets = scaleTargets(snapshot)
    // One index of the round's snapshot for every HPA due in it.
    const index = new HpaPlanIndex(snapshot)
    const plans: ControllerPlan[] = []
    const warnings: string[] = []
    this.registerUnsimulated(snapshot, targets)
    for (const t of due) {
      const {hpa, load} = t
      const key = `${hpa.namespace}/${hpa.name}`
      const otherHpaSelectors = [...this.selectors].filter(([k]) => k !== key && k.startsWith(`${hpa.namespace}/`)).map(([k, selector]) => ({key: k, selector}))
      const {plan, detail} = planHpa(hpa, snapshot, planning, targets, {history: t.history, answers: (_selector, pods) => loadAnswers(hpa, load, pods, now, this.ctx.start), otherHpaSelectors}, index)
      if (detail.selector !== undefined) this.selectors.set(key, detail.selector)
      t.history = detail.history
      t.nextSync = now + SYNC_PERIOD
      t.syncs++
      for (const w of plan.warnings) warnings.push(`HorizontalPodAutoscaler ${hpa.namespace}/${hpa.name}: ${w}`)
      const write = plan.actions.find((a) => a.type === 'scaleTarget')
      for (const a of plan.actions) {
        if (a.type === 'scaleTarget') scaleWrite(world, hpa.namespace, a.target, a.to)
        if (a.type === 'updateHpaStatus') statusWrite(world, hpa, a.to)
      }
      plans.push(plan)
      // The timeline.
      const offsetSeconds = this.seconds(now)
      const time = formatRfc3339(now)
      const {pods} = targetPods(hpa, snapshot)
      const ready = runningPods(pods).filter((p) => p.ready).length
      const limit = detail.status.conditions.find((c) => c.type === 'ScalingLimited')
      if (write && write.type === 'scaleTarget') {
        t.scaleEvents.push({time, offsetSeconds, from: write.from, to: write.to, reason: write.reason, ...(limit?.status === 'True' && limit.reason ? {limitedBy: limit.reason} : {})})
      }
      const replicas = write && write.type === 'scaleTarget' ? write.to : (detail.currentReplicas ?? 0)
      const dc = demandAndCapacity(hpa, load, pods, offsetSeconds)
      const point: AutoscalerPoint = {time, offsetSeconds, replicas, desired: detail.status.desiredReplicas, ready}
      if (dc) point.demand = milliText(dc.demand)
      if (dc?.capacity !== undefined) point.capacity = milliText(dc.capacity)
      const last = t.curve.at(-1)
      if (!last || last.replicas !== point.replicas || last.desired !== point.desired || last.ready !== point.ready || last.demand !== point.demand) t.curve.push(point)
      const open = t.limited.at(-1)?.toSeconds === undefined ? t.limited.at(-1) : undefined
      const limitedNow = limit?.status === 'True'
      if (open && (!limitedNow || open.reason !== (limit?.reason ?? ''))) open.toSeconds = offsetSeconds
      if (limitedNow && (!open || open.reason !== (limit?.reason ?? ''))) t.limited.push({fromSeconds: offsetSeconds, reason: limit?.reason ?? '', message: limit?.message ?? ''})
    }
    return {plans, warnings}
  }

  /**
   * The controller syncs every HPA, loaded or not: one no --load names (left as read) registers its
   * target's selector as its sync would (a scale read, replicas within its bounds and not 0, a
   * selector that parses). The deleted ones leave the map.
   */
  private registerUnsimulated(snapshot: Snapshot, targets: ReturnType<typeof scaleTargets>): void {
    const present = new Set<string>()
    for (const hpa of snapshot.hpas ?? []) {
      const key = `${hpa.namespace}/${hpa.name}`
      present.add(key)
      if (this.tracked.has(hpa.uid)) continue
      const {scale} = readScale(hpa, targets)
      if (!('scale' in scale)) continue
      const {specReplicas, selector} = scale.scale
      if (specReplicas === 0 || specReplicas < hpa.spec.minReplicas || specReplicas > hpa.spec.maxReplicas || selector === '') continue
      try {
        parseSelectorString(selector)
      } catch {
        continue
      }
      this.selectors.set(key, selector)
    }
    for (const key of [...this.selectors.keys()]) if (!present.has(key)) this.selectors.delete(key)
  }

  wakeAt(now: bigint): bigint | undefined {
    let next: bigint | undefined
    for (const t of this.tracked.values()) if (t.nextSync > now && (next === undefined || t.nextSync < next)) next = t.nextSync
    // Before the first view of the world nothing is tracked: the first syncs are at the start (or a period after a new HPA's creation).
    for (const c of this.changes) if (c > now && (next === undefined || c < next)) next = c
    return next
  }

  timelines(snapshot: Snapshot, _plan: unknown, _steps: readonly SimulationStep[], end: {end: bigint}): {autoscalers?: AutoscalerTimeline[]} {
    if (this.tracked.size === 0) return {}
    const autoscalers = [...this.tracked.values()]
      .sort((a, b) => cmp(a.hpa.namespace, b.hpa.namespace) || cmp(a.hpa.name, b.hpa.name))
      .map((t): AutoscalerTimeline => {
        const hpa = (snapshot.hpas ?? []).find((h) => h.uid === t.hpa.uid) ?? t.hpa
        const {pods, replicas} = targetPods(hpa, snapshot)
        let unmet: AutoscalerTimeline['unmet']
        if (t.unmet) {
          const u = t.unmet
          this.advance(u, end.end)
          const intervals = [...u.intervals, ...(u.since !== undefined ? [{fromSeconds: this.seconds(u.since)}] : [])]
          unmet = {metric: u.metric, seconds: u.seconds, intervals}
        }
        return {
          namespace: hpa.namespace,
          name: hpa.name,
          target: {kind: hpa.spec.scaleTargetRef.kind, name: hpa.spec.scaleTargetRef.name},
          minReplicas: hpa.spec.minReplicas,
          maxReplicas: hpa.spec.maxReplicas,
          load: t.load.series.map((s) => ({metric: s.metric, points: s.points.map((p) => ({atSeconds: p.atSeconds, value: p.value, ...(p.rampFromSeconds === undefined ? {} : {rampFromSeconds: p.rampFromSeconds})}))})),
          syncs: t.syncs,
          curve: t.curve,
          scaleEvents: t.scaleEvents,
          scalingLimited: t.limited,
          ...(unmet ? {unmet} : {}),
          final: {
            replicas: replicas ?? hpa.status.currentReplicas,
            desired: hpa.status.desiredReplicas,
            ready: runningPods(pods).filter((p) => p.ready).length,
            conditions: hpa.status.conditions.map((c) => ({type: c.type, status: c.status, ...(c.reason ? {reason: c.reason} : {})})),
          },
        }
      })
    return {autoscalers}
  }
}

/** PUT of the target's scale: spec.replicas (a custom resource's specReplicasPath), stored as a spec change (generation + 1). */
function scaleWrite(world: MemoryWorld, namespace: string, target: ScaleTargetAction['target'], replicas: number): void {
  const at = target.resource ? world.findObject(groupOf(target.apiVersion), target.kind, namespace, target.name) : world.find(target.kind, namespace, target.name)
  if (!at) return
  const o = at.object as Obj
  const metadata = {...o.metadata, generation: Number(o.metadata?.generation ?? 1) + 1, resourceVersion: world.nextResourceVersion()}
  world.replace(at, withField({...o, metadata}, replicasFieldPath(target.specReplicasPath), replicas))
}

/** PUT of the HPA's status. */
function statusWrite(world: MemoryWorld, hpa: HpaObject, status: HpaStatus): void {
  for (const file of world.files) {
    const o = file.objects.find((x) => (x as Obj).kind === hpa.kind && world.namespaceOf(x as Obj) === hpa.namespace && (x as Obj).metadata?.name === hpa.name) as Obj | undefined
    if (!o) continue
    const {currentMetrics, ...rest} = status
    const metadata = {...o.metadata, resourceVersion: world.nextResourceVersion()}
    if (o.apiVersion === 'autoscaling/v1') {
      // As the API server shows a v2 status on a v1 object: the conditions and metric statuses in their annotations.
      world.replace({file, object: o}, hpaStatusWrite(o, metadata.resourceVersion, status))
      return
    }
    world.replace({file, object: o}, {...o, metadata, status: {...rest, ...(currentMetrics ? {currentMetrics} : {})}})
    return
  }
}

/** The HPA's actions in the simulation's timeline: scale writes, and status writes that change a condition. */
function describeAction(a: StepAction): Described | Unlisted | undefined {
  if (a.type === 'scaleTarget') return {sign: '~', text: `scale ${a.target.kind} ${a.target.name} ${a.from}→${a.to} (${a.reason})`}
  if (a.type !== 'updateHpaStatus') return undefined
  const from = new Map(a.from.conditions.map((c) => [c.type, `${c.status}/${c.reason ?? ''}`]))
  const changed = a.to.conditions.filter((c) => from.get(c.type) !== `${c.status}/${c.reason ?? ''}`)
  if (changed.length === 0) return {unlisted: 'status write'}
  return {sign: '~', text: `status ${changed.map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`).join(', ')}`}
}

const span = (i: AutoscalerInterval) => `${offset(i.fromSeconds)}–${i.toSeconds === undefined ? 'end' : offset(i.toSeconds)}`

function summary(a: AutoscalerTimeline): string[] {
  const load = a.load.map((s) => `${s.metric} ${s.points.map((p) => pointLabel(p, (t) => (t === 0 ? '0s' : formatDuration(t * 1000)))).join(', ')}`).join('; ')
  const out = [`HorizontalPodAutoscaler ${a.namespace}/${a.name} → ${a.target.kind} ${a.target.name} (${a.minReplicas}–${a.maxReplicas} replicas), load ${load}: ${count(a.syncs, 'sync')}`]
  const shown = a.curve.filter((p, i) => i === 0 || p.replicas !== a.curve[i - 1].replicas || p.desired !== a.curve[i - 1].desired)
  out.push(`  replicas: ${shown.map((p) => `${offset(p.offsetSeconds)} ${p.replicas}${p.desired !== p.replicas ? ` (desired ${p.desired})` : ''}`).join(', ')}`)
  for (const e of a.scaleEvents) out.push(`  ${offset(e.offsetSeconds)} scale ${e.from}→${e.to}: ${e.reason}${e.limitedBy ? ` (limited: ${e.limitedBy})` : ''}`)
  for (const l of a.scalingLimited) out.push(`  ScalingLimited ${span(l)}: ${l.reason}`)
  if (a.unmet) out.push(`  unmet demand (${a.unmet.metric} above Ready pods × target, beyond tolerance): ${formatDuration(a.unmet.seconds * 1000)}${a.unmet.intervals.length > 0 ? ` (${a.unmet.intervals.map(span).join(', ')})` : ''}`)
  out.push(`  final: ${a.final.replicas} replicas, desired ${a.final.desired}, ${a.final.ready} Ready`)
  return out
}

/** The horizontal pod autoscaler controller in `kctl simulate` (under --load). */
export const hpaSimulation: ControllerSimulation = {
  // The HPA controller syncs no kind --apply-manifests applies.
  manifests: {},
  ownSyncs: true,
  start: (ctx) => new HpaRun(ctx),
  leftAsRead: (cp, loads) => {
    const ref = (cp.hpa as {target?: {kind: string; name: string}} | undefined)?.target
    if (ref && loads.some((l) => l.namespace === cp.namespace && l.kind === ref.kind && l.name === ref.name)) return undefined
    return 'no --load names its target: its metrics are read once, not modelled over time'
  },
  defaultUntil: (snapshot, loads) => {
    const hpas = (snapshot.hpas ?? []).filter((h) => loadFor(h, loads))
    if (hpas.length === 0) return undefined
    const last = Math.max(0, ...loads.flatMap((l) => changeOffsets(l)))
    const window = Math.max(
      DEFAULT_HPA_CONFIG.downscaleStabilizationSeconds,
      ...hpas.map((h) => h.spec.behavior?.scaleDown.stabilizationWindowSeconds ?? DEFAULT_HPA_CONFIG.downscaleStabilizationSeconds),
    )
    const s = last + window + 300
    return {seconds: s, why: `an autoscaler never goes quiet: simulated ${formatDuration(s * 1000)} (the load's last change, the longest scale-down stabilization window, and 5m); pass --until for more or less`}
  },
  counter: (snapshot) => (cp) => {
    const hpa = (snapshot.hpas ?? []).find((h) => h.uid === cp.uid)
    const pods = hpa ? targetPods(hpa, snapshot).pods : []
    const live = pods.filter((p) => !p.deletionTimestamp && p.phase !== 'Succeeded' && p.phase !== 'Failed')
    const ready = live.filter((p) => p.ready).length
    return {counts: {replicaSets: [], pods: {total: live.length, ready, available: ready, terminating: pods.filter((p) => p.deletionTimestamp).length}}}
  },
  describe: describeAction,
  report: {
    order: 5,
    summaries: (sim: Simulation) => (sim.autoscalers ?? []).map(summary),
    markdown: {
      header: ['| HPA | target | replicas | scale events | peak | ScalingLimited | unmet demand |', '| --- | --- | --- | --- | --- | --- | --- |'],
      rows: (sim) =>
        (sim.autoscalers ?? []).map(
          (a) =>
            `| ${a.namespace}/${a.name} | ${a.target.kind} ${a.target.name} | ${a.minReplicas}–${a.maxReplicas} | ${a.scaleEvents.map((e) => `${offset(e.offsetSeconds)} ${e.from}→${e.to}`).join(', ')} | ${Math.max(0, ...a.curve.map((p) => p.replicas))} | ${a.scalingLimited.map((l) => `${span(l)} ${l.reason}`).join(', ')} | ${a.unmet ? formatDuration(a.unmet.seconds * 1000) : ''} |`,
        ),
    },
  },
}
