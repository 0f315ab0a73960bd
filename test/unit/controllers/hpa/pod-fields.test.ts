// The pods' HPA fields (readHpaPodFields, PodView.autoscaling) are kept in files only in a world
// that may hold an HPA, wherever the HPA is in the input (before or after the pods, in a later
// file, on stdin), and always in a live cluster's lists (read page by page, pods before HPAs);
// they are checked on every pod all the same: a pod the API server would refuse is refused with or
// without an HPA beside it.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {UserError} from '../../../../src/errors.js'
import type {Snapshot} from '../../../../src/model/objects.js'
import {readFixtures, readFixtureSets} from '../../../../src/sources/fixtures.js'
import {normalizeParsed} from '../../../../src/sources/parsed.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-hpa-pod-fields-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

let n = 0
function file(text: string, name = `f${n++}.yaml`): string {
  const path = join(tmp, name)
  writeFileSync(path, text)
  return path
}

const POD = (name: string, spec = '  containers: [{name: main, resources: {requests: {cpu: 200m, memory: 128Mi}}}]') => `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: shop, labels: {app: web}}
spec:
${spec}
status:
  phase: Running
  startTime: "2026-11-20T08:00:10Z"
  conditions: [{type: Ready, status: "True", lastTransitionTime: "2026-11-20T08:00:40Z"}]
`
const HPA = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
`
const FIELDS = {
  containers: [{name: 'main', requests: {cpu: '200m', memory: '128Mi'}}],
  sidecars: [],
  startTime: '2026-11-20T08:00:10Z',
  readyCondition: {status: 'True', lastTransitionTime: '2026-11-20T08:00:40Z'},
}
const fieldsOf = (s: Snapshot) => s.pods.map((p) => p.autoscaling)

describe('pods without an HPA in the world carry no HPA fields', () => {
  it('from files', async () => {
    const s = await readFixtures({paths: [file(`${POD('a')}---\n${POD('b')}`)]})
    expect(s.pods).toHaveLength(2)
    expect(fieldsOf(s)).toEqual([undefined, undefined])
    expect(s.pods.every((p) => !('autoscaling' in p))).toBe(true)
  })

  it('from a live cluster\'s lists they are kept all the same: the pods are read page by page before the HPAs are listed', () => {
    const pod = {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'a', namespace: 'shop'}, spec: {containers: [{name: 'main'}]}}
    const whole = normalizeParsed('cluster:test', [structuredClone(pod)], {paths: [], serverDefaulted: true})
    const paged = normalizeParsed('cluster:test', [structuredClone(pod)], {paths: [], serverDefaulted: true}, () => [structuredClone(pod)])
    expect(fieldsOf(whole)).toEqual([{containers: [{name: 'main', requests: {}}], sidecars: []}])
    expect(fieldsOf(paged)).toEqual(fieldsOf(whole))
  })

  it('an HPA in another apply set is another world', async () => {
    const dir = join(tmp, `sets${n++}`)
    mkdirSync(join(dir, 'a'), {recursive: true})
    mkdirSync(join(dir, 'b'), {recursive: true})
    writeFileSync(join(dir, 'a', 'kustomization.yaml'), 'resources: [pods.yaml]\n')
    writeFileSync(join(dir, 'a', 'pods.yaml'), POD('a'))
    writeFileSync(join(dir, 'b', 'kustomization.yaml'), 'resources: [hpa.yaml]\n')
    writeFileSync(join(dir, 'b', 'hpa.yaml'), HPA)
    const sets = await readFixtureSets({paths: [dir], kustomizeRoots: 'read'})
    const pods = sets.flatMap((s) => s.snapshot.pods)
    expect(sets.some((s) => s.snapshot.hpas.length === 1)).toBe(true)
    expect(pods.map((p) => p.autoscaling)).toEqual([undefined])
  })
})

describe('pods get their HPA fields when an HPA is in the world, in any order', () => {
  it('the HPA before the pods, or after them in the same file', async () => {
    const before = await readFixtures({paths: [file(`${HPA}---\n${POD('a')}---\n${POD('b')}`)]})
    const after = await readFixtures({paths: [file(`${POD('a')}---\n${POD('b')}---\n${HPA}`)]})
    expect(fieldsOf(before)).toEqual([FIELDS, FIELDS])
    expect(fieldsOf(after)).toEqual([FIELDS, FIELDS])
  })

  it('the HPA in a later file, named with -f or found in a directory', async () => {
    const named = await readFixtures({paths: [file(POD('a')), file(HPA)]})
    expect(fieldsOf(named)).toEqual([FIELDS])
    const dir = join(tmp, `dir${n++}`)
    mkdirSync(dir)
    writeFileSync(join(dir, 'a-pods.yaml'), POD('a'))
    writeFileSync(join(dir, 'z-hpa.yaml'), HPA)
    expect(fieldsOf(await readFixtures({paths: [dir]}))).toEqual([FIELDS])
  })

  it('on stdin, after the pods; and a file of pods with the HPA on stdin', async () => {
    const stdin = await readFixtures({paths: ['-'], readStdin: async () => `${POD('a')}---\n${HPA}`})
    expect(fieldsOf(stdin)).toEqual([FIELDS])
    const mixed = await readFixtures({paths: [file(POD('a')), '-'], readStdin: async () => HPA})
    expect(fieldsOf(mixed)).toEqual([FIELDS])
  })

  it('in a live cluster\'s lists, the HPAs listed after the pods', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {name: 'a', namespace: 'shop'},
      spec: {containers: [{name: 'main', resources: {requests: {cpu: '200m', memory: '128Mi'}}}]},
      status: {phase: 'Running', startTime: '2026-11-20T08:00:10Z', conditions: [{type: 'Ready', status: 'True', lastTransitionTime: '2026-11-20T08:00:40Z'}]},
    }
    const hpa = {apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: {name: 'web', namespace: 'shop'}, spec: {scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'web'}, minReplicas: 1, maxReplicas: 5}}
    const s = normalizeParsed('cluster:test', [pod, hpa], {paths: [], serverDefaulted: true})
    expect(s.hpas).toHaveLength(1)
    expect(fieldsOf(s)).toEqual([FIELDS])
  })

  it('an HPA whose kind is spelt with escapes in the text: the input is read again for it', async () => {
    const pod = {apiVersion: 'v1', kind: 'Pod', metadata: {name: 'a', namespace: 'shop'}, spec: {containers: [{name: 'main', resources: {requests: {cpu: '200m', memory: '128Mi'}}}]}}
    const hpa = JSON.stringify({apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: {name: 'web', namespace: 'shop'}, spec: {scaleTargetRef: {apiVersion: 'apps/v1', kind: 'Deployment', name: 'web'}, maxReplicas: 5}})
    // A JSON stream: the pods' List, then the HPA, its kind written with a \u escape.
    const text = `${JSON.stringify({apiVersion: 'v1', kind: 'List', items: [pod]})}\n${hpa.replace('"HorizontalPodAutoscaler"', '"Horizontal\\u0050odAutoscaler"')}`
    expect(text).not.toContain('HorizontalPodAutoscaler')
    const s = await readFixtures({paths: [file(text, `escaped${n++}.json`)]})
    expect(s.hpas).toHaveLength(1)
    expect(fieldsOf(s)).toEqual([{containers: [{name: 'main', requests: {cpu: '200m', memory: '128Mi'}}], sidecars: []}])
  })
})

describe('the HPA fields are checked on every pod, with an HPA or without', () => {
  async function refusal(paths: string[]): Promise<string> {
    try {
      await readFixtures({paths})
    } catch (error) {
      if (error instanceof UserError) return error.line
      throw error
    }
    return 'read without a problem'
  }
  const cases: Array<[string, string]> = [
    ['a request that is not a quantity', '  containers: [{name: main, resources: {requests: {cpu: lots}}}]'],
    ['a numeric request (read as its quantity)', '  containers: [{name: main, resources: {requests: {cpu: 2}}}]'],
    ['requests that are not a mapping', '  containers: [{name: main, resources: {requests: [cpu]}}]'],
    ['containers that are not a list', '  containers: {name: main}'],
    ['a sidecar\'s bad request', '  initContainers: [{name: side, restartPolicy: Always, resources: {requests: {memory: "1 Gi"}}}]\n  containers: [{name: main}]'],
    ['a bad pod-level request', '  resources: {requests: {cpu: lots}}\n  containers: [{name: main}]'],
  ]
  for (const [what, spec] of cases) {
    it(what, async () => {
      const pods = file(POD('a', spec))
      const alone = await refusal([pods])
      expect(await refusal([pods, file(HPA)])).toBe(alone)
      if (!what.startsWith('a numeric')) expect(alone).toMatch(/spec/)
    })
  }
  it('a bad startTime', async () => {
    const pods = file(POD('a').replace('"2026-11-20T08:00:10Z"', 'yesterday'))
    const alone = await refusal([pods])
    expect(alone).toMatch(/startTime/)
    expect(await refusal([pods, file(HPA)])).toBe(alone)
  })
})
