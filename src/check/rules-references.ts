// Rules about what objects refer to (looked up nearest first: scope.ts):
//   ingress-backend-missing       an Ingress backend names a Service (or a port of it) the input lacks;
//   pdb-selects-nothing           a PodDisruptionBudget selects no pod template or pod;
//   pdb-blocks-eviction           a PodDisruptionBudget no eviction can ever satisfy;
//   networkpolicy-selects-nothing a NetworkPolicy whose podSelector matches no pod template or pod;
// and one about a workload on its own, off unless configured (an opinion):
//   image-latest                  a container image tagged :latest, or not tagged at all.
// What a controller's own objects refer to (a StatefulSet's serviceName, the Nodes a DaemonSet
// runs on) are its own rules (src/controllers/<controller>/rules.ts); so is no-readiness-probe.
import type {Labels} from '../model/objects.js'
import type {Path, RawObject} from '../sources/documents.js'
import {checkedKind} from './controllers.js'
import {describeObject, type Draft} from './draft.js'
import type {CheckObject} from './objects.js'
import {customResourcesNamed, Scope} from './scope.js'
import {labelSelectorRequirements, matchesAll} from './selectors.js'

const isMapping = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

/** The rules of this module over one apply set; references are looked up nearest first (scope.ts). */
export function referenceDrafts(objects: readonly CheckObject[], scope: Scope = new Scope(objects)): Draft[] {
  const drafts: Draft[] = []
  for (const o of objects) {
    if (o.kind === 'Ingress' && (o.group === 'networking.k8s.io' || o.group === 'extensions')) ingressDrafts(o, scope, drafts)
  }
  drafts.push(...pdbDrafts(objects, scope))
  drafts.push(...networkPolicyDrafts(objects, scope))
  return drafts
}

/**
 * networkpolicy-selects-nothing: a non-empty podSelector that no pod template or Pod of the
 * policy's namespace, anywhere in the input, matches: the policy isolates no pod, so the traffic
 * it was written to allow or deny flows as before. (An empty podSelector selects every pod.)
 */
function networkPolicyDrafts(objects: readonly CheckObject[], scope: Scope): Draft[] {
  const drafts: Draft[] = []
  for (const np of objects) {
    if (np.kind !== 'NetworkPolicy' || np.resourceGroup !== 'networking.k8s.io') continue
    const selector = at(np.src.raw, ['spec', 'podSelector'])
    if (!isMapping(selector)) continue
    const reqs = labelSelectorRequirements(selector, ['spec', 'podSelector'])
    if (reqs.length === 0) continue
    if (scope.podCarriers(np.namespace).some((o) => matchesAll(reqs, o.podLabels as Labels))) continue
    const operator = scope.setHoldsCustomResources(np)
    drafts.push({
      rule: 'networkpolicy-selects-nothing',
      message: `podSelector matches no pod template or pod in namespace ${np.namespace}: ${
        operator ? `the pods may be created by an operator (custom resources are applied with it: ${customResourcesNamed(scope, np)}), else the policy` : 'the policy'
      } applies to no pod, so the traffic it was written to restrict is not restricted`,
      ...(operator ? {severity: 'info' as const} : {}),
      subject: np,
      path: ['spec', 'podSelector'],
      atKey: true,
    })
  }
  return drafts
}

function ingressDrafts(ing: CheckObject, scope: Scope, drafts: Draft[]): void {
  const spec = ing.src.raw.spec
  const backends: Array<{backend: unknown; path: Path}> = []
  if (isMapping(at(spec, ['defaultBackend']))) backends.push({backend: at(spec, ['defaultBackend']), path: ['spec', 'defaultBackend']})
  list(at(spec, ['rules'])).forEach((rule, r) => {
    list(at(rule, ['http', 'paths'])).forEach((p, i) => backends.push({backend: at(p, ['backend']), path: ['spec', 'rules', r, 'http', 'paths', i, 'backend']}))
  })
  for (const {backend, path} of backends) {
    const name = at(backend, ['service', 'name'])
    if (typeof name !== 'string') continue // a resource backend, or a field the schema rules report
    const near = scope.servicesNear(ing, name)
    const svc = near.find((s) => servesPort(s, at(backend, ['service', 'port']))) ?? near.at(-1)
    if (!svc) {
      drafts.push({rule: 'ingress-backend-missing', message: `backend Service ${name} is not in the input (namespace ${ing.namespace}): the Ingress would route to nothing (503)`, subject: ing, path: [...path, 'service', 'name'], atKey: false})
      continue
    }
    const port = at(backend, ['service', 'port'])
    const ports = list(svc.service?.spec?.ports)
    const number = at(port, ['number'])
    const portName = at(port, ['name'])
    if (!servesPort(svc, port)) {
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

/** Whether a Service has the port an Ingress backend names (by number or name; none named: any). */
function servesPort(svc: CheckObject, port: unknown): boolean {
  const ports = list(svc.service?.spec?.ports)
  const number = at(port, ['number'])
  const portName = at(port, ['name'])
  return typeof number === 'number' ? ports.some((p) => at(p, ['port']) === number) : typeof portName === 'string' ? ports.some((p) => at(p, ['name']) === portName) : true
}

/** The replicas a controller runs for the PDB's arithmetic: spec.replicas, defaulted to 1. */
function replicasOf(o: CheckObject): number | undefined {
  if (!o.controller || !checkedKind(o)?.scalable) return undefined
  const r = o.controller.replicas
  return r === undefined ? 1 : typeof r === 'number' ? r : undefined
}

/**
 * pdb-selects-nothing looks for the pods nearest first (its file, its apply set, the whole input);
 * pdb-blocks-eviction, a conflict, counts only the replicas of the PDB's own apply set.
 */
function pdbDrafts(objects: readonly CheckObject[], scope: Scope): Draft[] {
  const drafts: Draft[] = []
  const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget' && o.group === 'policy')
  if (pdbs.length === 0) return drafts // (most inputs have none: the indexes below are not built)
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
  for (const pdb of pdbs) {
    const selector = at(pdb.src.raw, ['spec', 'selector'])
    if (!isMapping(selector)) continue // the schema rules report it
    const reqs = labelSelectorRequirements(selector, ['spec', 'selector'])
    // An empty selector selects every pod of the namespace (policy/v1).
    const matched = (byNamespace.get(pdb.namespace) ?? []).filter((o) => o.kind !== 'Pod' && matchesAll(reqs, o.podLabels as Labels))
    const pods = (byNamespace.get(pdb.namespace) ?? []).filter((o) => o.kind === 'Pod' && matchesAll(reqs, o.podLabels as Labels))
    if (matched.length === 0 && pods.length === 0) {
      if (scope.podCarriers(pdb.namespace).some((o) => matchesAll(reqs, o.podLabels as Labels))) continue // elsewhere in the input
      const operator = scope.setHoldsCustomResources(pdb)
      drafts.push({
        rule: 'pdb-selects-nothing',
        message: `selector matches no pod template or pod in namespace ${pdb.namespace}: ${operator ? `the pods may be created by an operator (custom resources are applied with it: ${customResourcesNamed(scope, pdb)}), else the budget protects nothing` : 'the budget protects nothing'}`,
        ...(operator ? {severity: 'info' as const} : {}),
        subject: pdb,
        path: ['spec', 'selector'],
        atKey: true,
      })
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

/** image-latest, for one workload (the pod template its controller's check part names). */
export function workloadDrafts(o: CheckObject): Draft[] {
  const templatePath = checkedKind(o)?.podTemplate
  if (!templatePath || !o.controller) return []
  const podSpec = at(o.src.raw, [...templatePath, 'spec'])
  const drafts: Draft[] = []
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
