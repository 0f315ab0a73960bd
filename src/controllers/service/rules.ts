// A Service's selector (an AND of equalities, §5.2) against every pod template and Pod of its
// namespace in the input, and what the pods it selects lack:
//   service-selects-nothing                  no template or pod matches;
//   service-target-port-undefined            a named targetPort no selected template defines (FindPort);
//   publish-not-ready-without-probe  publishNotReadyAddresses over templates without a readiness probe;
//   lb-local-selects-nothing      externalTrafficPolicy Local on a LoadBalancer that selects nothing.
// Label sets are indexed by label, so each Service looks only at the sets that carry its rarest label.
// Also what `kctl check` reads of a Service (its selector and type) and invalid-field's checks of its fields.
import type {Labels} from '../../model/objects.js'
import type {Path, RawObject} from '../../sources/documents.js'
import {describeObject, type Draft} from '../../check/draft.js'
import {type CheckObject, type ContainerView, findContainer, type PodSpecView} from '../../check/objects.js'
import {INT32_MAX, metadata, oneOf, specOf} from '../../check/fields.js'
import type {ControllerChecks} from '../../check/part.js'
import {customResourcesNamed, type Scope} from '../../check/scope.js'
import type {Ctx} from '../../sources/normalize.js'
import {formatLabels, mapSelectorProblemsAt} from '../../check/selectors.js'

const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** Pod carriers by label key, then value. */
type LabelIndex = Map<string, Map<string, CheckObject[]>>

/**
 * The pod templates and Pods of a namespace in the whole input, by label: a Service selects what
 * it finds nearest (its file, its apply set, then anywhere), and nothing only if nothing matches.
 * By label key, then value: no `k=v` string is built for every label of every template.
 */
function labelIndex(scope: Scope, namespace: string): LabelIndex {
  return scope.memo(`service-index|${namespace}`, () => {
    const idx: LabelIndex = new Map()
    for (const o of scope.podCarriers(namespace)) {
      const labels = o.podLabels!
      for (const k in labels) {
        if (!Object.hasOwn(labels, k)) continue
        const v = labels[k]
        let values = idx.get(k)
        if (!values) idx.set(k, (values = new Map()))
        let list = values.get(v)
        if (!list) values.set(v, (list = []))
        list.push(o)
      }
    }
    return idx
  })
}

export function serviceDrafts(objects: readonly CheckObject[], scope: Scope): Draft[] {
  // The Services of a namespace mostly come in a row: its index is looked up once for them.
  let lastNamespace: string | undefined
  let lastIndex: LabelIndex = new Map()
  const indexOf = (namespace: string): LabelIndex => {
    if (namespace !== lastNamespace) {
      lastNamespace = namespace
      lastIndex = labelIndex(scope, namespace)
    }
    return lastIndex
  }

  const drafts: Draft[] = []
  // By index: a for-of loop made this function much larger to compile.
  for (let i = 0; i < objects.length; i++) {
    const svc = objects[i]
    const selector = svc.service?.selector
    if (!selector || svc.service!.type === 'ExternalName') continue
    const entries = Object.entries(selector)
    if (entries.length === 0) continue // endpoints managed by hand
    const idx = indexOf(svc.namespace)
    const bucket = ([k, v]: [string, string]): CheckObject[] => idx.get(k)?.get(v) ?? []
    const selected = selectedBy(entries, bucket)
    if (selected.length > 0) drafts.push(...selectedPodDrafts(svc, scope.nearest(svc, selected)))
    else selectsNothingDrafts(svc, entries, entries.map(bucket), scope, drafts)
  }
  return drafts
}

/** service-selects-nothing, and lb-local-selects-nothing (the few Services that select nothing: kept out of serviceDrafts' loop). */
function selectsNothingDrafts(svc: CheckObject, entries: ReadonlyArray<[string, string]>, buckets: CheckObject[][], scope: Scope, drafts: Draft[]): void {
  const selector = svc.service!.selector!
  // An operator's custom resource beside the Service may create the pods it selects.
  const operator = scope.setHoldsCustomResources(svc)
  drafts.push({
    rule: 'service-selects-nothing',
    message: `selector ${formatLabels(selector)} matches no pod template or pod in namespace ${svc.namespace}: ${closest(entries, buckets, scope.podCarriers(svc.namespace).length)}; ${operator ? `the pods may be created by an operator (custom resources are applied with it: ${customResourcesNamed(scope, svc)}), else the Service would have no endpoints` : 'the Service would have no endpoints'}`,
    ...(operator ? {severity: 'info' as const} : {}),
    subject: svc,
    path: ['spec', 'selector'],
    atKey: true,
  })
  const spec = svc.service!.spec
  if (!operator && spec && spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local') {
    drafts.push({
      rule: 'lb-local-selects-nothing',
      message:
        `externalTrafficPolicy Local, and the selector matches no pod template or pod in namespace ${svc.namespace}: a node passes the load balancer's health check ` +
        '(healthCheckNodePort) only while it runs a ready endpoint of the Service, so with none every node fails it and the load balancer has no backend to send traffic to; ' +
        'fix the selector, or deploy the pods it names',
      subject: svc,
      path: ['spec', 'externalTrafficPolicy'],
      atKey: false,
    })
  }
}

/** The pod carriers whose labels hold every entry of the selector, looked for in the smallest bucket (the first of the smallest). */
function selectedBy(entries: ReadonlyArray<[string, string]>, bucket: (entry: [string, string]) => CheckObject[]): CheckObject[] {
  let smallest = bucket(entries[0])
  for (let i = 1; i < entries.length && smallest.length > 0; i++) {
    const b = bucket(entries[i])
    if (b.length < smallest.length) smallest = b
  }
  const selected: CheckObject[] = []
  for (const o of smallest) if (holdsAll(o.podLabels!, entries)) selected.push(o)
  return selected
}

function holdsAll(labels: Labels, entries: ReadonlyArray<[string, string]>): boolean {
  // By index: called for every carrier of a Service's smallest bucket.
  for (let i = 0; i < entries.length; i++) if (labels[entries[i][0]] !== entries[i][1]) return false
  return true
}

/** Whether a container FindPort searches has a port of this name and protocol (a port without a protocol is TCP). */
function definesPort(spec: PodSpecView | undefined, name: string, protocol: string): boolean {
  if (!spec || name === '') return false
  const hasPort = (c: ContainerView) => {
    for (const p of list(c.mapping ? c.ports : undefined)) {
      if (isMapping(p) && p.name === name && (typeof p.protocol === 'string' ? p.protocol : 'TCP') === protocol) return true
    }
    return false
  }
  return findContainer(spec, hasPort) !== undefined
}

/** Whether any container of the spec (sidecars aside: they do not gate readiness) has a readiness probe. */
function hasReadinessProbe(spec: PodSpecView | undefined): boolean {
  return spec !== undefined && spec.containers.some((c) => c.mapping && c.readinessProbe)
}

/** Up to three objects by name, and how many more. */
function someOf(objects: readonly CheckObject[]): string {
  const names = objects.slice(0, 3).map((o) => (o.kind === 'Pod' ? `pod ${o.name}` : describeObject(o)))
  return `${names.join(', ')}${objects.length > 3 ? `, and ${objects.length - 3} more` : ''}`
}

/** The rules about the pods a Service selects, given the templates and Pods it selects. */
function selectedPodDrafts(svc: CheckObject, selected: readonly CheckObject[]): Draft[] {
  const drafts: Draft[] = []
  const spec = svc.service!.spec
  if (!spec) return drafts
  // The pod specs as read (read.ts), beside each template's (or Pod's) labels.
  const specs = selected.map((o) => o.podSpec)
  list(spec.ports).forEach((port, i) => {
    if (!isMapping(port) || typeof port.targetPort !== 'string') return
    const name = port.targetPort
    const protocol = typeof port.protocol === 'string' ? port.protocol : 'TCP'
    if (specs.some((s) => definesPort(s, name, protocol))) return
    const which = typeof port.name === 'string' && port.name !== '' ? `port ${port.name} (${String(port.port)}/${protocol})` : `port ${String(port.port)}/${protocol}`
    const path: Path = ['spec', 'ports', i, 'targetPort']
    drafts.push({
      rule: 'service-target-port-undefined',
      message:
        `targetPort ${name} of ${which} names no ${protocol} container port of the pods it selects (${someOf(selected)}): ` +
        'the EndpointSlice controller gives their endpoints no port for it and the Endpoints object leaves them out, so the port answers nothing; ' +
        `name a container port ${name} (protocol ${protocol}), or give the number`,
      subject: svc,
      path,
      atKey: false,
    })
  })
  if (spec.publishNotReadyAddresses === true) {
    const unprobed = selected.filter((_, i) => !hasReadinessProbe(specs[i]))
    if (unprobed.length > 0) {
      drafts.push({
        rule: 'publish-not-ready-without-probe',
        message:
          `publishNotReadyAddresses lists every selected pod as ready, starting and terminating ones too, and ${someOf(unprobed)} ${unprobed.length === 1 ? 'has' : 'have'} no readiness probe: ` +
          "the endpoints' serving condition, the one sign left of which pods can answer, turns true as soon as the containers start; " +
          'add a readiness probe, or drop publishNotReadyAddresses unless peers must find each other before they are ready',
        subject: svc,
        path: ['spec', 'publishNotReadyAddresses'],
        atKey: false,
      })
    }
  }
  return drafts
}

/** The template that comes closest (most of the selector's labels, given as entries), and what it lacks. */
function closest(selector: ReadonlyArray<[string, string]>, buckets: CheckObject[][], templates: number): string {
  if (templates === 0) return 'the input has none there'
  const best = closestCarrier(selector, buckets)
  if (!best) return `none of the ${templates} there carries any of these labels`
  const labels = best.podLabels!
  const gaps = selector
    .filter(([k, v]) => labels[k] !== v)
    .map(([k, v]) => (labels[k] === undefined ? `lacks ${k}=${v}` : `has ${k}=${labels[k]}, not ${k}=${v}`))
  const whose = best.kind === 'Pod' ? `pod ${best.name}` : `the template of ${describeObject(best)}`
  return `closest is ${whose}, which ${gaps.join(' and ')}`
}

/** The template (or Pod) of the buckets with the most labels in common, then the likest values, then first in input order. */
function closestCarrier(selector: ReadonlyArray<[string, string]>, buckets: CheckObject[][]): CheckObject | undefined {
  const score = new Map<CheckObject, number>()
  for (const bucket of buckets) for (const o of bucket) score.set(o, (score.get(o) ?? 0) + 1)
  // Most labels in common; then the values most like the wanted ones (a typo in a name); then input order.
  const likeness = (o: CheckObject) => {
    let n = 0
    for (const [k, v] of selector) n += commonPrefix(o.podLabels![k] ?? '', v)
    return n
  }
  let best: CheckObject | undefined
  let bestScore = 0
  let bestLikeness = -1
  for (const [o, n] of score) {
    if (n < bestScore) continue
    const like = likeness(o)
    if (n > bestScore || like > bestLikeness || (like === bestLikeness && best && o.src.ordinal < best.src.ordinal)) {
      best = o
      bestScore = n
      bestLikeness = like
    }
  }
  return best
}

function commonPrefix(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** A Service's view: its selector (when it is a mapping of strings) and type. */
function readService(obj: CheckObject, spec: RawObject | undefined): void {
  const selectorProblems = mapSelectorProblemsAt(spec?.selector, ['spec', 'selector'])
  obj.service = {
    selector: selectorProblems.length === 0 && isMapping(spec?.selector) ? (spec.selector as Labels) : undefined,
    selectorProblems,
    type: typeof spec?.type === 'string' ? spec.type : 'ClusterIP',
    spec: spec && {
      ports: spec.ports,
      clusterIP: spec.clusterIP,
      type: spec.type,
      externalTrafficPolicy: spec.externalTrafficPolicy,
      publishNotReadyAddresses: spec.publishNotReadyAddresses,
    },
  }
}

/** invalid-field: a Service's fields. */
function service(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'dns1035')
  const spec = specOf(ctx, raw)
  if (spec.type !== undefined) oneOf(ctx, spec.type, ['spec', 'type'], ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'])
  const ports = spec.ports
  if (ports === undefined || ports === null) return
  if (!Array.isArray(ports)) {
    ctx.fail(['spec', 'ports'], 'expected a list of ports')
    return
  }
  ports.forEach((p, i) => {
    const at = ['spec', 'ports', i]
    const pm = ctx.mapping(p, at)
    if (!pm) return
    if (pm.port === undefined || pm.port === null) ctx.fail([...at, 'port'], 'a port number is required')
    else {
      const port = ctx.int(pm.port, [...at, 'port'], 0, INT32_MAX)
      if (port !== undefined && (port < 1 || port > 65535)) ctx.fail([...at, 'port'], `must be between 1 and 65535, got ${port}`)
    }
    if (pm.protocol !== undefined) oneOf(ctx, pm.protocol, [...at, 'protocol'], ['TCP', 'UDP', 'SCTP'])
    const target = pm.targetPort
    if (typeof target === 'number') {
      if (!Number.isInteger(target) || target < 1 || target > 65535) ctx.fail([...at, 'targetPort'], `must be a port number between 1 and 65535 or a port name, got ${target}`)
    } else if (target !== undefined && target !== null && typeof target !== 'string') {
      ctx.fail([...at, 'targetPort'], 'expected a port number or a port name')
    }
  })
}

export const serviceChecks: ControllerChecks = {
  kinds: [{kind: 'Service', groups: [''], read: readService, validate: service}],
  setDrafts: serviceDrafts,
}
