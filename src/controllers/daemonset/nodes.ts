// Which nodes run a DaemonSet's pod (NodeShouldRunDaemonPod in pkg/controller/daemon/
// daemon_controller.go), the tolerations the controller adds (AddOrUpdateDaemonPodTolerations in
// pkg/controller/daemon/util/daemonset_util.go) and the node affinity it writes into each pod
// (ReplaceDaemonSetPodNodeNameNodeAffinity).
import type {NodeView, Taint, Toleration} from '../../model/objects.js'
import type {NodeExclusion} from './model.js'
import {requirementMatches, type Requirement} from '../../reconcile/selector.js'

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** The tolerations every daemon pod gets, in this order, all `Exists` without tolerationSeconds (DS2.5). */
const DAEMON_TOLERATIONS: readonly Toleration[] = [
  {key: 'node.kubernetes.io/not-ready', operator: 'Exists', value: '', effect: 'NoExecute'},
  {key: 'node.kubernetes.io/unreachable', operator: 'Exists', value: '', effect: 'NoExecute'},
  {key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', value: '', effect: 'NoSchedule'},
  {key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', value: '', effect: 'NoSchedule'},
  {key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', value: '', effect: 'NoSchedule'},
  {key: 'node.kubernetes.io/unschedulable', operator: 'Exists', value: '', effect: 'NoSchedule'},
]
const NETWORK_UNAVAILABLE: Toleration = {key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', value: '', effect: 'NoSchedule'}

export function readTolerations(spec: unknown): Toleration[] {
  const list = isObj(spec) && Array.isArray(spec.tolerations) ? spec.tolerations : []
  return list.filter(isObj).map((t) => {
    const out: Toleration = {key: str(t.key), operator: str(t.operator), value: str(t.value), effect: str(t.effect)}
    if (typeof t.tolerationSeconds === 'number') out.tolerationSeconds = t.tolerationSeconds
    return out
  })
}

/**
 * AddOrUpdateTolerationInPodSpec for each default toleration: a user toleration with the same key,
 * operator, value and effect is replaced by the default (losing its tolerationSeconds) unless it
 * already equals it; otherwise the default is appended.
 */
export function daemonTolerations(spec: unknown): Toleration[] {
  let out = readTolerations(spec)
  const defaults = isObj(spec) && spec.hostNetwork === true ? [...DAEMON_TOLERATIONS, NETWORK_UNAVAILABLE] : DAEMON_TOLERATIONS
  for (const d of defaults) {
    const same = (t: Toleration) => t.key === d.key && t.effect === d.effect && t.operator === d.operator && t.value === d.value
    if (out.some((t) => same(t) && t.tolerationSeconds === undefined)) continue
    if (out.some(same)) out = out.map((t) => (same(t) ? {...d} : t))
    else out = [...out, {...d}]
  }
  return out
}

/** Toleration.ToleratesTaint; Lt and Gt never match (TaintTolerationComparisonOperators is off in 1.36). */
export function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect !== '' && t.effect !== taint.effect) return false
  if (t.key !== '' && t.key !== taint.key) return false
  if (t.operator === '' || t.operator === 'Equal') return t.value === taint.value
  return t.operator === 'Exists'
}

function untolerated(taints: readonly Taint[], tolerations: readonly Toleration[], effects: readonly string[]): Taint | undefined {
  return taints.find((taint) => effects.includes(taint.effect) && !tolerations.some((t) => tolerates(t, taint)))
}

/**
 * The required node affinity half of nodeaffinity.GetRequiredNodeAffinity(pod).Match(node): one
 * of the terms (an empty term matches nothing; a term that does not parse matches nothing).
 */
function requiredAffinityMatches(spec: Obj, node: NodeView): boolean {
  const na = isObj(spec.affinity) && isObj(spec.affinity.nodeAffinity) ? spec.affinity.nodeAffinity : undefined
  const required = na?.requiredDuringSchedulingIgnoredDuringExecution
  if (!isObj(required)) return true
  const terms = Array.isArray(required.nodeSelectorTerms) ? required.nodeSelectorTerms.filter(isObj) : []
  return terms.some((term) => termMatches(term, node))
}

const LABEL_OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'])

function termMatches(term: Obj, node: NodeView): boolean {
  const expressions = Array.isArray(term.matchExpressions) ? term.matchExpressions.filter(isObj) : []
  const fields = Array.isArray(term.matchFields) ? term.matchFields.filter(isObj) : []
  if (expressions.length === 0 && fields.length === 0) return false
  for (const e of expressions) {
    if (!LABEL_OPERATORS.has(str(e.operator))) return false
    if ((e.operator === 'Gt' || e.operator === 'Lt') && !(Array.isArray(e.values) && e.values.length === 1 && /^[-+]?\d+$/.test(String(e.values[0])))) return false
    const req = {key: str(e.key), operator: str(e.operator), values: Array.isArray(e.values) ? e.values.map(String) : []} as Requirement
    if (!requirementMatches(req, node.labels)) return false
  }
  // Field selectors see only metadata.name; In and NotIn take exactly one value.
  for (const f of fields) {
    const values = Array.isArray(f.values) ? f.values : []
    if ((f.operator !== 'In' && f.operator !== 'NotIn') || values.length !== 1) return false
    const actual = f.key === 'metadata.name' ? node.name : ''
    if ((actual === values[0]) !== (f.operator === 'In')) return false
  }
  return true
}

export interface NodeDecision {
  shouldRun: boolean
  shouldContinueRunning: boolean
  excludedBy?: NodeExclusion
  taint?: Taint
}

/**
 * NodeShouldRunDaemonPod (DS2): the template's nodeName, then nodeSelector and required node
 * affinity (neither: no pod, an existing one goes), then taints against the template's
 * tolerations plus the defaults: an untolerated NoSchedule or NoExecute taint means no new pod;
 * only an untolerated NoExecute one removes an existing pod. unschedulable itself is not looked at.
 */
export function shouldRunDaemonPod(node: NodeView, templateSpec: unknown, tolerations: readonly Toleration[]): NodeDecision {
  return daemonNodeTest(templateSpec, tolerations)(node)
}

// Decisions without a taint are the same for every node they are made for: shared, never changed.
const RUNS: NodeDecision = Object.freeze({shouldRun: true, shouldContinueRunning: true})
const NOT_NAMED: NodeDecision = Object.freeze({shouldRun: false, shouldContinueRunning: false, excludedBy: 'node-name'})
const NOT_SELECTED: NodeDecision = Object.freeze({shouldRun: false, shouldContinueRunning: false, excludedBy: 'node-selector'})
const NOT_AFFINE: NodeDecision = Object.freeze({shouldRun: false, shouldContinueRunning: false, excludedBy: 'node-affinity'})
const BLOCKING = ['NoSchedule', 'NoExecute']
const EVICTING = ['NoExecute']

/** shouldRunDaemonPod for one template, its parts read once for every node it is asked about. */
export function daemonNodeTest(templateSpec: unknown, tolerations: readonly Toleration[]): (node: NodeView) => NodeDecision {
  const spec = isObj(templateSpec) ? templateSpec : {}
  const nodeName = str(spec.nodeName)
  const selector = isObj(spec.nodeSelector) ? Object.entries(spec.nodeSelector) : []
  return (node) => {
    if (nodeName !== '' && nodeName !== node.name) return NOT_NAMED
    for (const [k, v] of selector) if (node.labels[k] !== v) return NOT_SELECTED
    if (!requiredAffinityMatches(spec, node)) return NOT_AFFINE
    if (node.taints.length === 0) return RUNS
    const blocking = untolerated(node.taints, tolerations, BLOCKING)
    if (!blocking) return RUNS
    const evicting = untolerated(node.taints, tolerations, EVICTING)
    return {shouldRun: false, shouldContinueRunning: evicting === undefined, excludedBy: 'taint', taint: evicting ?? blocking}
  }
}

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the required node selector becomes the single term
 * `metadata.name In [node]` (user terms dropped); preferred terms and pod (anti-)affinity stay.
 */
export function daemonPodAffinity(affinity: unknown, node: string): Obj {
  const selector = {nodeSelectorTerms: [{matchFields: [{key: 'metadata.name', operator: 'In', values: [node]}]}]}
  if (!isObj(affinity)) return {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: selector}}
  if (!isObj(affinity.nodeAffinity)) return {...affinity, nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: selector}}
  const required = affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
  const replaced = isObj(required) ? {...required, nodeSelectorTerms: selector.nodeSelectorTerms} : selector
  return {...affinity, nodeAffinity: {...affinity.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: replaced}}
}
