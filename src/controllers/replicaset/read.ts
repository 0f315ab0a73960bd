// ReplicaSets and ReplicationControllers as the API server stores them (SetDefaults_ReplicaSet,
// SetDefaults_ReplicationController in pkg/apis/{apps,core}/v1/defaults.go); ReplicationControllers
// are turned into the ReplicaSet shape once, here (pkg/controller/replication/conversion.go).
import type {LabelSelector, Labels, Origin, OwnerReference, PodTemplateView, ReplicaSetStatusView, Workload, WorkloadKind} from '../../model/objects.js'
import {EMPTY_RAW, INT32_MAX} from '../../sources/context.js'
import type {Locator} from '../../sources/documents.js'
import {labelSelector, template as podTemplate, workloadConditions} from '../../sources/fields.js'
import type {KindReader, ReadInput} from '../../sources/part.js'

/** What the ReplicaSet controller reads: every ReplicaSet, and the ReplicationControllers it runs in the same shape. */
export const REPLICASET_READS: readonly KindReader[] = [
  // extensions/v1beta1 and apps/v1beta2 served ReplicaSets before Kubernetes 1.16.
  {kind: 'ReplicaSet', group: 'apps', version: 'v1', retiredGroups: ['extensions', 'apps'], read: (input) => readWorkload(input, 'ReplicaSet')},
  {kind: 'ReplicationController', group: '', version: 'v1', read: (input) => readWorkload(input, 'ReplicationController')},
]

class WorkloadRecord implements Workload {
  readonly #loc: Locator
  readonly kind: WorkloadKind
  readonly apiVersion: string
  readonly namespace: string
  readonly name: string
  readonly uid: string
  readonly resourceVersion: string
  readonly generation: number
  readonly labels: Labels
  readonly annotations: Labels
  readonly ownerReferences: readonly OwnerReference[]
  readonly creationTimestamp: string | undefined
  readonly deletionTimestamp: string | undefined
  readonly replicas: number
  readonly minReadySeconds: number
  readonly selector: LabelSelector
  readonly selectorDefaulted: boolean | undefined
  readonly template: PodTemplateView
  readonly rawTemplate: unknown
  readonly status: ReplicaSetStatusView

  constructor(loc: Locator, w: Omit<Workload, 'origin'>) {
    this.#loc = loc
    this.kind = w.kind
    this.apiVersion = w.apiVersion
    this.namespace = w.namespace
    this.name = w.name
    this.uid = w.uid
    this.resourceVersion = w.resourceVersion
    this.generation = w.generation
    this.labels = w.labels
    this.annotations = w.annotations
    this.ownerReferences = w.ownerReferences
    this.creationTimestamp = w.creationTimestamp
    this.deletionTimestamp = w.deletionTimestamp
    this.replicas = w.replicas
    this.minReadySeconds = w.minReadySeconds
    this.selector = w.selector
    this.selectorDefaulted = w.selectorDefaulted
    this.template = w.template
    this.rawTemplate = w.rawTemplate
    this.status = w.status
  }

  get origin(): Origin {
    return this.#loc.origin
  }
}

function readWorkload(input: ReadInput, kind: WorkloadKind): void {
  const {ctx, apiVersion, meta, raw} = input
  const isRC = kind === 'ReplicationController'
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY_RAW
  const status = ctx.mapping(raw.status, ['status']) ?? EMPTY_RAW
  const replicas = ctx.int(spec.replicas, ['spec', 'replicas'], 0, INT32_MAX) ?? 1
  const minReadySeconds = ctx.int(spec.minReadySeconds, ['spec', 'minReadySeconds'], 0, INT32_MAX) ?? 0
  const rawTemplate = spec.template
  const template = podTemplate(ctx, rawTemplate)
  let labels = meta.labels
  let selector: LabelSelector = null
  let selectorDefaulted: boolean | undefined
  if (isRC) {
    // SetDefaults_ReplicationController: with template labels, an empty selector and empty
    // object labels are both taken from them.
    let map = ctx.labels(spec.selector, ['spec', 'selector'])
    if (rawTemplate === undefined || rawTemplate === null) {
      ctx.fail(['spec', 'template'], 'a ReplicationController needs a pod template', 'the API server rejects one without spec.template')
    } else if (Object.keys(template.labels).length > 0) {
      if (Object.keys(map).length === 0) {
        map = template.labels
        selectorDefaulted = true
      }
      if (Object.keys(labels).length === 0) labels = template.labels
    }
    if (Object.keys(map).length === 0 && rawTemplate !== undefined && rawTemplate !== null) {
      ctx.fail(['spec', 'selector'], 'a selector is required', 'give spec.selector, or labels in spec.template.metadata.labels to default it from')
    }
    selector = {matchLabels: map}
  } else {
    selector = labelSelector(ctx, spec.selector, kind)
  }
  const statusView: ReplicaSetStatusView = {
    replicas: ctx.int(status.replicas, ['status', 'replicas'], 0, INT32_MAX) ?? 0,
    fullyLabeledReplicas: ctx.int(status.fullyLabeledReplicas, ['status', 'fullyLabeledReplicas'], 0, INT32_MAX) ?? 0,
    readyReplicas: ctx.int(status.readyReplicas, ['status', 'readyReplicas'], 0, INT32_MAX) ?? 0,
    availableReplicas: ctx.int(status.availableReplicas, ['status', 'availableReplicas'], 0, INT32_MAX) ?? 0,
    observedGeneration: ctx.int(status.observedGeneration, ['status', 'observedGeneration'], 0, Number.MAX_SAFE_INTEGER) ?? 0,
    conditions: workloadConditions(ctx, status.conditions),
  }
  if (!isRC) {
    // ReplicationControllerStatus has no terminatingReplicas (1.7: never for RC).
    const terminating = ctx.int(status.terminatingReplicas, ['status', 'terminatingReplicas'], 0, INT32_MAX)
    if (terminating !== undefined) statusView.terminatingReplicas = terminating
  }
  if (!input.clean()) return
  const w = new WorkloadRecord(input.locator, {
    kind,
    apiVersion,
    namespace: meta.namespace,
    name: meta.name,
    uid: meta.uid,
    resourceVersion: meta.resourceVersion,
    generation: meta.generation,
    labels,
    annotations: meta.annotations,
    ownerReferences: meta.ownerReferences,
    creationTimestamp: meta.creationTimestamp,
    deletionTimestamp: meta.deletionTimestamp,
    replicas,
    minReadySeconds,
    selector,
    selectorDefaulted,
    template,
    rawTemplate: rawTemplate ?? undefined,
    status: statusView,
  })
  // Every ReplicaSet is kept, for related-pod ranking; those in -n and -l are planned.
  if (!isRC) input.collect('replicaSets', w)
  if (!input.wanted()) return
  if (!input.selected(labels)) return
  input.collect('workloads', w)
}
