// One sync of the legacy Endpoints controller for one Service (syncService in
// pkg/controller/endpoint/endpoints_controller.go, RepackSubsets in pkg/api/v1/endpoints/util.go),
// and of the EndpointSlice mirroring controller for a Service without a selector
// (pkg/controller/endpointslicemirroring: reconciler.go reconcile).
import type {PodView} from '../../model/objects.js'
import type {
  EndpointAddressView,
  EndpointExclusion,
  EndpointPortView,
  EndpointSliceView,
  EndpointsView,
  EndpointSubsetView,
  EndpointView,
  PodRef,
  ServiceAction,
  ServiceView,
  SliceChoice,
  WriteEndpointsAction,
} from './model.js'
import {
  endpointPorts,
  firstAddressOf,
  HEADLESS_LABEL,
  hasClusterIP,
  hostnameFor,
  ipFamily,
  MANAGED_BY_LABEL,
  podExclusion,
  portsKey,
  portsKey1,
  sameLabels,
  SERVICE_NAME_LABEL,
  sortPorts,
  TRIGGER_TIME,
  triggerTime,
} from './endpoints-common.js'

export const ENDPOINTS_MANAGED_BY = 'endpoints.kubernetes.io/managed-by'
export const ENDPOINTS_CONTROLLER = 'endpoint-controller'
export const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity'
export const MAX_ENDPOINTS_ADDRESSES = 1000
export const MIRROR_CONTROLLER = 'endpointslicemirroring-controller.k8s.io'
export const SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror'
export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader'
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/** A mirrored slice's endpoints as totalChanges compares them: by hash (addresses, hostname, target) and beyond it (EndpointsEqualBeyondHash). */
const mirrorKey = (eps: readonly EndpointView[]): string =>
  JSON.stringify(
    eps
      .map((e) => JSON.stringify([e.addresses, e.hostname ?? null, e.nodeName ?? null, e.zone ?? null, e.conditions.ready ?? null, e.conditions.serving ?? null, e.conditions.terminating ?? null, e.targetRef ? [e.targetRef.kind, e.targetRef.namespace, e.targetRef.name, e.targetRef.uid] : null]))
      .sort(),
  )

export interface EndpointsSyncResult {
  action?: WriteEndpointsAction
  /** Per pod, by its place in the input. */
  verdicts: ({in: true; ready: boolean} | {in: false; reason: EndpointExclusion})[]
}

/** The family the legacy object lists: the first IP family, else the cluster IP's (E12.3). */
function primaryFamily(svc: ServiceView): string | undefined {
  if (svc.ipFamilies.length > 0) return svc.ipFamilies[0]
  if (hasClusterIP(svc)) return ipFamily(svc.clusterIP)
  return undefined
}

/** The verdicts of a listed pod, shared (nothing changes them). */
const IN_READY = Object.freeze({in: true as const, ready: true})
const IN_NOT_READY = Object.freeze({in: true as const, ready: false})

/** `refs`: per pod (by its place in `pods`), a reference to it to share (the slice endpoint's), when there is one. */
export function syncEndpoints(svc: ServiceView, pods: readonly PodView[], existing: EndpointsView | undefined, refs: readonly (PodRef | undefined)[] = []): EndpointsSyncResult {
  const verdicts: EndpointsSyncResult['verdicts'] = []
  const family = primaryFamily(svc)
  // Per address: its ports, and whether it is ready (one entry per resolvable port, repacked below).
  const entries: {address: EndpointAddressView; ports: readonly EndpointPortView[]; ready: boolean}[] = []
  for (let i = 0; i < pods.length; i++) {
    const pod = pods[i]
    const excluded = podExclusion(pod, svc.publishNotReadyAddresses)
    if (excluded) {
      verdicts[i] = {in: false, reason: excluded}
      continue
    }
    // No family to go by: the pod's own first IP decides (E12.3).
    const ip = firstAddressOf(pod, family ?? ipFamily(pod.network!.podIPs[0]))
    if (ip === undefined) {
      verdicts[i] = {in: false, reason: 'no-address-of-type'}
      continue
    }
    // Keys in sorted order, as the plan writes them.
    const hostname = hostnameFor(pod, svc)
    const targetRef = refs[i] ?? {kind: 'Pod', name: pod.name, namespace: pod.namespace, uid: pod.uid}
    const address: EndpointAddressView = hostname !== undefined ? {hostname, ip, nodeName: pod.nodeName, targetRef} : {ip, nodeName: pod.nodeName, targetRef}
    const ready = svc.publishNotReadyAddresses || pod.ready
    if (svc.ports.length === 0) {
      // Headless without ports: one subset without ports; otherwise nothing to list.
      if (svc.clusterIP === 'None') {
        entries.push({address, ports: [], ready})
        verdicts[i] = ready ? IN_READY : IN_NOT_READY
      } else verdicts[i] = {in: false, reason: 'no-port'}
      continue
    }
    const {ports} = endpointPorts(svc, pod)
    if (ports.length === 0) {
      verdicts[i] = {in: false, reason: 'no-port'}
      continue
    }
    entries.push({address, ports, ready})
    verdicts[i] = ready ? IN_READY : IN_NOT_READY
  }
  const wanted = repack(entries)
  // The Service's labels, the headless one set or left out, then managed-by (copied key by key: a
  // spread copy given more keys would get a hidden class of its own).
  const headless = !hasClusterIP(svc)
  const labels: Record<string, string> = {}
  for (const k in svc.labels) if (k !== HEADLESS_LABEL || headless) labels[k] = svc.labels[k]
  if (headless) labels[HEADLESS_LABEL] = ''
  labels[ENDPOINTS_MANAGED_BY] = ENDPOINTS_CONTROLLER

  // The skip test (E12.9): same subsets, exactly these labels, the capacity annotation right.
  // Upstream compares the stored subsets with the wanted ones before truncating them, and calls
  // the annotation right only when the stored object is within capacity and unmarked
  // (capacityAnnotationSetCorrectly): an over-capacity object is rewritten at every sync.
  if (existing) {
    const capacityRight = addressCount(existing.subsets) <= MAX_ENDPOINTS_ADDRESSES && existing.annotations[OVER_CAPACITY] === undefined
    const sameSubsets = equalSubsets(existing.subsets, wanted) || (mayRepackTo(existing.subsets, wanted) && equalSubsets(repack(flatten(existing.subsets)), wanted))
    if (sameSubsets && sameLabels(existing.labels, labels) && capacityRight) return {verdicts}
  }
  const total = addressCount(wanted)
  let subsets = wanted
  let truncated: WriteEndpointsAction['truncated']
  if (total > MAX_ENDPOINTS_ADDRESSES) {
    subsets = truncate(wanted, MAX_ENDPOINTS_ADDRESSES)
    truncated = {from: total, to: MAX_ENDPOINTS_ADDRESSES}
  }
  const time = triggerTime(svc)
  const action: WriteEndpointsAction = {
    type: 'writeEndpoints',
    verb: existing && existing.resourceVersion !== '' ? 'update' : 'create',
    name: svc.name,
    subsets,
    labels,
    ...(existing ? {resourceVersion: existing.resourceVersion} : {}),
    ...(truncated ? {truncated} : {}),
    ...(time ? {triggerTime: time} : {}),
  }
  return {action, verdicts}
}

const addressCount = (subsets: readonly EndpointSubsetView[]): number => subsets.reduce((n, s) => n + s.addresses.length + s.notReadyAddresses.length, 0)

/**
 * Whether repacking the stored subsets could give the wanted ones. One stored subset repacks into
 * one, of its addresses less any listed twice: never into more addresses than it has. (Several
 * may repack into more, as a port's addresses join those of every subset that lists the port.)
 */
const mayRepackTo = (stored: readonly EndpointSubsetView[], wanted: readonly EndpointSubsetView[]): boolean => stored.length !== 1 || addressCount(wanted) <= addressCount(stored)

const addressKey = (a: EndpointAddressView): string => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`

/**
 * Go's byte-wise string order (RepackSubsets sorts addresses by IP string, then UID): UTF-8 bytes
 * order as UTF-16 units do, except that a surrogate (a character past U+FFFF) sorts after U+E000–U+FFFF.
 */
export function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const surrogate = (c: number) => c >= 0xd800 && c <= 0xdfff
    if (surrogate(x) !== surrogate(y) && Math.max(x, y) >= 0xe000) return surrogate(x) ? 1 : -1
    return x - y
  }
  return a.length - b.length
}

/**
 * RepackSubsets: per port, the addresses that offer it (an address is not ready on a port when any
 * entry lists it not ready there); then ports whose addresses and readiness are exactly the same
 * share one subset. So there is one subset per distinct set of addresses (with their readiness),
 * carrying every port that set offers. An address is one IP and pod UID, kept as first seen;
 * entries without ports (a headless Service without ports) count under one portless key.
 */
function repack(entries: readonly RepackEntry[]): EndpointSubsetView[] {
  const one = entries.length > 0 ? repackOneList(entries) : undefined
  if (one) return one
  const firstSeen = new Map<string, EndpointAddressView>()
  const byPort = new Map<string, {port?: EndpointPortView; ready: Map<string, boolean>}>()
  // Entries mostly share one port list (endpointPorts answers alike): its keys are made once.
  let lastPorts: readonly EndpointPortView[] | undefined
  let lastKeys: string[] = []
  for (const e of entries) {
    const key = addressKey(e.address)
    if (!firstSeen.has(key)) firstSeen.set(key, e.address)
    if (e.ports.length === 0) {
      let entry = byPort.get('')
      if (!entry) byPort.set('', (entry = {port: undefined, ready: new Map()}))
      if (entry.ready.get(key) !== false) entry.ready.set(key, e.ready)
      continue
    }
    if (e.ports !== lastPorts) {
      lastPorts = e.ports
      lastKeys = e.ports.map(portsKey1)
    }
    for (let i = 0; i < lastKeys.length; i++) {
      let entry = byPort.get(lastKeys[i])
      if (!entry) byPort.set(lastKeys[i], (entry = {port: e.ports[i], ready: new Map()}))
      if (entry.ready.get(key) !== false) entry.ready.set(key, e.ready)
    }
  }
  const groups = new Map<string, {ports: EndpointPortView[]; ready: Map<string, boolean>}>()
  for (const {port, ready} of byPort.values()) {
    // One port list: one group, whose key orders nothing.
    const groupKey = byPort.size === 1 ? '' : [...ready.entries()].map(([k, r]) => `${k}\u0000${r}`).sort().join('\u0001')
    let group = groups.get(groupKey)
    if (!group) groups.set(groupKey, (group = {ports: [], ready}))
    if (port) group.ports.push(port)
  }
  // Without a character from U+D800 up in any IP or UID (the usual case), byte order is the
  // strings' own order.
  let plain = true
  for (const a of firstSeen.values()) {
    if (wide(a.ip) || wide(a.targetRef?.uid ?? '')) {
      plain = false
      break
    }
  }
  const order = plain ? plainOrder : bytewiseOrder
  // Upstream orders subsets by a hash of each; here by their ports, then their addresses.
  const subset = (ports: EndpointPortView[], ready: Map<string, boolean>): EndpointSubsetView => {
    const addresses: EndpointAddressView[] = []
    const notReadyAddresses: EndpointAddressView[] = []
    for (const [k, r] of ready) (r ? addresses : notReadyAddresses).push(firstSeen.get(k)!)
    return {addresses: addresses.sort(order), notReadyAddresses: notReadyAddresses.sort(order), ports: sortPorts(ports)}
  }
  if (groups.size === 1) {
    const [{ports, ready}] = groups.values()
    return [subset(ports, ready)]
  }
  return [...groups.entries()]
    .map(([groupKey, {ports, ready}]) => ({key: `${portsKey(ports)}\u0002${groupKey}`, subset: subset(ports, ready)}))
    .sort((a, b) => byteOrder(a.key, b.key))
    .map((x) => x.subset)
}

interface RepackEntry {
  address: EndpointAddressView
  ports: readonly EndpointPortView[]
  ready: boolean
}

/**
 * repack when every entry carries the same (non-empty) port list and no address comes twice (the
 * usual case): one subset, each address ready as its entry says, with the list's distinct ports.
 * Undefined otherwise.
 */
function repackOneList(entries: readonly RepackEntry[]): EndpointSubsetView[] | undefined {
  const ports = entries[0].ports
  if (ports.length === 0) return undefined
  let plain = true
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]
    if (e.ports !== ports) return undefined
    if (plain && (wide(e.address.ip) || wide(e.address.targetRef?.uid ?? ''))) plain = false
  }
  const order = plain ? plainOrder : bytewiseOrder
  const sorted = [...entries].sort((x, y) => order(x.address, y.address))
  // Sorted by IP and UID: an address twice sits next to itself.
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1].address
    const b = sorted[i].address
    if (a.ip === b.ip && (a.targetRef?.uid ?? '') === (b.targetRef?.uid ?? '')) return undefined
  }
  const addresses: EndpointAddressView[] = []
  const notReadyAddresses: EndpointAddressView[] = []
  for (let i = 0; i < sorted.length; i++) (sorted[i].ready ? addresses : notReadyAddresses).push(sorted[i].address)
  let distinct: EndpointPortView[] = ports as EndpointPortView[]
  if (ports.length > 1) {
    const keys = new Set<string>()
    distinct = []
    for (const p of ports) {
      const key = portsKey1(p)
      if (!keys.has(key)) {
        keys.add(key)
        distinct.push(p)
      }
    }
  }
  return [{addresses, notReadyAddresses, ports: sortPorts(distinct)}]
}

/** Whether `s` has a character from U+D800 up, whose UTF-16 order may differ from its UTF-8 bytes' (see byteOrder). */
function wide(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0xd800) return true
  return false
}

/** RepackSubsets' address order: by IP, then pod UID, bytewise. */
const bytewiseOrder = (a: EndpointAddressView, b: EndpointAddressView): number => byteOrder(a.ip, b.ip) || byteOrder(a.targetRef?.uid ?? '', b.targetRef?.uid ?? '')

/** bytewiseOrder for strings without a wide character. */
function plainOrder(a: EndpointAddressView, b: EndpointAddressView): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1
  const x = a.targetRef?.uid ?? ''
  const y = b.targetRef?.uid ?? ''
  return x < y ? -1 : x > y ? 1 : 0
}

function flatten(subsets: readonly EndpointSubsetView[]): {address: EndpointAddressView; ports: readonly EndpointPortView[]; ready: boolean}[] {
  return subsets.flatMap((s) => [
    ...s.addresses.map((address) => ({address, ports: s.ports, ready: true})),
    ...s.notReadyAddresses.map((address) => ({address, ports: s.ports, ready: false})),
  ])
}

const addressId = (a: EndpointAddressView): string =>
  `${a.ip}\u0000${a.hostname ?? ''}\u0000${a.nodeName ?? ''}\u0000${a.targetRef?.kind}\u0000${a.targetRef?.namespace}\u0000${a.targetRef?.name}\u0000${a.targetRef?.uid}`

/** Subsets compared as sets of (ports, ready addresses, not-ready addresses), resourceVersion aside. */
function subsetsKey(subsets: readonly EndpointSubsetView[]): string {
  return subsets
    .map((s) => JSON.stringify([portsKey(s.ports), s.addresses.map(addressId).sort(), s.notReadyAddresses.map(addressId).sort()]))
    .sort()
    .join('\n')
}

/** subsetsKey(a) === subsetsKey(b); one subset each (the usual case) is compared without building the keys. */
function equalSubsets(a: readonly EndpointSubsetView[], b: readonly EndpointSubsetView[]): boolean {
  if (a.length !== b.length) return false
  if (a.length !== 1) return subsetsKey(a) === subsetsKey(b)
  const [x, y] = [a[0], b[0]]
  return portsKey(x.ports) === portsKey(y.ports) && sameAddressSet(x.addresses, y.addresses) && sameAddressSet(x.notReadyAddresses, y.notReadyAddresses)
}

/** The same addresses (by addressId), whatever their order. */
function sameAddressSet(a: readonly EndpointAddressView[], b: readonly EndpointAddressView[]): boolean {
  if (a.length !== b.length) return false
  let inOrder = true
  for (let i = 0; i < a.length && inOrder; i++) inOrder = sameAddress(a[i], b[i])
  if (inOrder) return true
  const ids = (list: readonly EndpointAddressView[]) => list.map(addressId).sort()
  const [sa, sb] = [ids(a), ids(b)]
  return sa.every((id, i) => id === sb[i])
}

/** addressId(a) === addressId(b), without building them. */
function sameAddress(a: EndpointAddressView, b: EndpointAddressView): boolean {
  if (a.ip !== b.ip || (a.hostname ?? '') !== (b.hostname ?? '') || (a.nodeName ?? '') !== (b.nodeName ?? '')) return false
  const x = a.targetRef
  const y = b.targetRef
  if (x === undefined || y === undefined) return x === y
  return x.kind === y.kind && x.namespace === y.namespace && x.name === y.name && x.uid === y.uid
}

/**
 * truncateEndpoints (E12.8): keep every ready address when they fit and share what is left among
 * the not-ready ones, else keep `max` ready ones; each subset gets ceil(its share × budget),
 * capped by what remains, keeping the first addresses of its sorted lists.
 */
function truncate(subsets: EndpointSubsetView[], max: number): EndpointSubsetView[] {
  const ready = subsets.reduce((n, s) => n + s.addresses.length, 0)
  const notReady = subsets.reduce((n, s) => n + s.notReadyAddresses.length, 0)
  const share = (list: 'addresses' | 'notReadyAddresses', total: number, budget: number) => {
    let left = budget
    return subsets.map((s) => {
      const n = Math.min(left, Math.ceil((s[list].length / total) * budget))
      left -= n
      return s[list].slice(0, n)
    })
  }
  if (ready <= max) {
    const kept = share('notReadyAddresses', notReady, max - ready)
    return subsets.map((s, i) => ({...s, notReadyAddresses: kept[i]}))
  }
  const kept = share('addresses', ready, max)
  return subsets.map((s, i) => ({...s, addresses: kept[i], notReadyAddresses: []}))
}

// ---- Mirroring (selector-less Services) ----

/**
 * The mirroring controller's next sync for a Service without a selector (E13): one slice per
 * subset's port set and address type, owned by the Endpoints object; its slices go when there is
 * nothing (or nothing allowed) to mirror.
 */
export function syncMirror(
  svc: ServiceView,
  endpoints: EndpointsView | undefined,
  slices: readonly EndpointSliceView[],
): {actions: ServiceAction[]; warnings: string[]; choices: SliceChoice[]; totals: {addressType: string; ready: number; total: number; slices: number}[]} {
  const warnings: string[] = []
  const mine = slices.filter((s) => s.namespace === svc.namespace && s.labels[SERVICE_NAME_LABEL] === svc.name && s.labels[MANAGED_BY_LABEL] === MIRROR_CONTROLLER)
  const mirror =
    endpoints !== undefined && svc.selector === null && endpoints.labels[SKIP_MIRROR] !== 'true' && endpoints.annotations[LEADER_ANNOTATION] === undefined
  // Nothing to mirror and no mirrored slice (every Service with a selector and no such leftovers).
  if (!mirror && mine.length === 0) return {actions: [], warnings, choices: [], totals: []}
  const desired: {ports: readonly EndpointPortView[]; addressType: string; endpoints: EndpointView[]}[] = []
  if (mirror) {
    for (const subset of repack(flatten(endpoints.subsets))) {
      const byType = new Map<string, EndpointView[]>()
      const list = [...subset.addresses.map((a) => ({a, ready: true})), ...subset.notReadyAddresses.map((a) => ({a, ready: false}))]
      for (const [i, {a, ready}] of list.entries()) {
        if (i >= MAX_ENDPOINTS_ADDRESSES) {
          warnings.push(`Endpoints ${endpoints.name}: a subset has more than ${MAX_ENDPOINTS_ADDRESSES} addresses; the rest are not mirrored (TooManyAddressesToMirror)`)
          break
        }
        if (!/^[\d.]+$|:/.test(a.ip) || (ipFamily(a.ip) === 'IPv4' && !/^(\d{1,3}\.){3}\d{1,3}$/.test(a.ip))) {
          warnings.push(`Endpoints ${endpoints.name}: ${JSON.stringify(a.ip)} is not an IP address and is not mirrored (InvalidIPAddress)`)
          continue
        }
        const ep: EndpointView = {addresses: [a.ip], conditions: {ready}}
        if (a.hostname) ep.hostname = a.hostname
        if (a.nodeName) ep.nodeName = a.nodeName
        if (a.targetRef) ep.targetRef = a.targetRef
        const type = ipFamily(a.ip)
        byType.set(type, [...(byType.get(type) ?? []), ep])
      }
      for (const [addressType, eps] of byType) desired.push({ports: subset.ports, addressType, endpoints: eps})
    }
  }
  const actions: ServiceAction[] = []
  const choices: SliceChoice[] = []
  const labels: Record<string, string> = {...(endpoints?.labels ?? {}), [SERVICE_NAME_LABEL]: svc.name, [MANAGED_BY_LABEL]: MIRROR_CONTROLLER}
  const annotations = Object.fromEntries(Object.entries(endpoints?.annotations ?? {}).filter(([k]) => k !== TRIGGER_TIME && k !== LAST_APPLIED))
  // reconcileByPortMapping: per port list and family, the first slice (in the lister's order) is
  // kept, rewritten unless it already holds exactly what is wanted, and the others are deleted;
  // slices of a port list no longer wanted are deleted.
  // A port name twice (the same name under two protocols, repacked into one subset) makes the slice
  // invalid: the API server rejects its write, and the sync fails there and is retried.
  for (const want of [...desired]) {
    const names = want.ports.map((p) => p.name)
    if (new Set(names).size === names.length) continue
    desired.splice(desired.indexOf(want), 1)
    warnings.push(
      `Endpoints ${endpoints!.name}: the ${want.addressType} slice for ports ${portsKey(want.ports)} would name a port twice, which the API server rejects: its write fails, the sync is retried (after 1 s, doubling), and the sync's other writes may not be made`,
    )
  }
  const byKey = new Map<string, EndpointSliceView[]>()
  for (const slice of mine) {
    const key = `${slice.addressType}|${portsKey(slice.ports)}`
    byKey.set(key, [...(byKey.get(key) ?? []), slice])
  }
  const creates: (typeof desired)[number][] = []
  const updates: {want: (typeof desired)[number]; slice: EndpointSliceView}[] = []
  const deletes: EndpointSliceView[] = []
  /** Port lists held by more than one slice: which one is kept is the lister's order (random). */
  const drawn: EndpointSliceView[][] = []
  for (const want of desired) {
    const key = `${want.addressType}|${portsKey(want.ports)}`
    const held = byKey.get(key) ?? []
    byKey.delete(key)
    if (held.length === 0) {
      creates.push(want)
      continue
    }
    if (held.length > 1) drawn.push(held)
    deletes.push(...held.slice(1))
    const first = held[0]
    const rebuild = first.ownerReferences.some((o) => o.kind === 'Endpoints' && o.name === endpoints!.name && o.uid !== endpoints!.uid)
    const same = mirrorKey(first.endpoints) === mirrorKey(want.endpoints) && sameLabels(first.labels, labels) && sameLabels(first.annotations, annotations) && !rebuild
    if (!same) updates.push({want, slice: first})
  }
  for (const held of byKey.values()) deletes.push(...held)
  const content = (want: (typeof desired)[number]) => ({controller: 'endpointslicemirroring' as const, addressType: want.addressType, ports: want.ports, endpoints: want.endpoints, size: want.endpoints.length, labels})
  const update = (want: (typeof desired)[number], slice: EndpointSliceView, recycled: boolean): ServiceAction => {
    const before = new Set(slice.endpoints.map((e) => e.addresses.join(',')))
    const after = new Set(want.endpoints.map((e) => e.addresses.join(',')))
    return {
      type: 'updateEndpointSlice',
      name: slice.name,
      uid: slice.uid,
      resourceVersion: slice.resourceVersion,
      ...content(want),
      added: [...after].filter((a) => !before.has(a)),
      removed: [...before].filter((a) => !after.has(a)),
      changed: [],
      ...(recycled ? {recycled: true as const} : {}),
    }
  }
  for (const u of updates) actions.push(update(u.want, u.slice, false))
  // finalize's recycleSlices: per address type, the i-th create takes the i-th delete's name.
  const recycledNames = new Set<string>()
  for (const want of creates) {
    const del = deletes.find((d) => d.addressType === want.addressType && !recycledNames.has(d.name))
    if (del) {
      recycledNames.add(del.name)
      actions.push(update(want, del, true))
    } else actions.push({type: 'createEndpointSlice', generateName: `${svc.name}-`, ...content(want), ownerReference: {apiVersion: 'v1', kind: 'Endpoints', name: endpoints!.name, uid: endpoints!.uid, controller: true, blockOwnerDeletion: true}})
  }
  // recycleSlices takes a create out of the list by its name, which every create leaves empty: the
  // first create of any family goes. With creates of two families, the renamed one may stay a
  // create instead, whose name exists: the sync fails (AlreadyExists) and is retried, at random.
  if (recycledNames.size > 0 && new Set(creates.map((c) => c.addressType)).size > 1) {
    warnings.push(
      'new mirrored slices of two families, one taking a name: upstream\'s recycleSlices may drop the wrong create (map order), so the sync can fail with AlreadyExists and be retried (after 1 s, doubling) until the order falls right; the writes shown are the ones it ends with',
    )
  }
  // syncEndpoints: a Service with a selector gets its mirrored slices deleted (E13.2).
  const reason = svc.selector !== null ? 'selector' : 'no-endpoints'
  for (const slice of deletes) {
    if (!recycledNames.has(slice.name)) actions.push({type: 'deleteEndpointSlice', controller: 'endpointslicemirroring', name: slice.name, uid: slice.uid, resourceVersion: slice.resourceVersion, addressType: slice.addressType, reason})
  }
  // Which names stay is the lister's and map's order when a port list has several slices, or when
  // a family has more deletes than creates to take their names (and more than one delete).
  for (const addressType of new Set(mine.map((s) => s.addressType))) {
    const taking = creates.filter((c) => c.addressType === addressType).length
    const gone = deletes.filter((d) => d.addressType === addressType)
    const held = drawn.filter((h) => h[0].addressType === addressType)
    const names = [...new Set([...held.flat(), ...(taking > 0 ? gone : [])].map((x) => x.name))]
    const keep = held.length + Math.min(taking, gone.length)
    if (held.length === 0 && (taking === 0 || gone.length < 2 || (gone.length <= taking && taking < 2))) continue
    const shown = actions.filter((a) => a.type === 'updateEndpointSlice' && a.addressType === addressType && names.includes(a.name)).map((a) => (a as {name: string}).name)
    const shownKept = [...new Set([...shown, ...held.map((h) => h[0].name)])]
    choices.push({kind: 'mirroredName', addressType, slices: names.sort(), keep, shown: shownKept.sort()})
    warnings.push(`mirrored ${addressType} slices ${names.join(', ')}: ${keep} of them keep their names (rewritten as needed) and the rest are deleted; which ones is the lister's order (random); shown: ${shownKept.join(', ')}`)
  }
  const totals = new Map<string, {addressType: string; ready: number; total: number; slices: number}>()
  for (const d of desired) {
    const t = totals.get(d.addressType) ?? {addressType: d.addressType, ready: 0, slices: 0, total: 0}
    t.slices++
    t.total += d.endpoints.length
    t.ready += d.endpoints.filter((e) => e.conditions.ready).length
    totals.set(d.addressType, t)
  }
  return {actions, warnings, choices, totals: [...totals.values()]}
}
