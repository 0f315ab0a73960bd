// The table view of a Service's plan: which pods get endpoints and why the others do not, the
// slices and Endpoints written, and what the load balancer is told, in the controllers' order.
import type {ChalkInstance} from 'chalk'
import type {ActionResult} from '../../model/apply.js'
import type {ControllerPlan} from '../../model/plan.js'
import type {EndpointConditions, EndpointExclusion, EndpointPortView, EndpointView, HostExclusion, PodEndpointVerdict, ServiceAction} from './model.js'
import {formatColumns} from '../../render/columns.js'
import type {ApplyLineContext, PlanBlockContext} from '../../render/part.js'
import {applySetNote} from '../../render/plan-lines.js'
import {requeueLine} from '../../render/requeue.js'
import type {ControllerListItem} from '../../render/wire.js'
import {count} from '../../render/words.js'

/** Pods (and endpoints of a slice) are named one by one up to this many, then counted. */
const MAX_LISTED = 10

const EXCLUSION_WORDS: Record<EndpointExclusion, string> = {
  terminal: 'Succeeded or Failed',
  'no-ip': 'no IP yet',
  terminating: 'being deleted (listed only with publishNotReadyAddresses)',
  'node-missing': 'its node is not found (the sync fails and is retried)',
  'no-address-of-type': 'no IP of this family',
  'no-port': 'no service port resolves on it',
}

const DELETE_WORDS: Record<string, string> = {
  'not-owned': 'owned by another Service (an older one of this name)',
  'ports-not-desired': 'no pod resolves to its ports any more',
  'no-endpoints': 'none of its endpoints is wanted',
  selector: 'the Service has a selector now: its mirrored slices go',
  'address-type': 'the Service no longer has this IP family',
}

const HOST_WORDS: Record<HostExclusion, string> = {
  deleting: 'being deleted',
  'exclude-label': 'exclude-from-external-load-balancers',
  'to-be-deleted-taint': 'ToBeDeletedByClusterAutoscaler taint',
}

const WHY_NONE: Record<string, string> = {
  class: 'loadBalancerClass is set: another controller provisions it',
  'class-with-finalizer': 'loadBalancerClass is set: not this controller\'s, though it carries the cleanup finalizer',
  'not-load-balancer': 'not a LoadBalancer',
  'status-cleared': 'its status was cleared while the load balancer exists: a running controller waits for the next Ensure',
  'deleting-without-finalizer': 'being deleted without the cleanup finalizer, which the controller can no longer add',
}

export function renderService(cp: ControllerPlan, head: string, c: ChalkInstance): string {
  const s = cp.service
  const lines: string[] = []
  const totals = (s?.endpoints ?? []).map((t) => `${t.addressType} ${t.total} endpoints (${t.ready} ready) in ${count(t.slices, 'slice')}`).join(', ')
  const what = s?.absent ? 'no such Service' : `${s?.type ?? 'Service'}${s?.selector === null ? ', no selector' : ''}${totals ? `: ${totals}` : ''}`
  lines.push(`${head}  ${what}${cp.inSync ? `  ${c.green('(in sync)')}` : ''}`)
  const pods = s?.pods ?? []
  for (const v of pods.slice(0, MAX_LISTED)) lines.push(c.dim(`  · pod ${v.pod}: ${podWords(v)}`))
  if (pods.length > MAX_LISTED) lines.push(c.dim(`  · and ${pods.length - MAX_LISTED} more selected pods (see service.pods[] in -o json)`))
  for (const a of cp.actions as ServiceAction[]) lines.push(actionLine(a, c))
  for (const pool of s?.pools ?? []) {
    lines.push(c.yellow(`  ~ pool ${pool.id} (${pool.addressType}): ${names(pool.pods)} go to the slices above in the controller's map order (random): which slice gets which is not certain`))
  }
  const lb = s?.loadBalancer
  if (lb?.path === 'none') lines.push(c.dim(`  · load balancer: nothing (${WHY_NONE[lb.why]})`))
  if (lb?.path === 'update' && lb.sent) lines.push(c.dim(`  · load balancer: nodes changed since the provider was last sent hosts ${lb.sent.length > 0 ? names(lb.sent) : 'none'}`))
  for (const x of lb?.excluded ?? []) lines.push(c.dim(`  · node ${x.node}: not a load-balancer host (${HOST_WORDS[x.reason]})`))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  if (cp.requeue) lines.push(requeueLine(cp.requeue, c))
  return lines.join('\n')
}

function podWords(v: PodEndpointVerdict): string {
  const slice = v.slice.in ? `endpoint ${conditionWords(v.slice)}${v.slice.ports.length > 0 ? ` on ${v.slice.ports.join(', ')}` : v.missingPorts ? ' with no ports' : ''}` : `no endpoint: ${EXCLUSION_WORDS[v.slice.reason]}`
  const legacy = v.endpoints.in ? (v.endpoints.ready ? 'ready' : 'not ready') : `left out (${EXCLUSION_WORDS[v.endpoints.reason]})`
  const missing = v.missingPorts ? `; no container port ${v.missingPorts.join(', ')}` : ''
  return `${slice}${missing}; Endpoints: ${legacy}`
}

function conditionWords(c: EndpointConditions): string {
  return `ready=${c.ready ?? '-'} serving=${c.serving ?? '-'} terminating=${c.terminating ?? '-'}`
}

const portWords = (ports: readonly EndpointPortView[]): string =>
  ports.length === 0 ? 'no ports' : `ports ${ports.map((p) => `${p.name ? `${p.name} ` : ''}${p.port}/${p.protocol}`).join(', ')}`

function names(list: readonly string[]): string {
  const shown = list.slice(0, MAX_LISTED).join(', ')
  return list.length > MAX_LISTED ? `${shown}, … (${list.length} in all)` : shown
}

const endpointNames = (eps: readonly EndpointView[]): string[] => eps.map((e) => e.targetRef?.name ?? e.addresses.join(','))

function members(a: {endpoints: readonly EndpointView[]; random?: number; pool?: number; size: number}): string {
  const known = endpointNames(a.endpoints)
  const drawn = a.random ? `${known.length > 0 ? ' + ' : ''}${a.random} from pool ${a.pool}` : ''
  return `${count(a.size, 'endpoint')}${known.length > 0 || drawn ? `: ${names(known)}${drawn}` : ''}`
}

export function actionLine(a: ServiceAction, c: ChalkInstance): string {
  const by = 'controller' in a && a.controller ? ` (${a.controller})` : ''
  switch (a.type) {
    case 'createEndpointSlice': {
      const what = a.placeholder ? 'placeholder (no endpoints, no ports)' : `${portWords(a.ports)}, ${members(a)}`
      const skipped = a.skipped ? '  — skipped: the Service is being deleted' : ''
      return c.green(`  + create EndpointSlice ${a.generateName}<random> ${a.addressType}${by}: ${what}${skipped}`)
    }
    case 'updateEndpointSlice': {
      const parts: string[] = []
      if (a.recycled) parts.push(a.placeholder ? 'rewritten as the placeholder' : `rewritten (reused name): ${portWords(a.ports)}`)
      if (a.added.length > 0) parts.push(`+${names(a.added)}`)
      if (a.random) parts.push(`+${a.random} from pool ${a.pool}`)
      if (a.removed.length > 0) parts.push(`-${names(a.removed)}`)
      for (const ch of a.changed.slice(0, MAX_LISTED)) parts.push(`${ch.pod} ${changeWords(ch.from, ch.to)}`)
      if (a.changed.length > MAX_LISTED) parts.push(`${a.changed.length - MAX_LISTED} more changed`)
      if (a.labelsChanged) parts.push('labels')
      if (a.hintsChanged) parts.push('hints')
      return c.yellow(`  ~ update EndpointSlice ${a.name} ${a.addressType}${by}: ${parts.join(', ')} → ${count(a.size, 'endpoint')}`)
    }
    case 'deleteEndpointSlice':
      return c.red(`  - delete EndpointSlice ${a.name} ${a.addressType}${by}  because: ${DELETE_WORDS[a.reason]}`)
    case 'writeEndpoints': {
      const ready = a.subsets.reduce((n, s) => n + s.addresses.length, 0)
      const notReady = a.subsets.reduce((n, s) => n + s.notReadyAddresses.length, 0)
      const cut = a.truncated ? `, truncated from ${a.truncated.from} (over-capacity annotation)` : ''
      return c.yellow(`  ${a.verb === 'create' ? '+' : '~'} ${a.verb} Endpoints ${a.name}: ${ready} ready, ${notReady} not ready in ${count(a.subsets.length, 'subset')}${cut}`)
    }
    case 'deleteEndpoints':
      return c.red(`  - delete Endpoints ${a.name}  because: no Service of that name (the Endpoints controller deletes leftovers)`)
    case 'addLoadBalancerFinalizer':
      return c.yellow(`  ~ add finalizer ${a.finalizer} (before any cloud call)`)
    case 'removeLoadBalancerFinalizer':
      return c.yellow(`  ~ remove finalizer ${a.finalizer}`)
    case 'ensureLoadBalancer':
    case 'updateLoadBalancerHosts': {
      const call = a.type === 'ensureLoadBalancer' ? 'EnsureLoadBalancer' : 'UpdateLoadBalancer'
      return c.cyan(`  → ${call} ${a.loadBalancer} hosts ${a.hosts.length > 0 ? names(a.hosts) : 'none'}${a.warning ? ` (${a.warning})` : ''}`)
    }
    case 'ensureLoadBalancerDeleted':
      return c.red(`  → EnsureLoadBalancerDeleted ${a.loadBalancer} (if GetLoadBalancer says it exists)`)
    case 'writeLoadBalancerStatus':
      return a.ingress === 'clear'
        ? c.yellow(`  ~ status.loadBalancer cleared (was ${ingressWords(a.from)})`)
        : c.yellow(`  ~ status.loadBalancer: what the cloud returns, if it differs from ${a.from.length > 0 ? ingressWords(a.from) : 'the empty status'}`)
  }
}

function changeWords(from: EndpointConditions, to: EndpointConditions): string {
  const keys = ['ready', 'serving', 'terminating'] as const
  const diff = keys.filter((k) => from[k] !== to[k]).map((k) => `${k} ${from[k] ?? '-'}→${to[k] ?? '-'}`)
  return diff.length > 0 ? diff.join(' ') : 'node or zone changed'
}

const ingressWords = (ingress: readonly {ip?: string; hostname?: string}[]): string => ingress.map((i) => i.ip ?? i.hostname ?? '?').join(', ')

/** Its block of `kctl plan`'s table. */
export const planBlock = (cp: ControllerPlan, {c}: PlanBlockContext): string => renderService(cp, `${c.bold(`Service ${cp.namespace}/${cp.name}`)}${applySetNote(cp, c)}`, c)

/** Its lines of `kctl reconcile`'s report: the plan's line, the slice the server named, the address the cloud gave. */
export function applyLines(r: ActionResult, {c, outcome}: ApplyLineContext): string[] | undefined {
  const a = r.predicted
  if (r.action === 'updateStatus' || !a) return undefined
  // A Service's write: the plan's line, the slice the server named, the address the cloud gave.
  const ingress = r.done?.loadBalancer?.ingress.map((i) => i.ip ?? i.hostname).join(', ')
  const done =
    r.done?.name && a.type === 'createEndpointSlice'
      ? ` → ${r.done.name}`
      : ingress
        ? ` → ${ingress}`
        : r.done?.implementedElsewhere
          ? ' → implemented elsewhere'
          : r.done?.unchanged
            ? ' → already so, nothing written'
            : r.done?.existed === false
              ? ' → it did not exist'
              : ''
  const drawn = r.done?.chosen ? c.dim(` (with ${r.done.chosen.length} of the pool, by name; the controller draws at random)`) : ''
  return [`${actionLine(a as ServiceAction, c)}${done}${drawn}  ${outcome(r)}`]
}

/** A Service's load balancer in a word or two: its addresses, pending, being deleted, or why none. */
export function loadBalancerState(c: ControllerPlan): string | undefined {
  const lb = c.service?.loadBalancer
  if (!lb) return undefined
  if (lb.path === 'delete') return 'deleting'
  if (lb.path === 'none') return lb.why === 'not-load-balancer' ? 'none' : lb.why === 'status-cleared' ? 'status cleared' : lb.why === 'deleting-without-finalizer' ? 'deleting' : 'other class'
  const ingress = 'loadBalancer' in c.status ? c.status.loadBalancer.ingress : []
  return ingress.length > 0 ? ingress.map((i) => i.ip ?? i.hostname ?? '?').join(',') : 'pending'
}

/** Its fields of a `kctl list` item: the Service's type, pods, endpoints, slices and load balancer. */
export function listFields(c: ControllerPlan): Partial<ControllerListItem> {
  const s = c.service
  if (!s) return {}
  const lb = loadBalancerState(c)
  return {
    serviceType: s.type,
    selectedPods: s.pods.length,
    endpoints: s.endpoints.reduce((n, t) => n + t.total, 0),
    readyEndpoints: s.endpoints.reduce((n, t) => n + t.ready, 0),
    slices: s.endpoints.reduce((n, t) => n + t.slices, 0),
    ...(lb !== undefined ? {loadBalancer: lb} : {}),
    ...(s.loadBalancer?.path === 'ensure' ? {loadBalancerHosts: s.loadBalancer.hosts.length} : {}),
  }
}

const SERVICE_HEADER = ['KIND', 'NAMESPACE', 'NAME', 'TYPE', 'PODS', 'ENDPOINTS', 'READY', 'SLICES', 'LOAD BALANCER', 'IN SYNC']

/** `kctl list`'s table of Services: selected pods, endpoints (and ready ones) and slices once the sync is done, the load balancer's state and the hosts it is given. */
export function listTable(services: readonly ControllerPlan[]): string {
  const rows = services.map((c) => {
    const item = listFields(c)
    const hosts = item.loadBalancerHosts === undefined ? '' : ` → ${item.loadBalancerHosts} host${item.loadBalancerHosts === 1 ? '' : 's'}`
    return [c.kind, c.namespace, c.name, item.serviceType || '-', String(item.selectedPods ?? 0), String(item.endpoints ?? 0), String(item.readyEndpoints ?? 0), String(item.slices ?? 0), `${item.loadBalancer ?? '-'}${hosts}`, c.inSync ? 'yes' : 'no']
  })
  if (services.some((c) => c.applySet !== undefined)) return formatColumns([...SERVICE_HEADER, 'APPLY SET'], rows.map((r, i) => [...r, services[i].applySet || '-']))
  return formatColumns(SERVICE_HEADER, rows)
}
