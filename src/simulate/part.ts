// What a controller tells `kctl simulate`: how its pods run and end beyond the shared kubelet
// model, when it asks to be woken, what its steps count, what it remembers over a run and the
// timelines it builds from it, how its timelines read in the text and markdown reports, and what
// the what-if flags may change on its objects. The loop (loop.ts), the kubelet model (kubelet.ts),
// the what-ifs (changes.ts) and the report (render/simulation.ts) ask the registry's descriptors
// for these; src/controllers/<name>/simulate.ts answers.
import type {ActionResult} from '../model/apply.js'
import type {Snapshot} from '../model/objects.js'
import type {ControllerKind, ControllerPlan, FeatureGates, PlannerOptions, ReconcilePlan} from '../model/plan.js'
import type {RolloutVerdict, Simulation, SimulationStep} from '../model/simulation.js'
import type {MemoryWorld} from '../apply/memory-world.js'
import type {KubeletModel} from './kubelet.js'
import type {Load} from './load.js'
import type {LoopEnd} from './verdict.js'
import type {FieldStrategy} from './strategic-merge.js'

type Obj = Record<string, any>

/** A step's fields that say where the controller stands after its round. */
export type StepFields = Omit<SimulationStep, 'time' | 'offsetSeconds' | 'round' | 'controller' | 'actions'>

/** The Simulation document's per-controller timelines. */
export type TimelineField = 'deployments' | 'statefulSets' | 'daemonSets' | 'jobs' | 'cronJobs' | 'autoscalers'
export type Timelines = Partial<Pick<Simulation, TimelineField>>

/** The shared kubelet model's pod behaviour, handed to a controller whose pods do more (they run to completion). */
export interface PodModel {
  podAt(pod: Obj, now: bigint, model: KubeletModel): Obj | null | undefined
  podWakeAt(pod: Obj, now: bigint, model: KubeletModel, minReadySeconds: number): bigint | undefined
  isFailing(pod: Obj, fail: readonly string[]): boolean
}

/** A controller's pods when the shared model is not the whole story. */
export interface PodBehaviour {
  /** Whether this controller's model is the one for the pod. */
  owns(pod: Obj): boolean
  /** The pod at `now`: changed, `null` when gone, undefined when unchanged. */
  at(pod: Obj, now: bigint, model: KubeletModel, base: PodModel): Obj | null | undefined
  /** The next instant after `now` the model changes the pod. */
  wakeAt(pod: Obj, now: bigint, model: KubeletModel, base: PodModel): bigint | undefined
}

/** A --load, with the namespace its workload was found in. */
export interface PlacedLoad extends Load {
  namespace: string
}

/** What every run starts from. */
export interface RunContext {
  start: bigint
  featureGates: FeatureGates
  /** --load: the demand on workloads over time. */
  loads: readonly PlacedLoad[]
}

/**
 * The syncs of a controller the simulation runs itself, with the memory a running controller keeps
 * (the HPA controller's recommendations and scale events), rather than a fresh controller's plan
 * carried out by the executor. Its syncs at an instant come before the other controllers' (they
 * see its writes in the next round, as from their informers).
 */
export interface OwnSyncs {
  /** Its syncs due at `now`, planned from this view of the world and carried out on `world`: the plans with what they did, and warnings. */
  sync(world: MemoryWorld, snapshot: Snapshot, now: bigint): {plans: ControllerPlan[]; warnings: string[]}
  /** The instants after `now` it wants to look at the world (its next syncs; when the demand changes). */
  wakeAt(now: bigint): bigint | undefined
}

/** What a controller keeps over one run of the loop, and the timelines it builds at the end. */
export interface SimulationRun {
  /** Syncs it runs itself (see OwnSyncs); with them the loop leaves it out of the planner's round. */
  syncs?: OwnSyncs
  /** Planner options its syncs need from the run's memory (the Job controller's backoff records). */
  plannerOptions?: Partial<PlannerOptions>
  /** Each view of the world, before anything is planned from it. */
  sample?(snapshot: Snapshot, now: bigint): void
  /** Each view of the world with what was planned from it. */
  observe?(snapshot: Snapshot, plan: ReconcilePlan, now: bigint): void
  /** What a round carried out: the warnings it gives (each said once). */
  warnings?(results: readonly ActionResult[]): string[]
  /** What a round carried out, remembered. */
  remember?(acting: readonly ControllerPlan[], results: readonly ActionResult[]): void
  /** The timelines at the end (`end`: where the loop started and stopped, for the verdicts). */
  timelines(snapshot: Snapshot, plan: ReconcilePlan, steps: readonly SimulationStep[], end: LoopEnd): Timelines
}

/** One action of a step, as the step lists it. */
export type StepAction = SimulationStep['actions'][number]

/** An action's line in the report's timeline: what it does, and whether it adds, removes or changes. */
export interface Described {
  sign: '+' | '-' | '~'
  text: string
}

/** An action of its own that changes nothing the timeline shows (a scale to the same size): counted under this noun, not listed. */
export interface Unlisted {
  unlisted: string
}

/** A report section: one table in markdown, rows from every controller that shares its header. */
export interface MarkdownTable {
  header: readonly string[]
  rows(sim: Simulation): string[]
}

/** A controller's timelines in the text and markdown reports. */
export interface Report {
  /** Where they stand (lower first; a CronJob's before its Jobs'). */
  order: number
  /** One block of lines per timeline. */
  summaries(sim: Simulation): string[][]
  /** Its rollouts' verdicts (`Deployment ns/name`), for the table's last lines and --detailed-exitcode. */
  verdicts?(sim: Simulation): Array<{workload: string; verdict: RolloutVerdict}>
  markdown?: MarkdownTable
}

/** A kind --apply-manifests applies: where the API server serves it, and how kubectl merges it. */
export interface ManifestKind {
  /** The API group's path (`/apis/apps/v1`, `/api/v1`) and the resource's plural. */
  group: string
  plural: string
  /** Its Go type's patch strategies (patch-strategies.ts has the building blocks). */
  patchStrategy: FieldStrategy
}

export interface ControllerSimulation {
  /** minReadySeconds of each of its objects that counts pods as available, by uid. */
  minReady?(snapshot: Snapshot): Iterable<readonly [string, number]>
  /** Its pods, when they do more than the shared kubelet model (a Job's run to completion). */
  pods?: PodBehaviour
  /** The instants it asked to sync again at (requeues, deadlines, schedules). */
  wakeTimes?(snapshot: Snapshot, plan: ReconcilePlan): Iterable<bigint | undefined>
  /** Counting after a round, from one view of the world: a step's fields for one of its plans. */
  counter(snapshot: Snapshot, now: bigint): (cp: ControllerPlan) => StepFields
  /** A new run's memory; absent: it keeps nothing and has no timeline. */
  start?(ctx: RunContext): SimulationRun
  /** Its syncs are the run's own (SimulationRun.syncs), never the planner's round. */
  ownSyncs?: true
  /** Why this run leaves the object of `cp` (planned as `kctl plan` would now) as read; undefined: it runs it. Absent: it runs every one. */
  leftAsRead?(cp: ControllerPlan, loads: readonly PlacedLoad[]): string | undefined
  /** With no --until: how long to simulate, and why, when its objects never go quiet by themselves (an autoscaler syncs forever). */
  defaultUntil?(snapshot: Snapshot, loads: readonly PlacedLoad[]): {seconds: number; why: string} | undefined
  /** How its timelines read in `-o table` and `-o markdown`; absent: it has none. */
  report?: Report
  /** Its own actions' lines in the report's timeline (undefined for an action that is not its own). */
  describe?(a: StepAction, step: SimulationStep): Described | Unlisted | undefined
  /** Its status writes that change a condition are listed in the timeline (others are counted). */
  listsConditions?: true
  /** The timeline's controller column for its steps, when it is not `<kind> <name>`. */
  label?(step: SimulationStep): string | undefined
  /** --apply-manifests: the kinds it syncs, as the API server serves them and kubectl merges them. */
  manifests: Readonly<Partial<Record<ControllerKind, ManifestKind>>>
  /** --scale and --set-image: the KIND words (`deployment`, `deploy`, ...) naming its kinds. */
  targets?: Readonly<Record<string, ControllerKind>>
  /** --scale refused, and why (its objects have no replicas). */
  unscalable?: string
  /** The revision name --fail also matches for its pod whose controller-revision-hash label is `hash` (the label itself always matches). */
  podRevisionName?(owner: {name: string}, hash: string): string
  /** What the API server adds to a spec update besides generation (its strategy's PrepareForUpdate): the metadata to store. */
  storedSpec?(before: Obj, spec: Obj, metadata: Obj): Obj
  /** Its objects never go quiet (a schedule): without --until the simulation stops at a default. */
  endless?(snapshot: Snapshot): boolean
  /** An update that changes only its annotations raises its generation too. */
  annotationsRaiseGeneration?: true
}

export interface SimulatePart {
  /** Absent: not simulated (`kctl simulate` leaves its objects as read, and names them in `notSimulated`). */
  simulate?: ControllerSimulation
  /** Why it is not simulated, in a few words (for `notSimulated`); absent: its controller is not run in virtual time. */
  notSimulated?: string
}
