// An HPA whose scaleTargetRef names a custom resource: its scale read through the
// CustomResourceDefinition's subresources.scale as the apiextensions-apiserver's
// scaleFromCustomResource reads it (files), or through its /scale (live, scaleForResourceMappings);
// written through /scale (reconcile --apply) at specReplicasPath; without the definition, the
// plan names what is missing and plans nothing.
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {ClusterPodControl, type ApiRequester} from '../../../../src/apply/cluster-control.js'
import {executePlan} from '../../../../src/apply/executor.js'
import {hpaAction, scaleObject} from '../../../../src/controllers/hpa/apply.js'
import {readLiveMetrics} from '../../../../src/controllers/hpa/live.js'
import type {ScaleTargetAction} from '../../../../src/controllers/hpa/model.js'
import {readScale, scaleTargets} from '../../../../src/controllers/hpa/planner.js'
import {CARRIED_OUT} from '../../../../src/controllers/registry.js'
import {DEFAULT_FEATURE_GATES, type ControllerPlan} from '../../../../src/model/plan.js'
import {planSnapshot} from '../../../../src/reconcile/planner.js'
import {fixtureWorld} from '../../../../src/services/reconcile.js'
import {readFixtures} from '../../../../src/sources/fixtures.js'
import type {LiveGet} from '../../../../src/sources/part.js'

const ROOT = join(import.meta.dirname, '../../../..')
const WORKER = readFileSync(join(ROOT, 'test/fixtures/hpa-custom/worker.yaml'), 'utf8')
const NOW = '2026-11-22T10:00:00Z'
const tmp = mkdtempSync(join(tmpdir(), 'kctl-hpa-custom-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))
let n = 0
const file = (text: string) => {
  const f = join(tmp, `f${n++}.yaml`)
  writeFileSync(f, text)
  return f
}
const withoutCrd = WORKER.slice(WORKER.indexOf('---\n') + 4)

async function hpaPlan(text: string): Promise<ControllerPlan> {
  const plan = planSnapshot(await readFixtures({paths: [file(text)]}), {now: NOW, featureGates: DEFAULT_FEATURE_GATES, burstReplicas: 500}, CARRIED_OUT)
  return plan.controllers.find((c) => c.kind === 'HorizontalPodAutoscaler')!
}

describe('scaleForResourceMappings of a custom resource, from files', () => {
  it('scaleFromCustomResource: replicas at specReplicasPath and statusReplicasPath, the selector at labelSelectorPath', async () => {
    const p = await hpaPlan(WORKER)
    expect(p.warnings ?? []).toEqual([])
    expect(p.actions[0]).toMatchObject({type: 'scaleTarget', target: {kind: 'Worker', apiVersion: 'example.com/v1', name: 'queue', resource: 'workers.example.com', specReplicasPath: '.spec.size'}, from: 3, to: 6})
    expect(p.hpa).toMatchObject({currentReplicas: 3, statusReplicas: 3})
  })

  it('absent fields read as 0 and no selector; a field of another type is the GET\'s error', async () => {
    const snapshot = await readFixtures({paths: [file(WORKER.replace('spec: {size: 3}', 'spec: {}').replace('status: {size: 3, selector: app=queue}', 'status: {}'))]})
    const {scale} = readScale(snapshot.hpas![0], scaleTargets(snapshot))
    expect(scale).toEqual({scale: {kind: 'Worker', apiVersion: 'example.com/v1', name: 'queue', specReplicas: 0, statusReplicas: 0, selector: ''}})
    const typed = await readFixtures({paths: [file(WORKER.replace('spec: {size: 3}', 'spec: {size: "3"}'))]})
    expect(readScale(typed.hpas![0], scaleTargets(typed)).scale).toEqual({error: '.spec.size accessor error: "3" is of the type string, expected int64'})
  })

  it('a definition without a scale subresource: the GET\'s 404; the resource missing: not found', async () => {
    const noScale = WORKER.replace(/\n {6}subresources:[\s\S]*?labelSelectorPath: \.status\.selector}/, '')
    const s1 = await readFixtures({paths: [file(noScale)]})
    expect(readScale(s1.hpas![0], scaleTargets(s1)).scale).toEqual({error: 'the server could not find the requested resource'})
    const s2 = await readFixtures({paths: [file(WORKER.replace('kind: Worker\nmetadata: {name: queue', 'kind: Worker\nmetadata: {name: other'))]})
    expect(readScale(s2.hpas![0], scaleTargets(s2))).toMatchObject({scale: {error: 'workers.example.com "queue" not found'}, notInInput: 'the scale target Worker/queue is not in the input'})
  })

  it('without the CustomResourceDefinition: one line names what is missing, and nothing is planned (never guessed)', async () => {
    const p = await hpaPlan(withoutCrd)
    expect(p.actions).toEqual([])
    expect(p.warnings).toContain(
      "the CustomResourceDefinition of Worker.example.com (the kind of Worker/queue, the scale target) is not in the input: kctl reads a custom resource's scale through its subresources.scale, and guesses none; nothing is planned",
    )
  })
})

describe('the write through /scale', () => {
  it('reconcile on files: specReplicasPath set, generation raised; the next plan writes no scale', async () => {
    const world = (await fixtureWorld({filename: [file(WORKER)]}, () => NOW)).memory
    const plan = planSnapshot(world.snapshot(), {now: NOW, featureGates: DEFAULT_FEATURE_GATES, burstReplicas: 500}, CARRIED_OUT)
    const exec = await executePlan(plan, {control: world.control(false), now: () => NOW})
    expect(exec.results.map((r) => `${r.action} ${r.outcome}`)).toEqual(['scaleTarget ok', 'updateHpaStatus ok'])
    const cr = world.findObject('example.com', 'Worker', 'jobs', 'queue')!.object as Record<string, any>
    expect(cr.spec).toEqual({size: 6})
    expect(cr.metadata.generation).toBe(2)
    const next = planSnapshot(world.snapshot(), {now: NOW, featureGates: DEFAULT_FEATURE_GATES, burstReplicas: 500}, CARRIED_OUT).controllers.find((c) => c.kind === 'HorizontalPodAutoscaler')!
    expect(next.actions.map((a) => a.type)).not.toContain('scaleTarget')
  })

  it('against a cluster: PUT of the resource\'s /scale in the group and version read; a saved plan keeps the resource', async () => {
    const sent: string[] = []
    const api: ApiRequester = {
      async request<T>(path: string, opts: Parameters<ApiRequester['request']>[1]): Promise<T> {
        sent.push(`${opts.method} ${path}`)
        return {metadata: {resourceVersion: '9'}} as T
      },
    }
    const a: ScaleTargetAction = {type: 'scaleTarget', target: {kind: 'Worker', apiVersion: 'example.com/v1', name: 'queue', resource: 'workers.example.com', specReplicasPath: '.spec.size'}, uid: 'u', resourceVersion: '4', from: 3, to: 6, reason: ''}
    await new ClusterPodControl(api, false).updateScale({kind: 'Worker' as never, apiVersion: 'example.com/v1', namespace: 'jobs', name: 'queue', customScale: {resource: 'workers.example.com'}}, scaleObject(a, 'jobs'))
    expect(sent).toEqual(['PUT /apis/example.com/v1/namespaces/jobs/workers/queue/scale'])
    const fail = (at: string, msg: string) => new Error(`${at}: ${msg}`)
    expect(hpaAction(JSON.parse(JSON.stringify(a)), 'a', fail)).toMatchObject({target: {resource: 'workers.example.com'}})
    expect(() => hpaAction({...a, target: {kind: 'Worker', apiVersion: 'example.com/v1', name: 'queue'}}, 'a', fail)).toThrow(/a\.target\.kind: expected Deployment, .*or a custom resource with target\.resource, got Worker/)
  })
})

describe('a custom resource\'s scale read live (scaleForResourceMappings)', () => {
  it('the group\'s versions in discovery order, the kind\'s resource, the first /scale that answers; its selector picks the pods the metrics are for', async () => {
    const snapshot = await readFixtures({paths: [file(withoutCrd)]})
    const asked: string[] = []
    const get: LiveGet = async (path) => {
      asked.push(path)
      if (path === '/apis/example.com') return {ok: true, body: {versions: [{version: 'v2'}, {version: 'v1'}]}}
      if (path === '/apis/example.com/v2') return {ok: true, body: {resources: [{name: 'workers', kind: 'Worker'}, {name: 'workers/scale', kind: 'Scale'}]}}
      if (path === '/apis/example.com/v2/namespaces/jobs/workers/queue/scale') return {ok: false, code: 404, message: 'the server could not find the requested resource'}
      if (path === '/apis/example.com/v1') return {ok: true, body: {resources: [{name: 'workers', kind: 'Worker'}]}}
      if (path === '/apis/example.com/v1/namespaces/jobs/workers/queue/scale') {
        return {ok: true, body: {kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: {uid: 'u1', resourceVersion: '77'}, spec: {replicas: 4}, status: {replicas: 4, selector: 'app=queue'}}}
      }
      return {ok: true, body: {items: [{metricName: 'backlog', value: '80'}]}}
    }
    const live = await readLiveMetrics(get, snapshot)
    expect(live.customScales).toEqual([
      {namespace: 'jobs', group: 'example.com', kind: 'Worker', name: 'queue', apiVersion: 'example.com/v1', resource: 'workers.example.com', uid: 'u1', resourceVersion: '77', specReplicas: 4, statusReplicas: 4, selector: 'app=queue'},
    ])
    expect(asked).toContain('/apis/external.metrics.k8s.io/v1beta1/namespaces/jobs/backlog')
    const {scale, target} = readScale(snapshot.hpas![0], scaleTargets({...snapshot, ...live}))
    expect(scale).toEqual({scale: {kind: 'Worker', apiVersion: 'example.com/v1', name: 'queue', specReplicas: 4, statusReplicas: 4, selector: 'app=queue'}})
    expect(target).toMatchObject({uid: 'u1', resourceVersion: '77', custom: {resource: 'workers.example.com'}})
  })
})
