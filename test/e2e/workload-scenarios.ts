// The scenarios of the workloads oracle: the StatefulSet (SS-n) and DaemonSet (DS-n) cases of the
// controllers' rules that a real cluster can reproduce, each a world in its own namespace.
import {apiOk} from './setup/cluster.js'
import {
  createClaim,
  createDaemonSet,
  createPod,
  createSet,
  controllerRef,
  type Ctx,
  daemonPod,
  daemonRevision,
  daemonTemplate,
  handNode,
  HOLD,
  type Image,
  type Json,
  kwokNode,
  patchSet,
  type PodOptions,
  revisionName,
  type Scenario,
  setPod,
  setRevision,
  type SetOptions,
  setStatus,
  template,
} from './workload-worlds.js'

export const ghost = (state: PodOptions['state'] = 'Running', o: PodOptions = {}): Slot => ({on: 'ghost', state, ...o})
export const kwok: Slot = {on: 'kwok'}
export type Slot = (PodOptions & {atUpdate?: boolean}) | null

export interface SetChange {
  replicas?: number
  image?: Image
  claimOwners?: 'set'
}

/**
 * A StatefulSet as its previous syncs left it: revision 1 of its template, a pod per slot (null:
 * missing) at that revision, claims for them, the status in line; then `change` to its spec.
 */
export async function settled(c: Ctx, o: SetOptions, slots: Slot[], change?: SetChange): Promise<{set: Json; r1: string}> {
  const set = await createSet(c, {...o, replicas: slots.length})
  const r1 = await setRevision(c, set, 1)
  const r2 = change?.image ? revisionName(set, change.image) : r1
  const start = o.start ?? 0
  for (const [i, slot] of slots.entries()) {
    if (!slot) continue
    await setPod(c, set, start + i, slot.atUpdate ? r2 : r1, slot)
    if (o.claims) await createClaim(c, `data-web-${start + i}`, {owners: change?.claimOwners ? [controllerRef(set)] : undefined})
  }
  const present = slots.filter((s) => s !== null)
  const ready = present.filter((s) => s!.on !== 'ghost' || s!.state === 'Running' || s!.state === 'Terminating').length
  await setStatus(c, set, {replicas: present.length, ready, current: r1})
  const spec: Json = {}
  if (change?.replicas !== undefined) spec.replicas = change.replicas
  if (change?.image) spec.template = template('web', change.image)
  if (Object.keys(spec).length > 0) await patchSet(c, spec)
  return {set, r1}
}

const ss = (id: string, title: string, build: (c: Ctx) => Promise<unknown>): Scenario => ({id, kind: 'StatefulSet', title, random: false, build: async (c) => void (await build(c))})
const ds = (id: string, title: string, build: (c: Ctx) => Promise<unknown>, random = false): Scenario => ({id, kind: 'DaemonSet', title, random, build: async (c) => void (await build(c))})

export const STATEFULSET_SCENARIOS: Scenario[] = [
  ss('ss1', 'SS-1 a new set: its revision, then web-0 alone (then the rest, once each is Ready)', (c) => createSet(c)),
  ss('ss2', 'SS-2 Parallel: every pod in one sync', (c) => createSet(c, {parallel: true})),
  ss('ss3', 'SS-3 web-0 Pending: nothing created', (c) => settled(c, {}, [ghost('Pending'), null, null])),
  ss('ss4', 'SS-4 web-1 missing between Ready pods: created', (c) => settled(c, {}, [kwok, null, kwok])),
  ss('ss5', 'SS-5 web-1 Failed: deleted, recreated in a later sync', (c) => settled(c, {}, [kwok, ghost('Failed'), kwok])),
  ss('ss6', 'SS-6 Parallel: web-0 Failed deleted and web-2 created together', (c) => settled(c, {parallel: true}, [ghost('Failed'), kwok, null])),
  ss('ss7', 'SS-7 scale 3→1: web-2 only, then it waits while web-2 terminates', (c) => settled(c, {}, [ghost(), ghost(), ghost()], {replicas: 1})),
  ss('ss8', 'SS-8 Parallel scale 3→1: web-2 and web-1 in one sync', (c) => settled(c, {parallel: true}, [ghost(), ghost(), ghost()], {replicas: 1})),
  ss('ss9', 'SS-9 5→3 with web-3 and web-4 Pending: web-4 is not the first unhealthy, nothing goes', (c) =>
    settled(c, {}, [kwok, kwok, kwok, ghost('Pending'), ghost('Pending')], {replicas: 3}),
  ),
  ss('ss10', 'SS-10 5→3 with only web-4 Pending: it goes', (c) => settled(c, {}, [kwok, kwok, kwok, kwok, ghost('Pending')], {replicas: 3})),
  ss('ss11', 'SS-11 scale 3→2 while web-0 is not Ready: nothing', (c) => settled(c, {}, [ghost('NotReady'), kwok, kwok], {replicas: 2})),
  ss('ss12', 'SS-12 scale 3→1 while web-2 terminates: claims fixed, nothing deleted', (c) =>
    settled(c, {claims: true, retention: ['Delete', 'Delete']}, [ghost(), ghost(), ghost('Terminating')], {replicas: 1, claimOwners: 'set'}),
  ),
  ss('ss13', 'SS-13 a new template: revision 2, web-2 deleted first', (c) => settled(c, {}, [ghost(), ghost(), ghost()], {image: 'B'})),
  ss('ss14', 'SS-14 mid-rollout, web-2 updated but Pending: nothing deleted', (c) => settled(c, {}, [ghost(), ghost(), ghost('Pending', {atUpdate: true})], {image: 'B'})),
  ss('ss15', 'SS-15 as SS-14, Parallel', (c) => settled(c, {parallel: true}, [ghost(), ghost(), ghost('Pending', {atUpdate: true})], {image: 'B'})),
  ss('ss16', 'SS-16 partition 2: only web-2 is updated', (c) => settled(c, {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 2}}}, [kwok, kwok, kwok], {image: 'B'})),
  ss('ss17', 'SS-17 ordinals from 5, partition 1: web-7 then web-6, web-5 never', (c) =>
    settled(c, {start: 5, parallel: true, updateStrategy: {type: 'RollingUpdate', rollingUpdate: {partition: 1}}}, [kwok, kwok, kwok], {image: 'B'}),
  ),
  ss('ss18', 'SS-18 OnDelete: revision 2, nothing deleted, the missing web-1 created at it', (c) => settled(c, {updateStrategy: {type: 'OnDelete'}}, [kwok, null, kwok], {image: 'B'})),
  ss('ss19', 'SS-19 template back to revision 1: it is renumbered 3, web-2 rolled back', async (c) => {
    const set = await createSet(c)
    const r1 = await setRevision(c, set, 1)
    const r2 = await setRevision(c, set, 2, 'B')
    for (const i of [0, 1]) await setPod(c, set, i, r1)
    await setPod(c, set, 2, r2)
    await setStatus(c, set, {replicas: 3, current: r1, update: r2, currentReplicas: 2, updated: 1})
  }),
  ss('ss19b', 'SS-19 with revision 1 stored with its keys in another order: not the template\'s; a new revision, its name colliding', async (c) => {
    const set = await createSet(c)
    const r1 = await setRevision(c, set, 1, undefined, {reordered: true})
    const r2 = await setRevision(c, set, 2, 'B')
    for (const i of [0, 1]) await setPod(c, set, i, r1)
    await setPod(c, set, 2, r2)
    await setStatus(c, set, {replicas: 3, current: r1, update: r2, currentReplicas: 2, updated: 1})
  }),
  ss('ss20', 'SS-20 RollingUpdate without rollingUpdate, scaled 2→3 after a template change: web-2 at the new revision', (c) =>
    settled(c, {updateStrategy: {type: 'RollingUpdate'}}, [ghost(), ghost()], {replicas: 3, image: 'B'}),
  ),
  ss('ss21', 'SS-21 claims, Retain: the claim before each pod, no owners', (c) => createSet(c, {claims: true})),
  ss('ss22', 'SS-22 Delete/Delete, scale 3→1: both condemned claims handed to their pods, then web-2 deleted', (c) =>
    settled(c, {claims: true, retention: ['Delete', 'Delete']}, [ghost(), ghost(), ghost()], {replicas: 1, claimOwners: 'set'}),
  ),
  ss('ss23', 'SS-23 whenDeleted Delete: claims owned by the set', (c) => createSet(c, {claims: true, retention: ['Delete', 'Retain']})),
  ss('ss24', 'SS-24 whenScaled Delete, web-1 missing, its claim still names an earlier web-1: not created', async (c) => {
    await settled(c, {claims: true, retention: ['Retain', 'Delete']}, [kwok, null, kwok])
    await createClaim(c, 'data-web-1', {owners: [{apiVersion: 'v1', kind: 'Pod', name: 'web-1', uid: '0e5b2a4c-0000-4000-8000-000000000001', controller: true, blockOwnerDeletion: true}]})
  }),
  ss('ss25', 'SS-25 web-1 missing, its claim being deleted: the create fails', async (c) => {
    await settled(c, {claims: true}, [kwok, null, kwok])
    await createClaim(c, 'data-web-1', {finalizers: [HOLD]})
    await apiOk('DELETE', `/api/v1/namespaces/${c.ns}/persistentvolumeclaims/data-web-1`)
  }),
  ss('ss26', 'SS-26 an orphan web-1 without the pod-name label: adopted, then labelled', async (c) => {
    await settled(c, {}, [kwok, null, kwok])
    await createPod(c, 'web-1', {labels: {app: 'web'}})
  }),
  ss('ss27', 'SS-27 an owned pod other-1: released', async (c) => {
    const {set} = await settled(c, {}, [kwok, kwok, kwok])
    await createPod(c, 'other-1', {labels: {app: 'web'}, owner: controllerRef(set)})
  }),
  ss('ss28', 'SS-28 an owned web-7 beyond replicas: condemned and deleted', async (c) => {
    const {set, r1} = await settled(c, {}, [kwok, kwok, kwok])
    await setPod(c, set, 7, r1)
  }),
  ss('ss29', 'SS-29 revisionHistoryLimit 1 with four revisions: the two oldest go', async (c) => {
    const set = await createSet(c, {revisionHistoryLimit: 1})
    for (const r of [1, 2, 3]) await setRevision(c, set, r, `registry.invalid/web:old-${r}`)
    const r4 = await setRevision(c, set, 4)
    for (const i of [0, 1, 2]) await setPod(c, set, i, r4)
    await setStatus(c, set, {replicas: 3, current: r4})
  }),
  ss('ss30', 'SS-30 minReadySeconds 3600, web-0 Ready 10 s: web-1 waits', (c) =>
    settled(c, {minReadySeconds: 3600}, [ghost('Running', {readySince: new Date(Date.now() - 10_000)}), null]),
  ),
  ss('ss31', 'SS-31 every pod updated and Ready, status still on revision 1: the rollout completes', async (c) => {
    const set = await createSet(c, {image: 'B'})
    const r1 = await setRevision(c, set, 1, 'A')
    const r2 = await setRevision(c, set, 2)
    for (const i of [0, 1, 2]) await setPod(c, set, i, r2)
    await setStatus(c, set, {replicas: 3, current: r1, update: r2, currentReplicas: 0, updated: 3})
  }),
  ss('ss32', 'SS-32 a set being deleted: status only', async (c) => {
    await settled(c, {finalizers: [HOLD]}, [kwok, null, kwok])
    await apiOk('DELETE', `/apis/apps/v1/namespaces/${c.ns}/statefulsets/web`)
  }),
]

/** Three hand-made nodes with an old pod each (Ready by hand), then a new template. */
async function rollingWorld(c: Ctx, o: {updateStrategy?: Json; notReady?: number; skip?: number} = {}): Promise<Json> {
  const set = await createDaemonSet(c, {updateStrategy: o.updateStrategy})
  const r1 = await daemonRevision(c, set, 1, 'A')
  for (const [i, suffix] of ['a', 'b', 'c'].entries()) {
    const node = await handNode(c, suffix)
    if (i === o.skip) continue
    await daemonPod(c, set, node, {hash: r1, generation: '1', state: i === o.notReady ? 'NotReady' : 'Running'})
  }
  await patchSet(c, {template: daemonTemplate(c, 'B')}, 'daemonsets')
  return set
}

const zone = (z: string) => ({labels: {'wlo-zone': z}})

export const DAEMONSET_SCENARIOS: Scenario[] = [
  ds('ds1', 'DS-1 three nodes, no pods: a revision and a pod per node', async (c) => {
    for (const n of ['a', 'b', 'c']) await kwokNode(c, n)
    await createDaemonSet(c)
  }),
  ds('ds2', 'DS-2 a NoSchedule taint: no new pod; the pod there stays, misscheduled', async (c) => {
    await kwokNode(c, 'a')
    const b = await kwokNode(c, 'b', {taints: [{key: 'foo', value: 'bar', effect: 'NoSchedule'}]})
    const set = await createDaemonSet(c)
    await daemonPod(c, set, b, {generation: '1'})
  }),
  ds('ds3', 'DS-3 a NoExecute taint: its pod deleted', async (c) => {
    const a = await kwokNode(c, 'a', {taints: [{key: 'foo', value: 'bar', effect: 'NoExecute'}]})
    const b = await kwokNode(c, 'b')
    const set = await createDaemonSet(c)
    await daemonPod(c, set, a, {generation: '1'})
    await daemonPod(c, set, b, {generation: '1'})
  }),
  ds('ds4', "DS-4 a new node still tainted not-ready: left out", async (c) => {
    await handNode(c, 'a', {keepNotReadyTaint: true})
    await kwokNode(c, 'b')
    await createDaemonSet(c)
  }),
  ds('ds5', 'DS-5 an unschedulable node without the taint: a pod all the same', async (c) => {
    await kwokNode(c, 'a', {unschedulable: true})
    await createDaemonSet(c)
  }),
  ds('ds6', 'DS-6 a node relabelled away from the nodeSelector: its pod deleted', async (c) => {
    const a = await kwokNode(c, 'a', {labels: {pool: 'z'}})
    const b = await kwokNode(c, 'b', {labels: {pool: 'x'}})
    const set = await createDaemonSet(c, {spec: {nodeSelector: {pool: 'x'}}})
    await daemonPod(c, set, a, {generation: '1'})
    await daemonPod(c, set, b, {generation: '1'})
  }),
  ds('ds7', 'DS-7 only the node labelled to match gets a pod', async (c) => {
    await kwokNode(c, 'a', {labels: {pool: 'x'}})
    await kwokNode(c, 'b', {labels: {pool: 'z'}})
    await createDaemonSet(c, {spec: {nodeSelector: {pool: 'x'}}})
  }),
  ds('ds8', 'DS-8 two pods on one node: the older stays', async (c) => {
    const a = await kwokNode(c, 'a')
    const set = await createDaemonSet(c)
    await daemonPod(c, set, a, {generation: '1'})
    await daemonPod(c, set, a, {generation: '1', suffix: '-2'})
  }),
  ds('ds9', 'DS-9 a Failed pod: deleted, replaced in a later sync', async (c) => {
    const a = await kwokNode(c, 'a')
    const set = await createDaemonSet(c)
    await daemonPod(c, set, a, {generation: '1', state: 'Failed'})
  }),
  ds('ds10', 'DS-10 a Succeeded pod: deleted, replaced', async (c) => {
    const a = await kwokNode(c, 'a')
    const set = await createDaemonSet(c)
    await daemonPod(c, set, a, {generation: '1', state: 'Succeeded'})
  }),
  ds('ds11', 'DS-11 pods for nodes that are gone: the unbound one deleted, the bound one left', async (c) => {
    const a = await kwokNode(c, 'a')
    const set = await createDaemonSet(c)
    await daemonPod(c, set, a, {generation: '1'})
    await daemonPod(c, set, `${c.id}-gone`, {generation: '1', on: 'unbound', state: 'Pending'})
    await daemonPod(c, set, `${c.id}-left`, {generation: '1', state: 'Pending'})
  }),
  ds('ds12', 'DS-12 a new template over three nodes, maxUnavailable 1: one old pod deleted (which one: map order)', (c) => rollingWorld(c), true),
  ds('ds13', 'DS-13 as DS-12 with one old pod not Ready: that one', (c) => rollingWorld(c, {notReady: 1})),
  ds('ds14', 'DS-14 maxUnavailable 50% of 3: two old pods (map order)', (c) => rollingWorld(c, {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {maxUnavailable: '50%'}}}), true),
  ds('ds15', 'DS-15 a node whose old pod is gone: the new pod there, no delete', (c) => rollingWorld(c, {skip: 2})),
  ds('ds16', 'DS-16 maxSurge 1: one new pod (map order), nothing deleted', (c) => rollingWorld(c, {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}}), true),
  ds('ds17', 'DS-17 surge: an old and a new pod, both available: the old goes', async (c) => {
    const set = await createDaemonSet(c, {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}})
    const a = await handNode(c, 'a')
    await daemonPod(c, set, a, {generation: '1'})
    await patchSet(c, {template: daemonTemplate(c, 'B')}, 'daemonsets')
    await daemonPod(c, set, a, {generation: '2', suffix: '-new'})
  }),
  ds('ds18', 'DS-18 surge: an old pod not Ready and a new one Pending: the old goes', async (c) => {
    const set = await createDaemonSet(c, {updateStrategy: {type: 'RollingUpdate', rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}})
    const a = await handNode(c, 'a')
    await daemonPod(c, set, a, {generation: '1', state: 'NotReady'})
    await patchSet(c, {template: daemonTemplate(c, 'B')}, 'daemonsets')
    await daemonPod(c, set, a, {generation: '2', suffix: '-new', state: 'Pending'})
  }),
  ds('ds19', 'DS-19 OnDelete: a new revision, no deletes, a new node gets the new template', async (c) => {
    const a = await kwokNode(c, 'a')
    await kwokNode(c, 'b')
    const set = await createDaemonSet(c, {updateStrategy: {type: 'OnDelete'}})
    await daemonPod(c, set, a, {generation: '1'})
    await patchSet(c, {template: daemonTemplate(c, 'B')}, 'daemonsets')
  }),
  ds('ds20', 'DS-20 revisionHistoryLimit 1 with three old revisions: the two oldest go', async (c) => {
    const a = await kwokNode(c, 'a')
    const set = await createDaemonSet(c, {revisionHistoryLimit: 1})
    for (const r of [1, 2, 3]) await daemonRevision(c, set, r, `registry.invalid/web:old-${r}`)
    await daemonPod(c, set, a, {generation: '1'})
  }),
  ds('ds21', 'DS-21 a terminating pod on its node: no new pod; counted current, ready, available', async (c) => {
    const a = await handNode(c, 'a')
    const set = await createDaemonSet(c)
    await daemonPod(c, set, a, {generation: '1', state: 'Terminating'})
  }),
  ds('ds22', 'DS-22 an orphan on a node: adopted, no second pod', async (c) => {
    const a = await kwokNode(c, 'a')
    await createDaemonSet(c)
    await daemonPod(c, null, a, {generation: '1'})
  }),
  ds('ds23', "DS-23 the user's not-ready toleration with tolerationSeconds: replaced by the controller's", async (c) => {
    await kwokNode(c, 'a')
    await createDaemonSet(c, {spec: {tolerations: [{key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300}]}})
  }),
  ds('ds24', 'DS-24 required node affinity zone In [a]: pods only there, with only the node-name term', async (c) => {
    await kwokNode(c, 'a', zone('a'))
    await kwokNode(c, 'b', zone('b'))
    const term = {matchExpressions: [{key: 'wlo-zone', operator: 'In', values: ['a']}]}
    await createDaemonSet(c, {spec: {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [term]}}}}})
  }),
]
