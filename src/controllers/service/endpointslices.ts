// One sync of the EndpointSlice controller for one Service: syncService
// (pkg/controller/endpointslice/endpointslice_controller.go) and the reconciler it calls
// (staging k8s.io/endpointslice reconciler.go: Reconcile, reconcileByAddressType,
// reconcileByPortMapping, finalize). Pure; the controller is taken as freshly started (the
// trigger-time annotation is the Service's creationTimestamp) with a consistent cache.
//
// Upstream draws new endpoints from a Go map (EndpointSet.PopAny): when they go to more than one
// slice, the plan says how many each slice gets and from which pods, not which pod goes where.
import type {Labels, NodeView, OwnerReference, PodView} from '../../model/objects.js'
import type {
  CreateEndpointSliceAction,
  DeleteEndpointSliceAction,
  EndpointChange,
  EndpointConditions,
  EndpointPool,
  EndpointPortView,
  EndpointSliceView,
  EndpointView,
  PodEndpointVerdict,
  PodRef,
  ServiceAction,
  ServiceView,
  SliceChoice,
  SliceDeleteReason,
  UpdateEndpointSliceAction,
} from './model.js'
import {
  addressesOf,
  endpointPorts,
  HEADLESS_LABEL,
  hasClusterIP,
  hostnameFor,
  MANAGED_BY_LABEL,
  podExclusion,
  portsKey,
  type ResolvedPorts,
  sameLabels,
  SERVICE_NAME_LABEL,
  serviceLabels,
  SLICE_CONTROLLER,
  sortPorts,
  triggerTime,
  ZONE_LABEL,
} from './endpoints-common.js'

export interface SliceSyncInput {
  svc: ServiceView
  /** The pods the Service selects. */
  pods: readonly PodView[]
  nodes: ReadonlyMap<string, NodeView>
  /** Whether nodes were read at all (without them, a node lookup says nothing). */
  nodesKnown: boolean
  /** The slices of the Service's namespace labelled with its name (the only ones either controller reads for it). */
  slices: readonly EndpointSliceView[]
  maxEndpointsPerSlice: number
}

export interface SliceSyncResult {
  actions: ServiceAction[]
  /** Per pod (by its place in the input): its endpoint's conditions, or why it has none (the `slice` half of the verdict). */
  verdicts: PodEndpointVerdict['slice'][]
  /** Per pod (by its place in the input), set only for a pod that lacks some: the Service ports its named targetPort does not find. */
  missingPorts: (readonly string[] | undefined)[]
  pools: EndpointPool[]
  /** The controller's random choices the plan states (which name a new slice takes, which slice keeps a duplicate). */
  choices: SliceChoice[]
  /** Endpoints per address type once the sync is done. */
  totals: {addressType: string; ready: number; total: number; slices: number}[]
  warnings: string[]
  /** The sync ends in an error and is retried (a pod's node is missing). */
  requeue?: string
  /** Per pod (by its place in the input), the reference its endpoint carries, when it has one: the Endpoints controller's address may share it. */
  refs: (PodRef | undefined)[]
}

const RESERVED = [SERVICE_NAME_LABEL, MANAGED_BY_LABEL, HEADLESS_LABEL]

/** The controller's slices of a Service (E2.5): its two labels, not being deleted. */
export function managedSlices(svc: ServiceView, slices: readonly EndpointSliceView[]): EndpointSliceView[] {
  return slices.filter(
    (s) => s.namespace === svc.namespace && s.labels[SERVICE_NAME_LABEL] === svc.name && s.labels[MANAGED_BY_LABEL] === SLICE_CONTROLLER && s.deletionTimestamp === undefined,
  )
}

/** getAddressTypesForService (E6): one per IP family; with none, the cluster IP's, or both when headless. */
export function addressTypes(svc: ServiceView): string[] {
  if (svc.ipFamilies.length > 0) return [...svc.ipFamilies]
  if (hasClusterIP(svc)) return [svc.clusterIP.includes(':') ? 'IPv6' : 'IPv4']
  return ['IPv4', 'IPv6']
}

/** The labels every slice of the Service carries (setEndpointSliceLabels). */
export function sliceLabels(svc: ServiceView): Record<string, string> {
  const labels = serviceLabels(svc, RESERVED)
  if (!hasClusterIP(svc)) labels[HEADLESS_LABEL] = ''
  labels[SERVICE_NAME_LABEL] = svc.name
  labels[MANAGED_BY_LABEL] = SLICE_CONTROLLER
  return labels
}

export const serviceOwner = (svc: ServiceView): OwnerReference => ({apiVersion: 'v1', kind: 'Service', name: svc.name, uid: svc.uid, controller: true, blockOwnerDeletion: true})

const ownedBy = (slice: EndpointSliceView, svc: ServiceView): boolean =>
  slice.ownerReferences.some((r) => r.uid === svc.uid && r.kind === 'Service' && r.apiVersion === 'v1')

/** hashEndpoint: sorted addresses, hostname, and the pod's namespace and name (one address, the usual case, needs no sort). */
export const endpointId = (ep: EndpointView): string =>
  `${ep.addresses.length === 1 ? ep.addresses[0] : addressesId(ep.addresses)}\u0000${ep.hostname ?? ''}\u0000${ep.targetRef?.namespace ?? ''}\u0000${ep.targetRef?.name ?? ''}`

/** An endpoint's addresses as its id holds them: sorted, comma-separated. */
const addressesId = (addresses: readonly string[]): string => [...addresses].sort().join(',')

const sameRef = (a: EndpointView['targetRef'], b: EndpointView['targetRef']): boolean =>
  a === b || (a !== undefined && b !== undefined && a.kind === b.kind && a.namespace === b.namespace && a.name === b.name && a.uid === b.uid)

/** EndpointsEqualBeyondHash: conditions, node, zone and pod reference (hints are not compared). */
function equalBeyondId(a: EndpointView, b: EndpointView): boolean {
  return (
    a.conditions.ready === b.conditions.ready &&
    a.conditions.serving === b.conditions.serving &&
    a.conditions.terminating === b.conditions.terminating &&
    a.nodeName === b.nodeName &&
    a.zone === b.zone &&
    sameRef(a.targetRef, b.targetRef)
  )
}

const podOf = (ep: EndpointView): string => ep.targetRef?.name ?? ep.addresses.join(',')

/** A slice being built: where it came from, and what it holds. */
interface Draft {
  existing?: EndpointSliceView
  ports: EndpointPortView[]
  endpoints: EndpointView[]
  random: number
  labelsChanged: boolean
  placeholder?: boolean
  /** The pool its `random` endpoints are drawn from. */
  pool?: number
  /** Written only to bring its hints in line. */
  hintsOnly?: boolean
}

/** A draft with every field set (unset ones undefined), so that all drafts share one shape. */
const draftOf = (fields: Pick<Draft, 'ports' | 'endpoints' | 'labelsChanged'> & Partial<Draft>): Draft => ({
  existing: fields.existing,
  ports: fields.ports,
  endpoints: fields.endpoints,
  random: fields.random ?? 0,
  labelsChanged: fields.labelsChanged,
  placeholder: fields.placeholder,
  pool: fields.pool,
  hintsOnly: fields.hintsOnly,
})

export function syncSlices(input: SliceSyncInput): SliceSyncResult {
  const {svc} = input
  const result: SliceSyncResult = {actions: [], verdicts: [], missingPorts: [], pools: [], choices: [], totals: [], warnings: [], refs: []}
  const types = addressTypes(svc)
  const existing = managedSlices(svc, input.slices)
  const zones = nodeZones(input.nodes)
  const labels = sliceLabels(svc)
  const time = triggerTime(svc)
  const creates: {draft: Draft; addressType: string}[] = []
  const updates: {draft: Draft; addressType: string}[] = []
  /** `group`: the port list a delete was found under (finalize takes them per port list, in map order). */
  const deletes: {slice: EndpointSliceView; reason: SliceDeleteReason; group?: string}[] = []
  const typeDeletes: EndpointSliceView[] = []
  /** Every endpoint wanted, of every address type (the topology allocator looks at the ones written). */
  const desiredAll: EndpointView[] = []

  for (const slice of existing) if (!types.includes(slice.addressType)) typeDeletes.push(slice)

  for (const addressType of types) {
    const ofType = existing.filter((s) => s.addressType === addressType)
    const owned = new Map<string, EndpointSliceView[]>()
    const typeDeletesBefore = deletes.length
    const typeCreatesBefore = creates.length
    for (const slice of ofType) {
      if (!ownedBy(slice, svc)) {
        deletes.push({slice, reason: 'not-owned'})
        continue
      }
      const key = portsKey(slice.ports)
      owned.set(key, [...(owned.get(key) ?? []), slice])
    }

    // Desired endpoints, grouped by the ports they resolve to (E8.2).
    const desired = new Map<string, WantedGroup>()
    for (let i = 0; i < input.pods.length; i++) {
      const pod = input.pods[i]
      const excluded = podExclusion(pod, true)
      if (excluded) {
        result.verdicts[i] = {in: false, reason: excluded}
        continue
      }
      const resolved = endpointPorts(svc, pod)
      const missing = resolved.missing
      const key = resolved.key
      let group = desired.get(key)
      if (!group) desired.set(key, (group = {ports: sortPorts(resolved.ports), endpoints: new Map(), byName: true}))
      const zone = zones.get(pod.nodeName)
      if (zone === undefined && input.nodesKnown && !svc.publishNotReadyAddresses) {
        result.verdicts[i] = {in: false, reason: 'node-missing'}
        result.requeue = `pod ${pod.name}'s node ${JSON.stringify(pod.nodeName)} is not found: the sync writes the rest and fails (retried)`
        continue
      }
      const endpoint = podToEndpoint(pod, zone, svc, addressType, (result.refs[i] ??= {kind: 'Pod', name: pod.name, namespace: pod.namespace, uid: pod.uid}))
      if (endpoint.addresses.length === 0) {
        if (result.verdicts[i]?.in) continue
        result.verdicts[i] = {in: false, reason: 'no-address-of-type'}
      } else {
        addWanted(group, endpoint, pod.name)
        // (The port numbers are shared by the pods that resolve alike: nothing changes them.)
        result.verdicts[i] = listed(resolved, endpoint.conditions)
      }
      if (missing.length > 0) result.missingPorts[i] = missing
    }

    // Every desired endpoint is placed (created slices are skipped only while the Service goes).
    let total = 0
    let ready = 0
    for (const group of desired.values()) {
      group.endpoints.forEach((e) => {
        desiredAll.push(e)
        total++
        if (e.conditions.ready) ready++
      })
    }
    result.totals.push({addressType, ready, slices: 0, total})
    for (const [key, group] of desired) {
      const r = reconcileByPorts(owned.get(key) ?? [], group, svc, input.maxEndpointsPerSlice, result, addressType)
      for (const d of r.updates) updates.push({draft: d, addressType})
      for (const d of r.creates) creates.push({draft: d, addressType})
      for (const s of r.deletes) deletes.push({slice: s, reason: 'no-endpoints', group: key})
    }
    for (const [key, slices] of owned) if (!desired.has(key)) for (const slice of slices) deletes.push({slice, reason: 'ports-not-desired', group: key})

    // E8.8: every slice of the type goes and none comes: a placeholder instead.
    const goneOfType = deletes.length - typeDeletesBefore
    if (goneOfType === ofType.length && creates.length === typeCreatesBefore) {
      const only = deletes.length - typeDeletesBefore === 1 ? deletes[deletes.length - 1].slice : undefined
      if (only && isPlaceholder(only, svc, labels)) deletes.pop()
      else creates.push({draft: draftOf({ports: [], endpoints: [], labelsChanged: false, placeholder: true}), addressType})
    }
  }

  hints(svc, [...creates, ...updates].map((x) => x.draft), existing.filter((s) => !deletes.some((d) => d.slice === s)), updates, types, result.pools, {desired: desiredAll, nodesKnown: input.nodesKnown, warnings: result.warnings})

  // finalize runs once per address type (reconcileByAddressType calls it with that type's lists):
  // the type's last create takes the name of its first slice being deleted that the Service owns,
  // and so on. A create never takes the name of a slice of the other family.
  const recycled: {draft: Draft; addressType: string; name: EndpointSliceView}[] = []
  for (const addressType of types) {
    const pending = creates.filter((c) => c.addressType === addressType)
    const choice = recycleChoice(addressType, pending, deletes.filter((d) => d.slice.addressType === addressType && ownedBy(d.slice, svc)))
    if (choice) {
      result.choices.push(choice)
      result.warnings.push(recycleWords(choice))
    }
    for (let i = 0; i < deletes.length && pending.length > 0; ) {
      const del = deletes[i].slice
      if (del.addressType === addressType && ownedBy(del, svc)) {
        const last = pending.pop()!
        creates.splice(creates.indexOf(last), 1)
        recycled.push({...last, name: del})
        deletes.splice(i, 1)
      } else i++
    }
  }

  const owner = serviceOwner(svc)
  for (const {draft, addressType} of creates) {
    const a: CreateEndpointSliceAction = {
      type: 'createEndpointSlice',
      generateName: `${svc.name}-`,
      addressType,
      ports: draft.ports,
      endpoints: draft.endpoints,
      size: draft.endpoints.length + draft.random,
      labels,
      ownerReference: owner,
      ...(time ? {triggerTime: time} : {}),
    }
    if (draft.random > 0) Object.assign(a, {random: draft.random, pool: draft.pool})
    if (draft.placeholder) a.placeholder = true
    if (svc.deletionTimestamp !== undefined) a.skipped = 'service-deleting'
    result.actions.push(a)
  }
  for (const {draft, addressType} of updates) result.actions.push(updateAction(draft, draft.existing!, addressType, labels, time))
  for (const {draft, addressType, name} of recycled) {
    const a = updateAction(draft, name, addressType, labels, time)
    a.recycled = true
    result.actions.push(a)
  }
  for (const {slice, reason} of deletes) result.actions.push(deleteAction(slice, reason))
  for (const slice of typeDeletes) result.actions.push(deleteAction(slice, 'address-type'))

  for (const t of result.totals) t.slices = slicesAfter(existing, result.actions, t.addressType)
  if (!input.nodesKnown && input.pods.length > 0) result.warnings.push('no Node was read: endpoints get no zone, and a pod on a missing node is listed though the controller would leave it out')
  return result
}

/** Every set of conditions an endpoint is given, shared (nothing changes them): at ready·4 + serving·2 + terminating. */
const CONDITIONS: readonly Required<EndpointConditions>[] = Array.from({length: 8}, (_, i) => Object.freeze({ready: (i & 4) !== 0, serving: (i & 2) !== 0, terminating: (i & 1) !== 0}))

type Listed = Extract<PodEndpointVerdict['slice'], {in: true}>

/** The slice half of a listed pod's verdict, shared by the pods that resolve their ports alike and have the same conditions. */
const listedVerdicts = new WeakMap<ResolvedPorts, Listed[]>()

function listed(resolved: ResolvedPorts, c: EndpointConditions): Listed {
  let byConditions = listedVerdicts.get(resolved)
  if (!byConditions) listedVerdicts.set(resolved, (byConditions = []))
  const i = (c.ready ? 4 : 0) + (c.serving ? 2 : 0) + (c.terminating ? 1 : 0)
  return (byConditions[i] ??= Object.freeze({in: true as const, ports: resolved.numbers, ready: c.ready!, serving: c.serving!, terminating: c.terminating!}))
}

/** `zone`: the zone label of the pod's node, null when it has none, undefined when the node is not known. */
function podToEndpoint(pod: PodView, zone: string | null | undefined, svc: ServiceView, addressType: string, targetRef: PodRef): EndpointView {
  const serving = pod.ready
  const terminating = pod.deletionTimestamp !== undefined
  const ready = svc.publishNotReadyAddresses || (serving && !terminating)
  const addresses = addressesOf(pod, addressType)
  const conditions = CONDITIONS[(ready ? 4 : 0) + (serving ? 2 : 0) + (terminating ? 1 : 0)]
  const hostname = hostnameFor(pod, svc)
  const nodeName = pod.nodeName
  // Keys in sorted order, as the plan writes them (it then need not copy the endpoint); the usual
  // endpoint (a node with a zone, no hostname) made whole at once.
  if (hostname === undefined && nodeName !== '' && zone) return {addresses, conditions, nodeName, targetRef, zone}
  const ep: EndpointView = {addresses, conditions}
  if (hostname !== undefined) ep.hostname = hostname
  if (nodeName !== '') ep.nodeName = nodeName
  ep.targetRef = targetRef
  if (zone) ep.zone = zone
  return ep
}

/**
 * Per node name, its node's zone label (null without one): absent when no such node was read.
 * Made once per map of nodes (nothing changes one), whose nodes have many pods; a pod's node is
 * then one lookup by its name.
 */
function nodeZones(nodes: ReadonlyMap<string, NodeView>): ReadonlyMap<string, string | null> {
  let zones = ZONES.get(nodes)
  if (!zones) {
    zones = new Map()
    for (const [name, node] of nodes) zones.set(name, node.labels[ZONE_LABEL] ?? null)
    ZONES.set(nodes, zones)
  }
  return zones
}

const ZONES = new WeakMap<ReadonlyMap<string, NodeView>, Map<string, string | null>>()

/**
 * The endpoints wanted for one port list, in the order their pods come. Keyed by pod name while
 * every one has its own (a name is one endpoint id: the pods are of the Service's namespace), which
 * spares building each endpoint's id; by endpoint id otherwise.
 */
interface WantedGroup {
  ports: EndpointPortView[]
  endpoints: Map<string, EndpointView>
  byName: boolean
}

function addWanted(group: WantedGroup, endpoint: EndpointView, name: string): void {
  if (group.byName) {
    if (name !== '' && !group.endpoints.has(name)) {
      group.endpoints.set(name, endpoint)
      return
    }
    // A pod name twice (or none): keyed by endpoint id from here on, in the same order.
    const byId = new Map<string, EndpointView>()
    for (const ep of group.endpoints.values()) byId.set(endpointId(ep), ep)
    group.endpoints = byId
    group.byName = false
  }
  group.endpoints.set(endpointId(endpoint), endpoint)
}

/** The key under which the group holds the endpoint with `ep`'s id, or undefined when it holds none. */
function wantedKey(ep: EndpointView, group: WantedGroup): string | undefined {
  if (!group.byName) {
    const id = endpointId(ep)
    return group.endpoints.has(id) ? id : undefined
  }
  const name = ep.targetRef?.name
  if (name === undefined) return undefined
  const wanted = group.endpoints.get(name)
  return wanted !== undefined && sameId(ep, wanted) ? name : undefined
}

/** endpointId(a) === endpointId(b), without building them. */
function sameId(a: EndpointView, b: EndpointView): boolean {
  if ((a.hostname ?? '') !== (b.hostname ?? '') || (a.targetRef?.namespace ?? '') !== (b.targetRef?.namespace ?? '') || (a.targetRef?.name ?? '') !== (b.targetRef?.name ?? '')) return false
  const x = a.addresses
  const y = b.addresses
  return x.length === 1 && y.length === 1 ? x[0] === y[0] : addressesId(x) === addressesId(y)
}

/** reconcileByPortMapping: keep, update, fill, then create (E8.4–E8.6). */
function reconcileByPorts(
  slices: readonly EndpointSliceView[],
  group: WantedGroup,
  svc: ServiceView,
  max: number,
  result: SliceSyncResult,
  addressType: string,
): {creates: Draft[]; updates: Draft[]; deletes: EndpointSliceView[]} {
  const updates: Draft[] = []
  const unchanged: Draft[] = []
  const deletes: EndpointSliceView[] = []
  const svcLabels = serviceLabels(svc, RESERVED)
  const svcLabelCount = Object.keys(svcLabels).length
  // Step 1 walks the slices in the informer cache's order (random); here by name. An endpoint that
  // more than one slice holds stays in the first one walked: a choice the plan states (E8.4).
  // Per wanted endpoint, the slice names that hold it: one name, or a list once a second holds it.
  const {ports, endpoints: want} = group
  // (With one slice, nothing is held twice: no holders are kept.)
  const holders = new Map<string, string | string[]>()
  const ids: (string | undefined)[][] = []
  for (const slice of slices) {
    const sliceIds: (string | undefined)[] = []
    ids.push(sliceIds)
    const eps = slice.endpoints
    for (let j = 0; j < eps.length; j++) {
      const id = wantedKey(eps[j], group)
      sliceIds.push(id)
      if (id === undefined || slices.length === 1) continue
      const names = holders.get(id)
      if (names === undefined) holders.set(id, slice.name)
      else if (typeof names === 'string') {
        if (names !== slice.name) holders.set(id, [names, slice.name])
      } else if (!names.includes(slice.name)) names.push(slice.name)
    }
  }
  holders.forEach((names, id) => {
    if (typeof names === 'string') return
    const pod = podOf(want.get(id)!)
    result.choices.push({kind: 'duplicateEndpoint', addressType, pod, slices: names, shown: names[0]})
    result.warnings.push(
      `pod ${pod}'s ${addressType} endpoint is in slices ${names.join(', ')}: the controller walks them in its cache's order (random), the first keeps it and the others drop it; shown: ${names[0]} keeps it`,
    )
  })
  for (let i = 0; i < slices.length; i++) {
    const slice = slices[i]
    const kept: EndpointView[] = []
    let changed = false
    const sliceIds = ids[i]
    for (let j = 0; j < slice.endpoints.length; j++) {
      const ep = slice.endpoints[j]
      const id = sliceIds[j]
      const got = id === undefined ? undefined : want.get(id)
      if (!got) continue
      kept.push(got)
      if (!equalBeyondId(got, ep)) changed = true
      want.delete(id!)
    }
    const labelsChanged = !sameUnreserved(slice.labels, svcLabels, svcLabelCount)
    const draft = draftOf({existing: slice, ports: sortPorts(slice.ports), endpoints: kept, labelsChanged})
    if (changed || kept.length !== slice.endpoints.length) {
      if (kept.length === 0) deletes.push(slice)
      else updates.push(draft)
    } else if (labelsChanged) updates.push(draft)
    else unchanged.push(draft)
  }

  // What is left goes to the slices being updated (fullest first), then into one unchanged slice
  // that can take it whole, or new slices. PopAny's order is random: see the file comment.
  let left = want.size
  const receivers: Draft[] = []
  const take = (d: Draft, n: number) => {
    d.random += n
    left -= n
    if (n > 0 && !receivers.includes(d)) receivers.push(d)
  }
  if (left > 0 && updates.length > 0) {
    const byLength = [...updates].sort((a, b) => b.endpoints.length - a.endpoints.length)
    const lengths = byLength.map((d) => d.endpoints.length)
    if (new Set(lengths).size !== lengths.length && lengths.reduce((s, n) => s + (max - n), 0) > left) {
      result.warnings.push('slices being updated hold equally many endpoints: upstream fills them in random order, so which of them gets the new endpoints is not certain')
      result.choices.push({kind: 'fillOrder', addressType, slices: byLength.map((d) => d.existing!.name), shown: byLength.map((d) => d.existing!.name)})
    }
    for (const d of byLength) take(d, Math.min(left, Math.max(0, max - d.endpoints.length)))
  }
  const creates: Draft[] = []
  while (left > 0) {
    let fill: Draft | undefined
    if (left < max && unchanged.length > 0) {
      let closest = max
      for (const d of unchanged) {
        const diff = max - (left + d.endpoints.length)
        if (diff >= 0 && diff < closest) {
          closest = diff
          fill = d
          if (diff === 0) break
        }
      }
      const ties = fill ? unchanged.filter((d) => d !== fill && d.endpoints.length === fill!.endpoints.length) : []
      if (fill && ties.length > 0) {
        result.warnings.push(`unchanged slices of ${fill.endpoints.length} endpoints can each take the ${left} new ones: upstream picks one at random (shown: ${fill.existing!.name})`)
        result.choices.push({kind: 'fillOrder', addressType, slices: [fill, ...ties].map((d) => d.existing!.name), shown: [fill.existing!.name]})
      }
    }
    if (fill) {
      unchanged.splice(unchanged.indexOf(fill), 1)
      updates.push(fill)
      take(fill, left)
    } else {
      const d = draftOf({ports, endpoints: [], labelsChanged: false})
      creates.push(d)
      take(d, Math.min(left, max))
    }
  }
  // One receiver: it gets every remaining endpoint, whatever the order.
  const remaining = [...want.values()]
  if (receivers.length === 1) {
    const r = receivers[0]
    r.endpoints = [...r.endpoints, ...remaining]
    r.random = 0
  } else if (receivers.length > 1) {
    const id = result.pools.length + 1
    const drawn = [...remaining].sort((a, b) => (podOf(a) < podOf(b) ? -1 : podOf(a) > podOf(b) ? 1 : 0))
    result.pools.push({id, addressType, pods: drawn.map(podOf), endpoints: drawn})
    for (const d of receivers) d.pool = id
  }
  return {creates, updates, deletes}
}

/** sameLabels(unreserved(labels, RESERVED), want), without the copy; `count`: how many labels `want` has. */
function sameUnreserved(labels: Labels, want: Record<string, string>, count: number): boolean {
  let n = 0
  for (const k in labels) {
    if (RESERVED.includes(k)) continue
    if (want[k] !== labels[k]) return false
    n++
  }
  return n === count
}

/** What makes two new slices' writes differ: ports, size, placeholder. */
const shapeOf = (d: {draft: Draft}): string => `${portsKey(d.draft.ports)}|${d.draft.endpoints.length + d.draft.random}|${d.draft.placeholder ? 'p' : ''}`

/**
 * finalize's random part (E8.9): the type's deletes come per port list in map order, each list's in
 * set order (those left empty first, then those whose port list is no longer wanted), so the names
 * the new slices take are a draw; so is which new content goes under which name when they differ.
 * Undefined when the outcome is certain.
 */
function recycleChoice(
  addressType: string,
  pending: readonly {draft: Draft}[],
  owned: readonly {slice: EndpointSliceView; reason: SliceDeleteReason; group?: string}[],
): Extract<SliceChoice, {kind: 'recycledName'}> | undefined {
  const k = Math.min(pending.length, owned.length)
  if (k === 0) return undefined
  const emptied = owned.filter((d) => d.reason === 'no-endpoints')
  const unwanted = owned.filter((d) => d.reason !== 'no-endpoints')
  const certain = k > emptied.length ? emptied.map((d) => d.slice.name) : []
  const pool = k > emptied.length ? unwanted : emptied
  const take = k - certain.length
  const byGroup = new Map<string, string[]>()
  for (const d of pool) byGroup.set(d.group ?? '', [...(byGroup.get(d.group ?? '') ?? []), d.slice.name])
  const taken = pending.slice(pending.length - k)
  const shapes = new Set(taken.map(shapeOf))
  const groupsOfCreates = new Set(pending.map((c) => portsKey(c.draft.ports)))
  const pairing = (k >= 2 && shapes.size > 1) || (k < pending.length && groupsOfCreates.size > 1 && new Set(pending.map(shapeOf)).size > 1)
  if ((take === 0 || take === pool.length) && !pairing) return undefined
  return {
    kind: 'recycledName',
    addressType,
    certain,
    take,
    groups: [...byGroup.values()],
    shown: owned.slice(0, k).map((d) => d.slice.name),
    ...(pairing ? {pairing: true as const} : {}),
  }
}

function recycleWords(c: Extract<SliceChoice, {kind: 'recycledName'}>): string {
  const names = c.groups.flat()
  const drawn = c.take > 0 && c.take < names.length
  const sure = drawn ? c.certain : [...c.certain, ...names]
  const parts = [...(sure.length > 0 ? [sure.join(', ')] : []), ...(drawn ? [`${c.take} of ${names.join(', ')} (the controller takes the slices to delete in map order)`] : [])]
  const pairing = c.pairing ? '; which new content goes under which name, and which stays a create, is random' : ''
  return `new ${c.addressType} slices take the names of ${parts.join(' and ')}${pairing}; shown: ${c.shown.join(', ')}`
}

/**
 * placeholderSliceCompare: an empty slice of the type with exactly the Service's slice labels. Its
 * metadata is compared by namespace and labels only, so the owner reference is not looked at: a
 * placeholder left by an earlier Service of the same name counts as this one's.
 */
function isPlaceholder(slice: EndpointSliceView, svc: ServiceView, labels: Record<string, string>): boolean {
  return slice.namespace === svc.namespace && slice.endpoints.length === 0 && slice.ports.length === 0 && sameLabels(slice.labels, labels)
}

/**
 * Hints (E10.2): with trafficDistribution PreferClose, PreferSameZone or PreferSameNode (and no
 * topology annotation), ready endpoints of written slices get their zone (and node) as hints, and
 * unchanged slices whose ready endpoints lack them are written too; without it, hints go.
 *
 * E10.3: with the topology annotation Auto the Topology Aware Hints allocator (topologycache
 * AddHints) decides from the nodes' allocatable CPU per zone, which is not planned here; but a
 * ready endpoint without a zone in a slice being written makes it remove every hint (step 1 of
 * AddHints, whatever the allocation), exactly as the no-hints path does.
 */
function hints(
  svc: ServiceView,
  written: Draft[],
  existing: readonly EndpointSliceView[],
  updates: {draft: Draft; addressType: string}[],
  types: string[],
  pools: EndpointPool[],
  topology: {desired: readonly EndpointView[]; nodesKnown: boolean; warnings: string[]},
): void {
  // The deprecated annotation wins when both are set (hintsEnabled).
  const mode = svc.annotations['service.kubernetes.io/topology-aware-hints'] ?? svc.annotations['service.kubernetes.io/topology-mode']
  const auto = mode === 'Auto' || mode === 'auto'
  if (auto) {
    if (!topology.nodesKnown || !unzonedReadyWritten(written, existing, topology.desired)) {
      topology.warnings.push('topology-mode Auto: the Topology Aware Hints allocator sets hints from the nodes\' allocatable CPU per zone, which is not planned here; slices keep the hints they have')
      return
    }
    topology.warnings.push(
      'topology-mode Auto, and a ready endpoint in a slice being written has no zone: the Topology Aware Hints allocator removes every hint (Warning TopologyAwareHintsDisabled: One or more endpoints do not have a zone specified)',
    )
  }
  const td = svc.trafficDistribution
  const use = !auto && (td === 'PreferClose' || td === 'PreferSameZone' || td === 'PreferSameNode')
  const hinted = (ep: EndpointView): EndpointView => {
    if (!use) {
      if (!ep.hints) return ep
      const {hints: _h, ...rest} = ep
      return rest
    }
    if (!ep.conditions.ready) return ep
    const want: EndpointView['hints'] = {}
    if (ep.zone) want.forZones = [{name: ep.zone}]
    if (td === 'PreferSameNode' && ep.nodeName) want.forNodes = [{name: ep.nodeName}]
    const out = {...ep}
    if (want.forZones || want.forNodes) out.hints = want
    else delete out.hints
    return out
  }
  // Without hints to set, only endpoints that carry some change.
  const touched = (eps: readonly EndpointView[]): boolean => use || eps.some((ep) => ep.hints)
  for (const d of written) if (touched(d.endpoints)) d.endpoints = d.endpoints.map(hinted)
  // A pool's endpoints all go to written slices.
  for (const pool of pools) if (pool.endpoints && touched(pool.endpoints)) pool.endpoints = pool.endpoints.map(hinted)
  const writtenNames = new Set(written.map((d) => d.existing?.name).filter((n) => n !== undefined))
  // RemoveHintsFromSlices / AddHints look at the slices unchanged, never at those being deleted.
  for (const slice of existing) {
    if (writtenNames.has(slice.name) || !types.includes(slice.addressType) || !touched(slice.endpoints)) continue
    const next = slice.endpoints.map(hinted)
    if (next.some((ep, i) => ep !== slice.endpoints[i] && JSON.stringify(ep.hints) !== JSON.stringify(slice.endpoints[i].hints))) {
      updates.push({draft: draftOf({existing: slice, ports: sortPorts(slice.ports), endpoints: next, labelsChanged: false, hintsOnly: true}), addressType: slice.addressType})
    }
  }
}

/**
 * Whether a ready endpoint without a zone goes into a slice being created or updated: every wanted
 * endpoint that no unchanged slice keeps lands in one (the ones drawn at random included).
 */
function unzonedReadyWritten(written: readonly Draft[], existing: readonly EndpointSliceView[], desired: readonly EndpointView[]): boolean {
  const writtenNames = new Set(written.map((d) => d.existing?.name).filter((n) => n !== undefined))
  const keptUnchanged = new Set(existing.filter((s) => !writtenNames.has(s.name)).flatMap((s) => s.endpoints.map(endpointId)))
  return desired.some((ep) => ep.conditions.ready === true && !ep.zone && !keptUnchanged.has(endpointId(ep)))
}

const conditionsOf = (ep: EndpointView): EndpointConditions => ep.conditions

function updateAction(draft: Draft, slice: EndpointSliceView, addressType: string, labels: Record<string, string>, time: string | undefined): UpdateEndpointSliceAction {
  const {added, changed, removed} = endpointChanges(draft, slice.endpoints)
  const a: UpdateEndpointSliceAction = {
    type: 'updateEndpointSlice',
    name: slice.name,
    uid: slice.uid,
    resourceVersion: slice.resourceVersion,
    addressType,
    ports: draft.ports,
    endpoints: draft.endpoints,
    size: draft.endpoints.length + draft.random,
    labels,
    added,
    // With random additions the removed ones are still certain: they were not kept.
    removed,
    changed,
    ...(time ? {triggerTime: time} : {}),
  }
  if (draft.random > 0) Object.assign(a, {random: draft.random, pool: draft.pool})
  if (draft.placeholder) a.placeholder = true
  if (draft.labelsChanged || !sameLabels(slice.labels, labels)) a.labelsChanged = true
  if (draft.hintsOnly) a.hintsChanged = true
  return a
}

/** What an update adds to the slice's endpoints, changes in them (beyond their ids) and removes, by pod. */
function endpointChanges(draft: Draft, eps: readonly EndpointView[]): {added: string[]; changed: EndpointChange[]; removed: string[]} {
  const added: string[] = []
  const changed: EndpointChange[] = []
  const next = draft.endpoints
  // The usual update keeps the slice's endpoints in their order and adds the new ones after them:
  // told without building ids. A draft's endpoints have distinct ids (a rewrite of the hints alone
  // copies the slice's, and takes the general path), so a slice that is the draft's beginning
  // holds no id twice, and the draft's other endpoints are all new.
  if (!draft.hintsOnly && eps.length <= next.length) {
    let k = 0
    while (k < eps.length && sameId(eps[k], next[k])) k++
    if (k === eps.length) {
      for (let i = 0; i < k; i++) if (!equalBeyondId(eps[i], next[i])) changed.push({pod: podOf(next[i]), from: conditionsOf(eps[i]), to: conditionsOf(next[i])})
      for (let i = k; i < next.length; i++) added.push(podOf(next[i]))
      return {added, changed, removed: []}
    }
  }
  const beforeIds = eps.map(endpointId)
  const before = new Map<string, EndpointView>()
  beforeIds.forEach((id, i) => before.set(id, eps[i]))
  const afterIds = next.map(endpointId)
  const after = new Set(afterIds)
  for (let i = 0; i < next.length; i++) {
    const ep = next[i]
    const old = before.get(afterIds[i])
    if (!old) added.push(podOf(ep))
    else if (!equalBeyondId(old, ep)) changed.push({pod: podOf(ep), from: conditionsOf(old), to: conditionsOf(ep)})
  }
  return {added, changed, removed: eps.filter((_, i) => !after.has(beforeIds[i])).map(podOf)}
}

function deleteAction(slice: EndpointSliceView, reason: SliceDeleteReason): DeleteEndpointSliceAction {
  return {type: 'deleteEndpointSlice', name: slice.name, uid: slice.uid, resourceVersion: slice.resourceVersion, addressType: slice.addressType, reason}
}

/** Slices of one address type once the writes are done. */
function slicesAfter(existing: readonly EndpointSliceView[], actions: readonly ServiceAction[], addressType: string): number {
  let n = existing.filter((s) => s.addressType === addressType).length
  for (const a of actions) {
    if (a.type === 'deleteEndpointSlice' && a.addressType === addressType) n--
    else if (a.type === 'createEndpointSlice' && a.addressType === addressType && a.skipped === undefined) n++
  }
  return n
}
