// The metrics APIs read live, asked exactly as the controller's REST metrics client asks them
// (pkg/controller/podautoscaler/metrics/client.go and k8s.io/metrics' clients): one answer per entry
// of each HPA's spec.metrics, kept whole (an empty list, a refusal), so the sync sees what the
// controller would see.
import type {LabelSelector, Snapshot} from '../../model/objects.js'
import {parseSelectorString} from '../../reconcile/selector.js'
import type {LiveGet} from '../../sources/part.js'
import {parseDuration} from '../../watch/duration.js'
import type {HpaLiveMetrics, LiveCustomScale, MetricAnswer, MetricSpec, MetricTarget, PodMetricsItem} from './model.js'
import {formatSelector, readScale, scaleTargets} from './planner.js'
import {labelSelectorAsSelectorError} from './replicas.js'

const RESOURCE_METRICS = '/apis/metrics.k8s.io/v1beta1'
// The controller picks the custom metrics version by discovery (v1beta2 when served, as every adapter
// of the last years does).
const CUSTOM_METRICS = '/apis/custom.metrics.k8s.io/v1beta2'
const EXTERNAL_METRICS = '/apis/external.metrics.k8s.io/v1beta1'

type Item = Record<string, unknown>
const asItems = (body: unknown): Item[] => ((body as {items?: Item[]} | undefined)?.items ?? []).filter((i) => i && typeof i === 'object')
const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')
const seg = encodeURIComponent

/**
 * customMetricsClient.qualResourceForKind: the kind's resource in its group as discovery lists it
 * (`services`, `deployments.apps`), or the mapper's error.
 */
async function resourceFor(get: LiveGet, apiVersion: string | undefined, kind: string, cache: Map<string, Promise<Item[] | undefined>>): Promise<{resource: string} | {error: string}> {
  const av = apiVersion ?? ''
  const slash = av.indexOf('/')
  const group = slash < 0 ? '' : av.slice(0, slash)
  const version = slash < 0 ? av || 'v1' : av.slice(slash + 1)
  const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`
  let listed = cache.get(path)
  if (!listed) {
    listed = get(path).then((r) => (r.ok ? ((r.body as {resources?: Item[]}).resources ?? []) : undefined))
    cache.set(path, listed)
  }
  const found = (await listed)?.find((r) => r.kind === kind && !str(r.name).includes('/'))
  if (!found) return {error: `unable to map kind ${kind}${group ? `.${group}` : ''} to resource: no matches for kind "${kind}" in group "${group}"`}
  return {resource: group === '' ? str(found.name) : `${str(found.name)}.${group}`}
}

/** The answer to one request: the list's items, converted; or the refusal. */
async function ask(get: LiveGet, path: string, query: Record<string, string>, cache: Map<string, Promise<{items: Item[]} | {error: string}>>): Promise<{items: Item[]} | {error: string}> {
  const q = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''))
  const key = `${path}?${new URLSearchParams(q).toString()}`
  let r = cache.get(key)
  if (!r) {
    r = get(path, q).then((res) => (res.ok ? {items: asItems(res.body)} : {error: res.message}))
    cache.set(key, r)
  }
  return r
}

function podMetricsItem(i: Item): PodMetricsItem {
  const meta = (i.metadata ?? {}) as Item
  const ms = parseDuration(str(i.window) || '0s') ?? 0
  const containers = ((i.containers ?? []) as Item[]).map((c) => ({name: str(c.name), usage: Object.fromEntries(Object.entries((c.usage ?? {}) as Item).map(([k, v]) => [k, str(v)]))}))
  return {name: str(meta.name), timestamp: str(i.timestamp), windowSeconds: ms / 1000, containers}
}

const timestamped = (i: Item) => (str(i.timestamp) ? {timestamp: str(i.timestamp)} : {})

function parses(selector: string): boolean {
  if (selector === '') return false
  try {
    parseSelectorString(selector)
    return true
  } catch {
    return false
  }
}

/** Whether computeReplicasForMetric gets as far as asking a metrics API for this metric. */
function asks(m: MetricSpec): boolean {
  const s = m as Record<string, {target?: MetricTarget; metric?: {selector?: LabelSelector}} | undefined>
  const source = s.resource ?? s.containerResource ?? s.pods ?? s.object ?? s.external
  const t = source?.target
  if (!t) return false
  if (source.metric && labelSelectorAsSelectorError(source.metric.selector) !== undefined) return false
  switch (m.type) {
    case 'Resource':
    case 'ContainerResource':
      return t.averageValue !== undefined || t.averageUtilization !== undefined
    case 'Object':
      return (t.type === 'Value' && t.value !== undefined) || (t.type === 'AverageValue' && t.averageValue !== undefined)
    case 'External':
      return t.averageValue !== undefined || t.value !== undefined
    default:
      return true
  }
}

/** The kinds whose scale the snapshot's own objects give (the others are custom resources, read through /scale). */
const BUILT_IN = new Set(['apps|Deployment', 'apps|StatefulSet', 'apps|ReplicaSet', '|ReplicationController'])

/**
 * scaleForResourceMappings for a custom resource: the group's versions in discovery's order, the
 * kind's resource in each, and the first GET of its /scale that answers (else the first refusal).
 */
async function readCustomScale(get: LiveGet, namespace: string, group: string, kind: string, name: string, discovery: Map<string, Promise<Item[] | undefined>>): Promise<LiveCustomScale> {
  const at = {namespace, group, kind, name}
  const listed = group === '' ? undefined : await get(`/apis/${group}`)
  const versions = listed?.ok ? (((listed.body as Item).versions ?? []) as Item[]).map((v) => str(v.version)).filter((v) => v !== '') : []
  let first: string | undefined
  for (const version of versions) {
    const mapped = await resourceFor(get, `${group}/${version}`, kind, discovery)
    if ('error' in mapped) continue
    const plural = mapped.resource.split('.')[0]
    const r = await get(`/apis/${group}/${version}/namespaces/${seg(namespace)}/${seg(plural)}/${seg(name)}/scale`)
    if (!r.ok) {
      first ??= r.message
      continue
    }
    const scale = r.body as Item
    const meta = (scale.metadata ?? {}) as Item
    const spec = (scale.spec ?? {}) as Item
    const status = (scale.status ?? {}) as Item
    return {...at, apiVersion: `${group}/${version}`, resource: mapped.resource, uid: str(meta.uid), resourceVersion: str(meta.resourceVersion), specReplicas: Number(spec.replicas ?? 0), statusReplicas: Number(status.replicas ?? 0), selector: str(status.selector)}
  }
  return {...at, error: first ?? `no matches for kind "${kind}" in group "${group}"`}
}

/** Every HPA's answers (HPA_READS' live part). An HPA whose scale or selector cannot be read asks nothing. */
export async function readLiveMetrics(get: LiveGet, read: Snapshot): Promise<Partial<Snapshot>> {
  const hpas = read.hpas ?? []
  if (hpas.length === 0) return {}
  const discovery = new Map<string, Promise<Item[] | undefined>>()
  // The custom resources' Scales first: their selectors say which pods the metrics are for.
  const customScales: LiveCustomScale[] = []
  for (const hpa of hpas) {
    const ref = hpa.spec.scaleTargetRef
    const group = (ref.apiVersion ?? '').includes('/') ? (ref.apiVersion ?? '').split('/')[0] : ''
    if (BUILT_IN.has(`${group}|${ref.kind}`) || customScales.some((c) => c.namespace === hpa.namespace && c.group === group && c.kind === ref.kind && c.name === ref.name)) continue
    customScales.push(await readCustomScale(get, hpa.namespace, group, ref.kind, ref.name, discovery))
  }
  const snapshot: Snapshot = customScales.length > 0 ? {...read, customScales} : read
  const targets = scaleTargets(snapshot)
  const requests = new Map<string, Promise<{items: Item[]} | {error: string}>>()
  const out: HpaLiveMetrics[] = []
  for (const hpa of hpas) {
    const {scale} = readScale(hpa, targets)
    // The sync reads no metric at 0 replicas, outside minReplicas..maxReplicas, or with a selector it
    // cannot parse (H1.6, H1.7).
    const spec = 'scale' in scale ? scale.scale.specReplicas : 0
    if (!('scale' in scale) || spec === 0 || spec > hpa.spec.maxReplicas || spec < hpa.spec.minReplicas || !parses(scale.scale.selector)) continue
    const ns = hpa.namespace
    const podSelector = scale.scale.selector
    const answer = async (m: MetricSpec): Promise<MetricAnswer> => {
      // A metric that fails before its request (a target without a value, a bad metric selector) asks nothing.
      if (!asks(m)) return {kind: 'missing'}
      const wrap = <K extends MetricAnswer['kind']>(r: {items: Item[]} | {error: string}, convert: (items: Item[]) => MetricAnswer & {kind: K}): MetricAnswer =>
        'error' in r ? {kind: 'error', message: r.error} : convert(r.items)
      switch (m.type) {
        case 'Resource':
        case 'ContainerResource': {
          // PodMetricses(ns).List(labelSelector: the target's pods).
          const r = await ask(get, `${RESOURCE_METRICS}/namespaces/${seg(ns)}/pods`, {labelSelector: podSelector}, requests)
          return wrap(r, (items) => ({kind: 'podMetrics', items: items.map(podMetricsItem)}))
        }
        case 'Pods': {
          // GetForObjects(Pod, the target's pods, metric, metric selector).
          const id = (m as Extract<MetricSpec, {type: 'Pods'}>).pods.metric
          const r = await ask(get, `${CUSTOM_METRICS}/namespaces/${seg(ns)}/pods/*/${seg(id.name)}`, {labelSelector: podSelector, metricLabelSelector: formatSelector(id.selector ?? null)}, requests)
          return wrap(r, (items) => ({kind: 'podValues', items: items.map((i) => ({pod: str((i.describedObject as Item | undefined)?.name), value: str(i.value), ...timestamped(i)}))}))
        }
        case 'Object': {
          const o = (m as Extract<MetricSpec, {type: 'Object'}>).object
          const metricLabelSelector = formatSelector(o.metric.selector ?? null)
          const group = (o.describedObject.apiVersion ?? '').includes('/') ? (o.describedObject.apiVersion ?? '').split('/')[0] : ''
          let path: string
          if (o.describedObject.kind === 'Namespace' && group === '') {
            // The namespace's own metrics (RootScopedMetrics().GetForObject with the HPA's namespace).
            path = `${CUSTOM_METRICS}/namespaces/${seg(ns)}/metrics/${seg(o.metric.name)}`
          } else {
            const mapped = await resourceFor(get, o.describedObject.apiVersion, o.describedObject.kind, discovery)
            if ('error' in mapped) return {kind: 'error', message: mapped.error}
            path = `${CUSTOM_METRICS}/namespaces/${seg(ns)}/${seg(mapped.resource)}/${seg(o.describedObject.name)}/${seg(o.metric.name)}`
          }
          const r = await ask(get, path, {metricLabelSelector}, requests)
          return wrap(r, (items) => ({kind: 'objectValues', items: items.map((i) => ({value: str(i.value), ...timestamped(i)}))}))
        }
        case 'External': {
          const id = (m as Extract<MetricSpec, {type: 'External'}>).external.metric
          const r = await ask(get, `${EXTERNAL_METRICS}/namespaces/${seg(ns)}/${seg(id.name)}`, {labelSelector: formatSelector(id.selector ?? null)}, requests)
          return wrap(r, (items) => ({kind: 'externalValues', items: items.map((i) => ({value: str(i.value), ...timestamped(i)}))}))
        }
        default:
          return {kind: 'missing'}
      }
    }
    const answers: MetricAnswer[] = []
    for (const m of hpa.spec.metrics) answers.push(await answer(m))
    out.push({namespace: ns, name: hpa.name, answers})
  }
  return customScales.length > 0 ? {hpaMetrics: out, customScales} : {hpaMetrics: out}
}
