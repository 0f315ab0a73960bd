import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'

import {UserError} from '../../../src/errors.js'
import {PodIndex} from '../../../src/reconcile/pod-index.js'
import {labelValueProblem} from '../../../src/reconcile/selector.js'
import type {Snapshot} from '../../../src/model/objects.js'
import {isLabelValue} from '../../../src/sources/context.js'
import {openSources, readDocuments} from '../../../src/sources/documents.js'
import {readFixtures, type FixtureOptions} from '../../../src/sources/fixtures.js'
import {formatPath, inventedUid, isDns1123, Normalizer, timestampProblem} from '../../../src/sources/normalize.js'
import {plainPod} from '../../../src/sources/pods.js'

const FX = 'test/fixtures/sources'
const E = `${FX}/errors`
const tmp = mkdtempSync(join(tmpdir(), 'kctl-normalize-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

const read = (paths: string[], opts: Partial<FixtureOptions> = {}) => readFixtures({paths, ...opts})

async function errorLine(paths: string[], opts: Partial<FixtureOptions> = {}): Promise<string> {
  try {
    await read(paths, opts)
  } catch (error) {
    if (error instanceof UserError) return error.line
    throw error
  }
  throw new Error('expected an error')
}

function fixture(name: string, text: string): string {
  const file = join(tmp, name)
  writeFileSync(file, text)
  return file
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('defaulting, as the API server does it', () => {
  it('namespace: -n for objects that name none', async () => {
    const snap = await read([`${FX}/list.yaml`], {namespace: 'team-a', allNamespaces: true})
    expect(snap.workloads[0].namespace).toBe('team-a')
    expect(snap.pods[0].namespace).toBe('team-a')
  })

  it('pods: the fields the controllers read', async () => {
    const snap = await read([`${FX}/pods.yaml`])
    const [pod] = snap.pods
    expect(pod).toMatchObject({
      namespace: 'default',
      name: 'api-1',
      labels: {app: 'api'},
      creationTimestamp: '2026-11-20T08:00:00Z',
      nodeName: 'node-1',
      phase: 'Running',
      ready: true,
      readySince: '2026-11-20T08:00:30Z',
      containerStatuses: [{name: 'api', restartCount: 3}],
      sidecarStatuses: [{name: 'proxy', restartCount: 1}],
    })
    // The owner's uid, left out in the fixture, is the ReplicaSet's.
    expect(pod.ownerReferences).toEqual([{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api', uid: '11111111-1111-4111-8111-111111111111', controller: true}])
    const [other] = snap.pods.filter((p) => p.name === 'api-2')
    expect(other).toMatchObject({phase: '', ready: false, readySince: undefined, nodeName: '', containerStatuses: [], sidecarStatuses: [], ownerReferences: []})
  })

  it('workloads keep the template and the selector as written', async () => {
    const [rs] = (await read([`${FX}/pods.yaml`])).workloads
    expect(rs).toMatchObject({
      uid: '11111111-1111-4111-8111-111111111111',
      replicas: 2,
      minReadySeconds: 10,
      selector: {matchExpressions: [{key: 'app', operator: 'In', values: ['api']}]},
      template: {labels: {app: 'api'}, annotations: {note: 'x'}, finalizers: ['example.com/keep']},
    })
  })

  it('a Ready condition that is not True gives no readySince', async () => {
    const file = fixture('notready.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nstatus:\n  conditions:\n  - {type: Ready, status: "False", lastTransitionTime: "2026-11-20T08:00:30Z"}\n  - {type: Ready, status: "True"}\n')
    const [pod] = (await read([file])).pods
    expect(pod.ready).toBe(false) // the first Ready condition counts
    expect(pod.readySince).toBeUndefined()
  })
})

  it('pods read in a row with the same labels share them; any other labels are their own', async () => {
    const labelSets = [{app: 'a', tier: 'x'}, {app: 'a', tier: 'x'}, {app: 'a'}, {app: 'a', tier: 'x', more: 'y'}, {tier: 'x', app: 'a'}, {app: 'a', tier: 'z'}, {app: 'a', tier: 'z'}, {app: 'a', tier: 'y'}, {app: 'b', tier: 'y'}, {app: 'b', tier: 'y'}, {app: 'b', more: 'y'}, {}, {}]
    const pods = labelSets.map((labels, i) => ({apiVersion: 'v1', kind: 'Pod', metadata: {name: `p-${i}`, labels}}))
    const file = fixture('shared-labels.json', JSON.stringify({apiVersion: 'v1', kind: 'List', items: pods}))
    const snap = await read([file])
    expect(snap.pods.map((p) => p.labels)).toEqual(labelSets)
    expect(snap.pods.map((p, i) => i > 0 && p.labels === snap.pods[i - 1].labels)).toEqual([false, true, false, false, false, false, true, false, false, true, false, false, true])
  })

describe('pods read in a row share what they have alike', () => {
  it('each pod keeps its own values whichever of them differ from the pod before', async () => {
    const owner = {apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'w', uid: 'w-uid', controller: true}
    const base = {phase: 'Running', ready: 'True', generation: 1, deleting: undefined as string | undefined, note: undefined as string | undefined, owned: true, restarts: 0, sidecarRestarts: undefined as number | undefined}
    // Each pod differs from the one before it in one value at most.
    const changes: Partial<typeof base>[] = [{}, {}, {phase: 'Pending'}, {ready: 'False'}, {generation: 3}, {deleting: '2026-11-20T00:00:00Z'}, {note: 'x'}, {}, {note: 'y'}, {owned: false}, {restarts: 2}, {}, {sidecarRestarts: 1}]
    const states: (typeof base)[] = []
    for (const c of changes) states.push({...(states.at(-1) ?? base), ...c})
    const pods = states.map((s, i) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: `p-${i}`, generation: s.generation, ...(s.deleting ? {deletionTimestamp: s.deleting} : {}), ...(s.note ? {annotations: {note: s.note}} : {}), ...(s.owned ? {ownerReferences: [owner]} : {})},
      spec: {initContainers: [{name: 'side', restartPolicy: 'Always'}]},
      status: {
        phase: s.phase,
        conditions: [{type: 'Ready', status: s.ready}],
        containerStatuses: [{name: 'main', restartCount: s.restarts}],
        ...(s.sidecarRestarts === undefined ? {} : {initContainerStatuses: [{name: 'side', restartCount: s.sidecarRestarts}]}),
      },
    }))
    const file = fixture('pod-states.json', JSON.stringify({apiVersion: 'v1', kind: 'List', items: pods}))
    const snap = await read([file])
    expect(
      snap.pods.map((p) => ({
        phase: p.phase,
        ready: p.ready ? 'True' : 'False',
        generation: p.generation,
        deleting: p.deletionTimestamp,
        note: p.annotations.note,
        owned: p.ownerReferences.length === 1,
        restarts: p.containerStatuses[0].restartCount,
        sidecarRestarts: p.sidecarStatuses[0]?.restartCount,
      })),
    ).toEqual(states)
    // Copied with plainPod, or written as JSON, a pod has all its fields, in the order of the reader's.
    const copy = {...plainPod(snap.pods[3]), name: 'copy'}
    expect([copy.phase, copy.ready, copy.generation, copy.name]).toEqual(['Pending', false, 1, 'copy'])
    expect(Object.keys(JSON.parse(JSON.stringify(snap.pods[5])))).toEqual(['namespace', 'name', 'uid', 'resourceVersion', 'generation', 'labels', 'annotations', 'ownerReferences', 'deletionTimestamp', 'nodeName', 'phase', 'ready', 'containerStatuses', 'sidecarStatuses'])
    // The annotations of pods in a row that are alike are one map.
    expect(snap.pods[7].annotations).toBe(snap.pods[6].annotations)
    expect(snap.pods[8].annotations).not.toBe(snap.pods[7].annotations)
  })
})

describe('identity', () => {
  it('invents the same UUID for the same object every time, and different ones for different objects', async () => {
    const a = await read([`${FX}/rc.yaml`])
    const b = await read([`${FX}/rc.yaml`])
    expect(a.workloads[0].uid).toBe(b.workloads[0].uid)
    expect(a.workloads[0].uid).toBe(inventedUid('', 'ReplicationController', 'default', 'legacy'))
    expect(a.workloads[0].uid).toMatch(UUID)
    expect(inventedUid('apps', 'ReplicaSet', 'default', 'web')).not.toBe(inventedUid('apps', 'ReplicaSet', 'other', 'web'))
    expect(inventedUid('apps', 'ReplicaSet', 'default', 'web')).toBe('b0dcd9cc-91fe-5a46-bd43-c1bc6c04953d')
  })

  it('fills an owner reference without uid with the uid kctl invented for the owner', async () => {
    const file = fixture('owned.yaml', 'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec: {selector: {matchLabels: {app: web}}}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, controller: true}]\n')
    const snap = await read([file])
    expect(snap.pods[0].ownerReferences[0].uid).toBe(snap.workloads[0].uid)
  })
})

describe('kinds and filters', () => {
  it('counts the kinds it does not plan for', async () => {
    const snap = await read([`${FX}/pods.yaml`, `${FX}/multi.yaml`])
    expect(snap.ignored).toEqual({ConfigMap: 1})
    expect(snap.services?.map((s) => s.name).sort()).toHaveLength(2)
    expect(snap.deployments?.map((d) => d.name)).toEqual(['api'])
    expect(snap.source).toEqual({type: 'fixtures', paths: [`${FX}/pods.yaml`, `${FX}/multi.yaml`]})
  })

  it('-n keeps only that namespace; -A and no -n keep all', async () => {
    const all = await read([`${FX}/pods.yaml`, `${FX}/multi.yaml`])
    expect(all.pods.map((p) => p.name)).toEqual(['api-1', 'api-2', 'web-a'])
    expect(all.workloads.map((w) => w.name)).toEqual(['api', 'web'])
    const shop = await read([`${FX}/pods.yaml`, `${FX}/multi.yaml`], {namespace: 'shop'})
    // Objects that name no namespace are in the -n one.
    expect(shop.pods.map((p) => p.name)).toEqual(['api-1', 'web-a'])
    expect(shop.workloads.map((w) => [w.namespace, w.name])).toEqual([['shop', 'api'], ['shop', 'web']])
    expect(shop.replicaSets.map((w) => w.name)).toEqual(['api', 'web']) // every ReplicaSet, for related pods
    const everywhere = await read([`${FX}/pods.yaml`, `${FX}/multi.yaml`], {namespace: 'shop', allNamespaces: true})
    expect(everywhere.pods.map((p) => p.name)).toEqual(['api-1', 'api-2', 'web-a'])
  })

  it('-l filters controllers by their own labels and keeps every pod', async () => {
    const snap = await read([`${FX}/pods.yaml`, `${FX}/multi.yaml`], {selector: 'team=blue'})
    expect(snap.workloads.map((w) => w.name)).toEqual(['api'])
    expect(snap.replicaSets.map((w) => w.name)).toEqual(['api', 'web'])
    expect(snap.pods).toHaveLength(3)
    expect(await errorLine([`${FX}/pods.yaml`], {selector: 'a in (b'})).toMatch(/^invalid -l\/--selector: /)
  })

  it('gives the object origin lazily, on the view', async () => {
    const snap = await read([`${FX}/multi.yaml`])
    expect(snap.workloads[0].origin).toEqual({file: `${FX}/multi.yaml`, line: 3, column: 1})
    expect(snap.pods[0].origin).toEqual({file: `${FX}/multi.yaml`, line: 26, column: 1})
  })
})

describe('validation: one line naming the field', () => {
  it.each([
    ['replicas-string.yaml', '8:13: spec.replicas: expected a non-negative integer, got "three"'],
    ['replicas-negative.yaml', '6:13: spec.replicas: expected a non-negative integer, got -1'],
    ['min-ready.yaml', '5:20: spec.minReadySeconds: expected a non-negative integer, got 1.5'],
    ['label-bool.yaml', '7:13: metadata.labels.canary: expected a string, got true (YAML 1.1, which Kubernetes reads, takes unquoted yes/no/on/off/y/n/true/false as booleans: quote the value)'],
    ['operator.yaml', '9:17: spec.selector.matchExpressions[0].operator: "in" is not a valid label selector operator; use In, NotIn, Exists or DoesNotExist (operators are case-sensitive: use "In")'],
    ['in-no-values.yaml', '10:15: spec.selector.matchExpressions[0].values: operator In on "tier" needs at least one value'],
    ['exists-values.yaml', '8:45: spec.selector.matchExpressions[0].values: operator Exists on "tier" takes no values'],
    ['label-key.yaml', `8:7: spec.selector.matchLabels["-bad"]: invalid label key "-bad": the name part must consist of alphanumerics, '-', '_' or '.', and begin and end with an alphanumeric`],
    ['no-selector.yaml', '5:1: spec.selector: a selector is required (the API server rejects an apps/v1 ReplicaSet without spec.selector)'],
    ['empty-selector.yaml', '6:13: spec.selector: an empty selector is invalid: it would select every pod in the namespace (give matchLabels or matchExpressions)'],
    ['bad-time.yaml', '5:22: metadata.creationTimestamp: day out of range in "2026-02-30T10:00:00Z"'],
    ['retired.yaml', '1:13: apiVersion: ReplicaSet is not served as extensions/v1beta1 by Kubernetes 1.36 (use apiVersion: apps/v1)'],
    ['rc-no-template.yaml', '5:1: spec.template: a ReplicationController needs a pod template (the API server rejects one without spec.template)'],
    ['owner-two-controllers.yaml', '6:3: metadata.ownerReferences: only one reference can have controller set to true'],
  ])('%s', async (file, line) => {
    expect(await errorLine([`${E}/${file}`])).toBe(`${E}/${file}:${line}`)
  })

  it('a later definition replaces an earlier one in its apply set (kubectl apply order), with one warning naming both', async () => {
    const warnings: string[] = []
    const snap = await read([`${E}/duplicate.yaml`], {onWarning: (w) => warnings.push(w)})
    expect(snap.pods.filter((p) => p.name === 'twin').map((p) => p.origin.line)).toEqual([11])
    expect(warnings).toEqual([`Pod default/twin at ${E}/duplicate.yaml:11 replaces the one at ${E}/duplicate.yaml:1 (the later definition wins, as with kubectl apply)`])
    // Across files too; the same name in another namespace or kind is another object.
    const file = fixture('dup2.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: twin, namespace: elsewhere}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: twin}\n')
    const both = await read([file, `${FX}/tree/top.yaml`])
    expect(both.pods.map((p) => `${p.namespace}/${p.name}`).sort()).toEqual(['default/top', 'elsewhere/twin'])
  })

  it('a later definition the API server would reject replaces nothing: the earlier one stays, the file is reported', async () => {
    const good = fixture('rs-good.yaml', 'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}\n')
    const bad = fixture('rs-bad.yaml', 'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec:\n  replicas: -1\n  selector: {matchLabels: {app: web}}\n  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}\n')
    const errors: string[] = []
    const warnings: string[] = []
    const snap = await read([good, bad], {onUnreadable: (e) => errors.push(e.line), onWarning: (w) => warnings.push(w)})
    expect(snap.workloads.map((w) => [w.name, w.replicas])).toEqual([['web', 2]])
    expect(errors).toEqual([`${bad}:5:13: spec.replicas: expected a non-negative integer, got -1`])
    expect(warnings).toEqual([])
  })

  it('an object with only metadata.generateName is planned under a stable placeholder, said once', async () => {
    const text = 'apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: migrate-}\nspec:\n  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}\n'
    const file = fixture('gen.yaml', `${text}---\n${text.replace('busybox', 'alpine')}`)
    const warnings: string[] = []
    const a = await read([file], {onWarning: (w) => warnings.push(w)})
    const b = await read([file])
    const names = a.jobs.map((j) => j.name)
    expect(names).toHaveLength(2)
    for (const n of names) expect(n).toMatch(/^migrate-[bcdfghjklmnpqrstvwxz2456789]{5}$/)
    expect(names[0]).not.toBe(names[1])
    expect(b.jobs.map((j) => j.name)).toEqual(names)
    expect(warnings).toEqual([`2 objects have only metadata.generateName: planned as Job default/${names[0]}, Job default/${names[1]} (the API server would add a random suffix)`])
  })

  it('a key written twice with one value is accepted (as kubectl and PyYAML do); with two values it is an error', async () => {
    const same = fixture('dup-same.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {app: a, app: a}\n  name: p\nspec: {containers: [{name: c, image: x}]}\n')
    expect((await read([same])).pods.map((p) => [p.name, p.labels])).toEqual([['p', {app: 'a'}]])
    const differ = fixture('dup-differ.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {app: a, app: b}\n')
    expect(await errorLine([differ])).toBe(`${differ}:5:20: invalid YAML: duplicated mapping key`)
  })

  it('unreadable files are reported one error each, and everything else is read', async () => {
    const good = fixture('ok.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: fine}\n')
    const errors: string[] = []
    const snap = await read([`${E}/two-problems.yaml`, good, `${E}/malformed.yaml`], {onUnreadable: (e) => errors.push(e.line)})
    expect(snap.pods.map((p) => p.name)).toEqual(['fine'])
    expect(errors).toEqual([
      `${E}/two-problems.yaml:7:14: metadata.labels.enabled: expected a string, got true (YAML 1.1, which Kubernetes reads, takes unquoted yes/no/on/off/y/n/true/false as booleans: quote the value; 1 more problem in this file)`,
      `${E}/malformed.yaml:9:10: invalid YAML: bad indentation of a mapping entry`,
    ])
  })

  it('two identical objects are one object (a file read twice, an all-in-one file beside the split files)', async () => {
    const once = await read([`${FX}/tree`])
    const twice = await read([`${FX}/tree/top.yaml`, `${FX}/tree`])
    expect(twice.pods.map((p) => p.name).sort()).toEqual(once.pods.map((p) => p.name).sort())
    expect(twice.workloads.map((w) => w.name)).toEqual(once.workloads.map((w) => w.name))
  })

  it('two different objects of a kind kctl does not plan are not an error, and count once', async () => {
    const a = fixture('secret-a.yaml', 'apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {a: "1"}\n')
    const b = fixture('secret-b.yaml', 'apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {a: "2"}\n')
    expect((await read([a, b])).ignored).toEqual({Secret: 1})
  })

  it('reports the first problem in input order, and how many more there are', async () => {
    expect(await errorLine([`${E}/two-problems.yaml`])).toBe(
      `${E}/two-problems.yaml:7:14: metadata.labels.enabled: expected a string, got true (YAML 1.1, which Kubernetes reads, takes unquoted yes/no/on/off/y/n/true/false as booleans: quote the value; 1 more problem in the input)`,
    )
    expect(await errorLine([`${E}/replicas-negative.yaml`, `${E}/replicas-string.yaml`])).toBe(
      `${E}/replicas-negative.yaml:6:13: spec.replicas: expected a non-negative integer, got -1 (1 more problem in the input)`,
    )
  })

  it('a parse error after a bad object: the bad object comes first', async () => {
    expect(await errorLine([`${E}/replicas-negative.yaml`, `${E}/malformed.yaml`])).toBe(
      `${E}/replicas-negative.yaml:6:13: spec.replicas: expected a non-negative integer, got -1 (1 more problem in the input)`,
    )
    expect(await errorLine([`${E}/malformed.yaml`, `${E}/replicas-negative.yaml`])).toBe(`${E}/malformed.yaml:9:10: invalid YAML: bad indentation of a mapping entry`)
  })

  it.each([
    ['replicas: 3.0', 3], // YAML 3.0 is the float 3, which JSON carries as 3: accepted as 3
    ['replicas: 2147483648', 'spec.replicas: expected a non-negative integer of at most 2147483647, got 2147483648'],
    ['replicas: "3"', 'spec.replicas: expected a non-negative integer, got "3" (remove the quotes)'],
    ['replicas: [3]', 'spec.replicas: expected a non-negative integer, got a list'],
    ['replicas: null', 1], // null is unset: defaulted to 1, as the API server does
  ])('%s', async (line, expected) => {
    const file = fixture('types.yaml', `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: t}\nspec:\n  ${line}\n  selector: {matchLabels: {a: b}}\n`)
    if (typeof expected === 'number') expect((await read([file])).workloads.map((w) => [w.name, w.replicas])).toEqual([['t', expected]])
    else expect(await errorLine([file])).toBe(`${file}:5:13: ${expected}`)
  })

  it('names, namespaces and metadata types', async () => {
    const f1 = fixture('name.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: Web_1}\n')
    expect(await errorLine([f1])).toMatch(/:3:18: metadata.name: invalid name "Web_1": must be a lowercase RFC 1123 subdomain/)
    const f2 = fixture('noname.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {labels: {app: web}}\n')
    expect(await errorLine([f2])).toBe(`${f2}:3:1: metadata.name: a name is required`)
    const f3 = fixture('rv.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  resourceVersion: 42\n')
    expect(await errorLine([f3])).toBe(`${f3}:5:20: metadata.resourceVersion: expected a string, got 42 (quote the value to make it a string)`)
    const f4 = fixture('nometa.yaml', 'apiVersion: v1\nkind: Pod\nspec: {}\n')
    expect(await errorLine([f4])).toBe(`${f4}:1:1: metadata: required (with at least a name)`)
  })

  it('collects every problem for `kctl check`, each with its position', async () => {
    const n = new Normalizer({paths: []})
    for (const obj of readDocuments(await openSources([`${E}/two-problems.yaml`, `${E}/operator.yaml`]))) n.add(obj)
    const {problems} = n.finish()
    expect(problems.map((p) => [p.kind, p.name, formatPath(p.path), `${p.origin().line}:${p.origin().column}`])).toEqual([
      ['ReplicaSet', 'web', 'metadata.labels.enabled', '7:14'],
      ['ReplicaSet', 'web', 'spec.replicas', '9:13'],
      ['ReplicaSet', 'web', 'spec.selector.matchExpressions[0].operator', '9:17'],
    ])
  })
})

describe('names and namespaces (RFC 1123), checked a character at a time', () => {
  it('agree with the API server\'s expressions on every short string of a mixed alphabet', () => {
    const label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
    const subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
    const alphabet = ['a', 'z', '0', '9', '-', '.', 'A', '_', 'é']
    const wrong: string[] = []
    const visit = (s: string) => {
      if (isDns1123(s) !== subdomain.test(s) || isDns1123(s, true) !== label.test(s)) wrong.push(s)
      if (s.length < 4) for (const c of alphabet) visit(s + c)
    }
    visit('')
    expect(wrong).toEqual([])
  })

  it('refuses a bad namespace after a good one, and a good one after a bad one is read', async () => {
    const pod = (name: string, namespace: string) => `---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  namespace: ${JSON.stringify(namespace)}\n`
    expect(await errorLine([fixture('ns.yaml', pod('a', 'team-a') + pod('b', 'team-a') + pod('c', 'Team-A'))])).toContain('invalid namespace "Team-A"')
    const snap: Snapshot = await read([fixture('ns-ok.yaml', pod('a', 'team-a') + pod('b', 'team-b') + pod('c', 'team-a'))], {allNamespaces: true})
    expect(snap.pods.map((p) => `${p.namespace}/${p.name}`)).toEqual(['team-a/a', 'team-b/b', 'team-a/c'])
  })
})

describe('timestamps (metav1.Time: time.Parse with RFC 3339)', () => {
  it.each(['2026-11-22T10:00:00Z', '2024-02-29T23:59:59Z', '2026-11-22T10:00:00.123Z', '2026-11-22T10:00:00+02:00', '2026-11-22T10:00:00-05:30'])('accepts %s', (t) => {
    expect(timestampProblem(t)).toBeUndefined()
  })

  it.each(['2026-11-22', '2026-11-22 10:00:00Z', '2026-11-22t10:00:00z', '2026-13-01T00:00:00Z', '2025-02-29T00:00:00Z', '2026-11-22T24:00:00Z', '2026-11-22T10:00:00.1234567891Z', ''])(
    'rejects %j',
    (t) => {
      expect(timestampProblem(t)).toBeDefined()
    },
  )

  it('keeps the string as written', async () => {
    const file = fixture('time.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  creationTimestamp: 2026-11-22T12:00:00.5+02:00\n')
    const snap: Snapshot = await read([file])
    expect(snap.pods[0].creationTimestamp).toBe('2026-11-22T12:00:00.5+02:00')
  })

  it('checks every object\'s times, those repeated from the objects before it as well', async () => {
    // The last times found valid are remembered: an invalid one after them is still refused.
    const pod = (name: string, created: string, ready: string) =>
      `---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  creationTimestamp: ${JSON.stringify(created)}\nstatus:\n  conditions:\n  - type: Ready\n    status: "True"\n    lastTransitionTime: ${JSON.stringify(ready)}\n`
    const good = fixture('times.yaml', pod('a', '2026-11-20T00:00:00Z', '2026-11-20T00:01:00Z') + pod('b', '2026-11-20T00:00:00Z', '2026-11-20T00:01:00Z'))
    const snap: Snapshot = await read([good])
    expect(snap.pods.map((p) => [p.creationTimestamp, p.readySince])).toEqual([
      ['2026-11-20T00:00:00Z', '2026-11-20T00:01:00Z'],
      ['2026-11-20T00:00:00Z', '2026-11-20T00:01:00Z'],
    ])
    for (const bad of ['', '2026-11-20T00:00:00', '1970-01-01T00:00:00']) {
      const file = fixture('bad-times.yaml', pod('a', '2026-11-20T00:00:00Z', '2026-11-20T00:01:00Z') + pod('b', bad, '2026-11-20T00:01:00Z'))
      expect(await errorLine([file])).toContain('metadata.creationTimestamp: ')
      const ready = fixture('bad-ready.yaml', pod('a', '2026-11-20T00:00:00Z', '2026-11-20T00:01:00Z') + pod('b', '2026-11-20T00:00:00Z', bad))
      expect(await errorLine([ready])).toContain('status.conditions[0].lastTransitionTime: ')
    }
  })
})

describe('label and annotation values written without a value (`app:`)', () => {
  it('are the empty string, as the API server decodes null into a map[string]string', async () => {
    const file = fixture(
      'null-values.yaml',
      `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web
  labels: {app: , tier: web}
  annotations:
    note:
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, canary: }}
    spec: {containers: [{name: c, image: nginx}]}
`,
    )
    const [rs] = (await read([file])).workloads
    expect(rs.labels).toEqual({app: '', tier: 'web'})
    expect(rs.annotations).toEqual({note: ''})
    expect(rs.template.labels).toEqual({app: 'web', canary: ''})
  })
})

describe('pods read as defined once (NormalizeOptions.podsOnce), read again when one is not', () => {
  const pod = (name: string, namespace: string, node: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: ${namespace}, uid: ${namespace}-${name}}\nspec: {nodeName: ${node}}\n`
  const normalized = async (file: string, podsOnce: boolean) => {
    const n = new Normalizer({paths: [file], podsOnce})
    for (const obj of readDocuments(await openSources([file]))) n.add(obj)
    return {n, ...n.finish()}
  }

  it('notes a name read twice in one namespace, not the same name in two namespaces', async () => {
    const apart = fixture('pods-apart.yaml', [pod('a', 'one', 'n1'), pod('a', 'two', 'n1'), pod('b', 'one', 'n1')].join('---\n'))
    const twice = fixture('pods-twice.yaml', [pod('a', 'one', 'n1'), pod('b', 'two', 'n1'), pod('a', 'one', 'n2')].join('---\n'))
    expect((await normalized(apart, true)).n.podsRepeated).toBe(false)
    const repeated = await normalized(twice, true)
    expect(repeated.n.podsRepeated).toBe(true)
    // Without the assumption nothing is noted: the later definition replaces the earlier as it is read.
    const eager = await normalized(twice, false)
    expect(eager.n.podsRepeated).toBe(false)
    expect(eager.snapshot.pods.map((p) => `${p.namespace}/${p.name}@${p.nodeName}`)).toEqual(['two/b@n1', 'one/a@n2'])
  })

  it('leaves out a pod with a problem, as a pod kept with where it was defined is', async () => {
    const file = fixture('pods-bad.yaml', [pod('a', 'one', 'n1'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: b, namespace: one}\nspec: {nodeName: 7}\n'].join('---\n'))
    for (const podsOnce of [true, false]) {
      const {snapshot, problems} = await normalized(file, podsOnce)
      expect(snapshot.pods.map((p) => p.name)).toEqual(['a'])
      expect(problems.map((p) => formatPath(p.path))).toEqual(['spec.nodeName'])
    }
  })

  it('hands the pod index the names it noted: the index answers as one built from the pods', async () => {
    const owned = (name: string, namespace: string, owner: string) =>
      `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: ${namespace}, uid: ${namespace}-${name}, ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: ${owner}, uid: ${owner}-uid, controller: true}]}\nspec: {nodeName: n1}\n`
    const docs = [owned('w-1', 'one', 'w'), owned('w-0', 'one', 'w'), pod('x', 'two', 'n2'), owned('v-0', 'two', 'v'), pod('q', 'one', 'n1'), owned('w-2', 'one', 'w')]
    const names = (pods: Iterable<{namespace: string; name: string}>) => [...pods].map((p) => `${p.namespace}/${p.name}`)
    const clean = fixture('pods-index.yaml', docs.join('---\n'))
    const withProblem = fixture('pods-index-bad.yaml', [...docs, 'apiVersion: v1\nkind: Pod\nmetadata: {name: z, namespace: one}\nspec: {nodeName: 7}\n'].join('---\n'))
    for (const file of [clean, withProblem]) {
      const {snapshot} = await normalized(file, true)
      const taken = new PodIndex(snapshot.pods)
      const built = new PodIndex([...snapshot.pods])
      expect(taken.size).toBe(built.size)
      for (const p of snapshot.pods) expect(taken.get(p.namespace, p.name)).toBe(built.get(p.namespace, p.name))
      for (const [namespace, name] of [['one', 'w'], ['two', 'v'], ['one', 'v']]) {
        const controller = {namespace, kind: 'StatefulSet', name, uid: `${name}-uid`}
        expect(names(taken.claimCandidates(controller))).toEqual(names(built.claimCandidates(controller)))
        expect(names(taken.referencing(controller.uid))).toEqual(names(built.referencing(controller.uid)))
      }
      for (const namespace of ['one', 'two']) expect(names(taken.orphans(namespace))).toEqual(names(built.orphans(namespace)))
    }
    const {snapshot} = await normalized(clean, true)
    expect(names(new PodIndex(snapshot.pods).claimCandidates({namespace: 'one', kind: 'StatefulSet', name: 'w', uid: 'w-uid'}))).toEqual(['one/q', 'one/w-0', 'one/w-1', 'one/w-2'])
  })

  it('tells a name read twice whenever it is asked: before the second reading, and after it', async () => {
    const file = fixture('pods-asked.yaml', [pod('a', 'one', 'n1'), pod('b', 'two', 'n1'), pod('a', 'two', 'n1'), pod('a', 'one', 'n2')].join('---\n'))
    const n = new Normalizer({paths: [file], podsOnce: true})
    const asked: boolean[] = []
    for (const obj of readDocuments(await openSources([file]))) {
      n.add(obj)
      asked.push(n.podsRepeated)
    }
    expect(asked).toEqual([false, false, false, true])
  })

  it('reads a file whose pods repeat as kubectl apply leaves them: a copy is one pod, a later definition wins', async () => {
    const file = fixture('pods-repeat.yaml', [pod('a', 'one', 'n1'), pod('b', 'one', 'n1'), pod('b', 'one', 'n1'), pod('a', 'one', 'n2')].join('---\n'))
    const warnings: string[] = []
    const snap = await read([file], {onWarning: (w) => warnings.push(w)})
    expect(snap.pods.map((p) => `${p.name}@${p.nodeName}`)).toEqual(['b@n1', 'a@n2'])
    expect(warnings.join('\n')).toContain(`Pod one/a at ${file}:`)
  })
})

describe('label values checked a character at a time (isLabelValue)', () => {
  it('agrees with validation.IsValidLabelValue as labelValueProblem words it', () => {
    const alphabet = ['a', 'Z', '0', '9', '-', '_', '.', '/', ' ', 'é', '\n', ':']
    const samples = ['', 'a', '-', 'a-', '-a', 'a-b', 'a.b_c', 'A', '_', 'a'.repeat(63), 'a'.repeat(64), 'x\n', 'web-0']
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), {maxLength: 70}), (chars) => {
        const s = chars.join('')
        expect(isLabelValue(s)).toBe(labelValueProblem(s) === undefined)
      }),
      {numRuns: 2000},
    )
    for (const s of samples) expect(isLabelValue(s), s).toBe(labelValueProblem(s) === undefined)
  })

  it('reports a pod label value the API server would reject', async () => {
    const file = fixture('bad-label.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: a, labels: {app: "-web"}}\n')
    expect(await errorLine([file])).toContain('invalid label value "-web"')
  })
})
