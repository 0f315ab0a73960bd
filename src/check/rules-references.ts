// Rules about what objects refer to, within one apply set:
//   ingress-backend-missing       an Ingress backend names a Service (or a port of it) the input lacks;
//   statefulset-service-missing   a StatefulSet's serviceName names no Service in the input;
//   pdb-selects-nothing           a PodDisruptionBudget selects no pod template or pod;
//   pdb-blocks-eviction           a PodDisruptionBudget no eviction can ever satisfy;
//   daemonset-no-eligible-node    a DaemonSet that none of the input's Nodes would run (only when it has Nodes);
// and two about a workload on its own, off unless configured (they are opinions):
//   no-readiness-probe            a Deployment of several replicas whose containers have no readiness probe;
//   image-latest                  a container image tagged :latest, or not tagged at all.
import type {Labels, NodeView, Taint} from '../model/objects.js'
import type {Path, RawObject} from '../sources/documents.js'
import {describeObject, type Draft} from './draft.js'
import type {CheckObject} from './objects.js'
import {labelSelectorRequirements, matchesAll} from './selectors.js'
import {daemonTolerations, shouldRunDaemonPod} from '../controllers/daemonset/nodes.js'

const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

const POD_TEMPLATE: Record<string, Path> = {
  Deployment: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  ReplicationController: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
}

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

/** The Services of a namespace, by name. */
function servicesByName(objects: readonly CheckObject[]): Map<string, CheckObject> {
  const out = new Map<string, CheckObject>()
  for (const o of objects) if (o.kind === 'Service' && o.group === '' && o.name !== '') out.set(`${o.namespace}/${o.name}`, o)
  return out
}

export function referenceDrafts(objects: readonly CheckObject[]): Draft[] {
  const services = servicesByName(objects)
  const drafts: Draft[] = []
  for (const o of objects) {
    if (o.kind === 'Ingress' && (o.group === 'networking.k8s.io' || o.group === 'extensions')) ingressDrafts(o, services, drafts)
    else if (o.kind === 'StatefulSet' && o.group === 'apps') statefulSetDrafts(o, services, drafts)
  }
  drafts.push(...pdbDrafts(objects))
  drafts.push(...daemonSetNodeDrafts(objects))
  return drafts
}

/**
 * daemonset-no-eligible-node: NodeShouldRunDaemonPod (the planner's own rule) for every Node of
 * the input — the template's nodeName, nodeSelector, required node affinity, and taints against
 * the template's tolerations plus those the controller adds. Only when the input holds Nodes:
 * without any, the cluster's nodes are unknown.
 */
function daemonSetNodeDrafts(objects: readonly CheckObject[]): Draft[] {
  const nodes = objects.filter((o) => o.kind === 'Node' && o.group === '' && o.name !== '').map(nodeView)
  if (nodes.length === 0) return []
  const drafts: Draft[] = []
  for (const ds of objects) {
    if (ds.kind !== 'DaemonSet' || ds.group !== 'apps') continue
    const spec = at(ds.src.raw, ['spec', 'template', 'spec'])
    const tolerations = daemonTolerations(spec)
    const reasons = new Map<string, string[]>()
    let runs = false
    for (const n of nodes) {
      const d = shouldRunDaemonPod(n, spec, tolerations)
      if (d.shouldRun) {
        runs = true
        break
      }
      const why = d.excludedBy === 'taint' && d.taint ? `taint ${d.taint.key}${d.taint.value ? `=${d.taint.value}` : ''}:${d.taint.effect}` : (d.excludedBy ?? 'not eligible')
      reasons.set(why, [...(reasons.get(why) ?? []), n.name])
    }
    if (runs) continue
    const words = [...reasons].map(([why, names]) => `${NODE_WORDS[why] ?? `an untolerated ${why}`} (${names.slice(0, 3).join(', ')}${names.length > 3 ? `, and ${names.length - 3} more` : ''})`)
    // Point at what decides when one thing excludes every node.
    const only = reasons.size === 1 ? [...reasons.keys()][0] : undefined
    const path: Path = only === 'node-selector' ? ['spec', 'template', 'spec', 'nodeSelector'] : only === 'node-affinity' ? ['spec', 'template', 'spec', 'affinity'] : only === 'node-name' ? ['spec', 'template', 'spec', 'nodeName'] : ['spec', 'template', 'spec']
    drafts.push({
      rule: 'daemonset-no-eligible-node',
      message: `none of the ${nodes.length} Node${nodes.length === 1 ? '' : 's'} in the input would run its pod: ${words.join('; ')}; the DaemonSet would run no pods (desiredNumberScheduled 0)`,
      subject: ds,
      path,
      atKey: only !== 'node-name',
    })
  }
  return drafts
}

const NODE_WORDS: Record<string, string> = {
  'node-name': 'the template\'s nodeName names another node',
  'node-selector': 'the nodeSelector matches no node\'s labels',
  'node-affinity': 'the required node affinity matches no node',
}

/** A Node as the DaemonSet rule needs it: name, labels, well-formed taints. */
function nodeView(o: CheckObject): NodeView {
  const raw = o.src.raw
  const labels = at(raw, ['metadata', 'labels'])
  const taints: Taint[] = list(at(raw, ['spec', 'taints'])).flatMap((t) => {
    const key = at(t, ['key'])
    const effect = at(t, ['effect'])
    if (typeof key !== 'string' || typeof effect !== 'string') return []
    const value = at(t, ['value'])
    return [{key, value: typeof value === 'string' ? value : '', effect}]
  })
  return {name: o.name, namespace: '', uid: '', resourceVersion: '', labels: isMapping(labels) ? (labels as Labels) : {}, unschedulable: at(raw, ['spec', 'unschedulable']) === true, taints} as unknown as NodeView
}

function ingressDrafts(ing: CheckObject, services: Map<string, CheckObject>, drafts: Draft[]): void {
  const spec = ing.src.raw.spec
  const backends: Array<{backend: unknown; path: Path}> = []
  if (isMapping(at(spec, ['defaultBackend']))) backends.push({backend: at(spec, ['defaultBackend']), path: ['spec', 'defaultBackend']})
  list(at(spec, ['rules'])).forEach((rule, r) => {
    list(at(rule, ['http', 'paths'])).forEach((p, i) => backends.push({backend: at(p, ['backend']), path: ['spec', 'rules', r, 'http', 'paths', i, 'backend']}))
  })
  for (const {backend, path} of backends) {
    const name = at(backend, ['service', 'name'])
    if (typeof name !== 'string') continue // a resource backend, or a field the schema rules report
    const svc = services.get(`${ing.namespace}/${name}`)
    if (!svc) {
      drafts.push({rule: 'ingress-backend-missing', message: `backend Service ${name} is not in the input (namespace ${ing.namespace}): the Ingress would route to nothing (503)`, subject: ing, path: [...path, 'service', 'name'], atKey: false})
      continue
    }
    const port = at(backend, ['service', 'port'])
    const ports = list(at(svc.src.raw, ['spec', 'ports']))
    const number = at(port, ['number'])
    const portName = at(port, ['name'])
    const found = typeof number === 'number' ? ports.some((p) => at(p, ['port']) === number) : typeof portName === 'string' ? ports.some((p) => at(p, ['name']) === portName) : true
    if (!found) {
      const wanted = typeof number === 'number' ? `port ${number}` : `port named ${portName}`
      const has = ports.map((p) => (typeof at(p, ['name']) === 'string' ? `${at(p, ['port'])} (${at(p, ['name'])})` : String(at(p, ['port'])))).join(', ') || 'none'
      drafts.push({
        rule: 'ingress-backend-missing',
        message: `backend Service ${name} has no ${wanted} (its ports: ${has}): the Ingress would route to nothing (503)`,
        subject: ing,
        path: [...path, 'service', 'port', typeof number === 'number' ? 'number' : 'name'],
        atKey: false,
        related: [{object: svc, path: ['spec', 'ports'], atKey: true, message: `the ports of ${describeObject(svc)}`}],
      })
    }
  }
}

function statefulSetDrafts(sts: CheckObject, services: Map<string, CheckObject>, drafts: Draft[]): void {
  const name = at(sts.src.raw, ['spec', 'serviceName'])
  if (typeof name !== 'string' || name === '') return // optional since 1.30; the schema rules see a wrong type
  const svc = services.get(`${sts.namespace}/${name}`)
  if (!svc) {
    drafts.push({
      rule: 'statefulset-service-missing',
      message: `serviceName ${name} names no Service in the input (namespace ${sts.namespace}): the pods get no stable DNS names (${sts.name}-0.${name}…) until a headless Service of that name exists`,
      subject: sts,
      path: ['spec', 'serviceName'],
      atKey: false,
    })
  } else if (at(svc.src.raw, ['spec', 'clusterIP']) !== 'None') {
    drafts.push({
      rule: 'statefulset-service-missing',
      message: `serviceName ${name} names a Service that is not headless (it lacks clusterIP: None): the pods get no per-pod DNS records through it`,
      subject: sts,
      path: ['spec', 'serviceName'],
      atKey: false,
      related: [{object: svc, path: ['spec'], atKey: true, message: `the spec of ${describeObject(svc)}`}],
    })
  }
}

/** The replicas a controller runs for the PDB's arithmetic: spec.replicas, defaulted to 1. */
function replicasOf(o: CheckObject): number | undefined {
  if (!o.controller || o.kind === 'DaemonSet' || o.kind === 'Job') return undefined
  const r = o.controller.replicas
  return r === undefined ? 1 : typeof r === 'number' ? r : undefined
}

function pdbDrafts(objects: readonly CheckObject[]): Draft[] {
  const drafts: Draft[] = []
  // An autoscaled controller has no fixed replica count to compare a budget with.
  const autoscaled = new Set<string>()
  for (const o of objects) if (o.hpa?.target) autoscaled.add(`${o.namespace}/${o.hpa.target.kind}/${o.hpa.target.name}`)
  const byNamespace = new Map<string, CheckObject[]>()
  for (const o of objects) {
    if (!o.podLabels) continue
    const l = byNamespace.get(o.namespace)
    if (l) l.push(o)
    else byNamespace.set(o.namespace, [o])
  }
  for (const pdb of objects) {
    if (pdb.kind !== 'PodDisruptionBudget' || pdb.group !== 'policy') continue
    const selector = at(pdb.src.raw, ['spec', 'selector'])
    if (!isMapping(selector)) continue // the schema rules report it
    const reqs = labelSelectorRequirements(selector, ['spec', 'selector'])
    // An empty selector selects every pod of the namespace (policy/v1).
    const matched = (byNamespace.get(pdb.namespace) ?? []).filter((o) => o.kind !== 'Pod' && matchesAll(reqs, o.podLabels as Labels))
    const pods = (byNamespace.get(pdb.namespace) ?? []).filter((o) => o.kind === 'Pod' && matchesAll(reqs, o.podLabels as Labels))
    if (matched.length === 0 && pods.length === 0) {
      drafts.push({rule: 'pdb-selects-nothing', message: `selector matches no pod template or pod in namespace ${pdb.namespace}: the budget protects nothing`, subject: pdb, path: ['spec', 'selector'], atKey: true})
      continue
    }
    const replicas = (o: CheckObject) => (autoscaled.has(`${o.namespace}/${o.kind}/${o.name}`) ? undefined : replicasOf(o))
    const total = matched.reduce<number | undefined>((n, o) => (n === undefined || replicas(o) === undefined ? undefined : n + replicas(o)!), 0)
    const minAvailable = at(pdb.src.raw, ['spec', 'minAvailable'])
    const maxUnavailable = at(pdb.src.raw, ['spec', 'maxUnavailable'])
    let blocking: {path: Path; why: string} | undefined
    if (maxUnavailable === 0 || maxUnavailable === '0%') blocking = {path: ['spec', 'maxUnavailable'], why: `maxUnavailable ${JSON.stringify(maxUnavailable)} allows no disruption`}
    else if (minAvailable === '100%') blocking = {path: ['spec', 'minAvailable'], why: 'minAvailable 100% allows no disruption'}
    else if (typeof minAvailable === 'number' && total !== undefined && pods.length === 0 && minAvailable >= total) {
      blocking = {path: ['spec', 'minAvailable'], why: `minAvailable ${minAvailable} is at least the ${total} replica${total === 1 ? '' : 's'} it selects (${matched.map(describeObject).join(', ')})`}
    }
    if (blocking) {
      drafts.push({
        rule: 'pdb-blocks-eviction',
        message: `${blocking.why}: every voluntary eviction is refused, so a node drain (a cluster upgrade) waits on these pods forever`,
        subject: pdb,
        path: blocking.path,
        atKey: false,
      })
    }
  }
  return drafts
}

/** no-readiness-probe and image-latest, for one workload. */
export function workloadDrafts(o: CheckObject): Draft[] {
  const templatePath = POD_TEMPLATE[o.kind]
  if (!templatePath || !o.controller) return []
  const podSpec = at(o.src.raw, [...templatePath, 'spec'])
  const drafts: Draft[] = []
  const containers = list(at(podSpec, ['containers']))
  const replicas = replicasOf(o)
  if (o.kind === 'Deployment' && (replicas ?? 0) > 1 && containers.length > 0 && !containers.some((c) => isMapping(at(c, ['readinessProbe'])))) {
    drafts.push({
      rule: 'no-readiness-probe',
      message: `${replicas} replicas and no readiness probe: a pod counts as ready as soon as its containers start, so a rollout replaces old pods before the new ones serve, and the Service sends them traffic at once`,
      subject: o,
      path: [...templatePath, 'spec', 'containers'],
      atKey: true,
    })
  }
  for (const field of ['initContainers', 'containers'] as const) {
    list(at(podSpec, [field])).forEach((c, i) => {
      const image = at(c, ['image'])
      if (typeof image !== 'string' || image === '' || image.includes('@')) return // a digest pins it
      const lastPart = image.slice(image.lastIndexOf('/') + 1)
      const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : undefined
      if (tag !== undefined && tag !== 'latest') return
      drafts.push({
        rule: 'image-latest',
        message: `image ${image} ${tag === undefined ? 'has no tag (so :latest)' : 'is tagged :latest'}: which version runs depends on when each node pulled it, and a rollback cannot go back`,
        subject: o,
        path: [...templatePath, 'spec', field, i, 'image'],
        atKey: false,
      })
    })
  }
  return drafts
}
