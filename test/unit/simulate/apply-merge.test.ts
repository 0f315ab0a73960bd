// kubectl apply's client-side merge (src/simulate/apply-merge.ts), rule by rule. The expected
// patches and objects are what kubectl and the API server produce for the same three inputs
// (strategicpatch.CreateThreeWayMergePatch, then StrategicMergeMapPatch).
import {describe, expect, it} from 'vitest'

import {goJson, kubectlApply, LAST_APPLIED, lastApplied, MergeError, patchStrategy, storedUpdate, strategicMergePatch, threeWayMergePatch, withLastApplied} from '../../../src/simulate/apply-merge.js'

type Json = Record<string, any>

const DEPLOYMENT = patchStrategy('Deployment')

/** A Deployment manifest with one container `c`, changed by `edit`. */
function manifest(edit: (d: Json) => void = () => {}): Json {
  const d: Json = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web', namespace: 'ns'},
    spec: {
      replicas: 3,
      selector: {matchLabels: {app: 'web'}},
      template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'c', image: 'web:v1'}]}},
    },
  }
  edit(d)
  return d
}

/** The object as stored after `kubectl apply` of `m` created it, then `others` changed it. */
function live(m: Json, others: (d: Json) => void = () => {}): Json {
  const d = structuredClone(kubectlApply(m, undefined, 'ns').object)
  d.metadata.uid = 'u1'
  d.status = {replicas: 3}
  others(d)
  return d
}

const containers = (d: Json) => d.spec.template.spec.containers
const apply = (next: Json, current: Json) => kubectlApply(next, current, 'ns')

describe('the last-applied annotation', () => {
  it('is the manifest without it, keys sorted, HTML characters escaped, a newline at the end; a manifest without annotations records {}', () => {
    const m = manifest((d) => (d.spec.template.spec.containers[0].args = ['a<b&c>']))
    const text = withLastApplied(m, 'ns').metadata.annotations[LAST_APPLIED]
    expect(text.endsWith('}\n')).toBe(true)
    expect(text).toContain('"metadata":{"annotations":{},"name":"web","namespace":"ns"}')
    expect(text).toContain('"args":["a\\u003cb\\u0026c\\u003e"]')
    expect(text.indexOf('"apiVersion"')).toBeLessThan(text.indexOf('"kind"'))
    expect(JSON.parse(text)).toEqual({...m, metadata: {...m.metadata, annotations: {}}})
  })

  it('fills in the namespace the manifest leaves out', () => {
    const m = manifest((d) => delete d.metadata.namespace)
    expect(JSON.parse(withLastApplied(m, 'other').metadata.annotations[LAST_APPLIED]).metadata.namespace).toBe('other')
  })

  it('never records itself: the previous annotation in a manifest is dropped', () => {
    const m = manifest((d) => (d.metadata.annotations = {[LAST_APPLIED]: '{"old":1}', team: 'a'}))
    expect(JSON.parse(withLastApplied(m, 'ns').metadata.annotations[LAST_APPLIED]).metadata.annotations).toEqual({team: 'a'})
  })

  it('goJson writes numbers, booleans and null as Go does', () => {
    expect(goJson({b: [1, 2.5, true, null], a: 'x'})).toBe('{"a":"x","b":[1,2.5,true,null]}\n')
  })

  it('a live object with an annotation that is not JSON is refused', () => {
    const current = live(manifest(), (d) => (d.metadata.annotations[LAST_APPLIED] = 'not json'))
    expect(() => lastApplied(current)).toThrow(MergeError)
  })
})

describe('kubectl apply onto an object created by kubectl apply (three-way)', () => {
  it('a new image: only the image changes; fields the server or others set stay', () => {
    const current = live(manifest(), (d) => (containers(d)[0].terminationMessagePath = '/dev/termination-log'))
    const r = apply(manifest((d) => (containers(d)[0].image = 'web:v2')), current)
    expect(r.threeWay).toBe(true)
    expect(containers(r.object)).toEqual([{name: 'c', image: 'web:v2', terminationMessagePath: '/dev/termination-log'}])
    expect(r.patch?.spec.template.spec).toEqual({
      ['$setElementOrder/containers']: [{name: 'c'}],
      containers: [{name: 'c', image: 'web:v2'}],
    })
  })

  it('replicas left out of the new manifest are removed: the server then defaults them (last-applied had them)', () => {
    const r = apply(manifest((d) => delete d.spec.replicas), live(manifest()))
    expect(r.patch?.spec.replicas).toBeNull()
    expect(r.object.spec.replicas).toBeUndefined()
  })

  it('replicas never in a manifest, set by a scale, stay', () => {
    const first = manifest((d) => delete d.spec.replicas)
    const r = apply(manifest((d) => delete d.spec.replicas), live(first, (d) => (d.spec.replicas = 7)))
    expect(r.object.spec.replicas).toBe(7)
  })

  it('an env var removed since the last apply goes; one others added stays; the manifest order among its own', () => {
    const before = manifest((d) => (containers(d)[0].env = [{name: 'A', value: '1'}, {name: 'B', value: '2'}]))
    const current = live(before, (d) => containers(d)[0].env.push({name: 'X', value: 'others'}))
    const r = apply(manifest((d) => (containers(d)[0].env = [{name: 'C', value: '3'}, {name: 'A', value: '1'}])), current)
    // The server deletes B in place, which moves X ahead of the manifest's items (as upstream does).
    expect(containers(r.object)[0].env).toEqual([
      {name: 'X', value: 'others'},
      {name: 'C', value: '3'},
      {name: 'A', value: '1'},
    ])
    expect(containers(r.patch!)[0].env).toContainEqual({$patch: 'delete', name: 'B'})
  })

  it('a container added is merged in by name; the sidecar others injected stays', () => {
    const current = live(manifest(), (d) => containers(d).push({name: 'sidecar', image: 'proxy:1'}))
    const r = apply(manifest((d) => containers(d).push({name: 'd', image: 'worker:1'})), current)
    expect(containers(r.object).map((c: Json) => c.name)).toEqual(['c', 'd', 'sidecar'])
  })

  it('a container removed since the last apply goes; a sidecar before it keeps its place (the server deletes in place)', () => {
    const before = manifest((d) => containers(d).push({name: 'd', image: 'worker:1'}))
    const current = live(before, (d) => containers(d).push({name: 'sidecar', image: 'proxy:1'}))
    const r = apply(manifest((d) => (containers(d)[0] = {name: 'e', image: 'new:1'})), current)
    // The list as the server keeps it after a deletion: upstream's in-place delete leaves the
    // server-only sidecar first (checked against k8s.io/apimachinery's code).
    expect(containers(r.object).map((c: Json) => c.name)).toEqual(['sidecar', 'e'])
  })

  it('ports merge by containerPort, volumeMounts by mountPath', () => {
    const before = manifest((d) => {
      containers(d)[0].ports = [{containerPort: 80, name: 'http'}]
      containers(d)[0].volumeMounts = [{mountPath: '/a', name: 'va'}]
    })
    const current = live(before, (d) => {
      containers(d)[0].ports[0].protocol = 'TCP'
      containers(d)[0].volumeMounts[0].readOnly = true
    })
    const r = apply(
      manifest((d) => {
        containers(d)[0].ports = [{containerPort: 80, name: 'web'}, {containerPort: 9090}]
        containers(d)[0].volumeMounts = [{mountPath: '/b', name: 'vb'}]
      }),
      current,
    )
    expect(containers(r.object)[0].ports).toEqual([{containerPort: 80, name: 'web', protocol: 'TCP'}, {containerPort: 9090}])
    expect(containers(r.object)[0].volumeMounts).toEqual([{mountPath: '/b', name: 'vb'}])
  })

  it('lists without a merge key (args, tolerations) are replaced whole', () => {
    const before = manifest((d) => {
      containers(d)[0].args = ['--a', '--b']
      d.spec.template.spec.tolerations = [{key: 'k1', operator: 'Exists'}]
    })
    const current = live(before, (d) => d.spec.template.spec.tolerations.push({key: 'others', operator: 'Exists'}))
    const r = apply(
      manifest((d) => {
        containers(d)[0].args = ['--b']
        d.spec.template.spec.tolerations = [{key: 'k2', operator: 'Exists'}]
      }),
      current,
    )
    expect(containers(r.object)[0].args).toEqual(['--b'])
    expect(r.object.spec.template.spec.tolerations).toEqual([{key: 'k2', operator: 'Exists'}])
  })

  it('a label removed since the last apply goes; a label others set stays', () => {
    const before = manifest((d) => (d.metadata.labels = {team: 'a', tier: 'web'}))
    const current = live(before, (d) => (d.metadata.labels.owner = 'others'))
    const r = apply(manifest((d) => (d.metadata.labels = {team: 'a'})), current)
    expect(r.object.metadata.labels).toEqual({team: 'a', owner: 'others'})
    expect(r.object.metadata.uid).toBe('u1')
  })

  it('a map the manifest changes merges key by key (resources.limits)', () => {
    const before = manifest((d) => (containers(d)[0].resources = {limits: {cpu: '1', memory: '1Gi'}}))
    const r = apply(manifest((d) => (containers(d)[0].resources = {limits: {cpu: '2'}})), live(before))
    expect(containers(r.object)[0].resources).toEqual({limits: {cpu: '2'}})
  })

  it('switching the strategy to Recreate clears rollingUpdate the server had defaulted ($retainKeys)', () => {
    const current = live(manifest(), (d) => (d.spec.strategy = {type: 'RollingUpdate', rollingUpdate: {maxSurge: '25%', maxUnavailable: '25%'}}))
    const r = apply(manifest((d) => (d.spec.strategy = {type: 'Recreate'})), current)
    expect(r.patch?.spec.strategy).toEqual({$retainKeys: ['type'], type: 'Recreate'})
    expect(r.object.spec.strategy).toEqual({type: 'Recreate'})
  })

  it('a volume changing its source loses the old one ($retainKeys on each volume)', () => {
    const before = manifest((d) => (d.spec.template.spec.volumes = [{name: 'v', emptyDir: {}}]))
    const r = apply(manifest((d) => (d.spec.template.spec.volumes = [{name: 'v', configMap: {name: 'cm'}}])), live(before))
    expect(r.object.spec.template.spec.volumes).toEqual([{name: 'v', configMap: {name: 'cm'}}])
  })

  it('finalizers (a merge list of scalars) lose the ones the manifest dropped, keep the ones others added', () => {
    const before = manifest((d) => (d.metadata.finalizers = ['a/one', 'a/two']))
    const current = live(before, (d) => d.metadata.finalizers.push('b/others'))
    const r = apply(manifest((d) => (d.metadata.finalizers = ['a/two'])), current)
    expect(r.patch?.metadata['$deleteFromPrimitiveList/finalizers']).toEqual(['a/one'])
    expect(r.object.metadata.finalizers).toEqual(['a/two', 'b/others'])
  })

  it('the annotation is rewritten to the new manifest', () => {
    const next = manifest((d) => (containers(d)[0].image = 'web:v2'))
    const r = apply(next, live(manifest()))
    expect(lastApplied(r.object)).toEqual({...next, metadata: {...next.metadata, annotations: {}}})
  })

  it('the same manifest again: an empty patch, the object as it was', () => {
    const current = live(manifest())
    const r = apply(manifest(), current)
    expect(r.patch).toEqual({})
    expect(r.object).toEqual(current)
  })
})

describe('kubectl apply onto an object without the annotation (two-way)', () => {
  it('adds and changes what the manifest says and removes nothing', () => {
    const current = structuredClone(manifest((d) => (d.metadata.labels = {old: 'x'})))
    containers(current)[0].env = [{name: 'KEEP', value: '1'}]
    const r = apply(manifest((d) => (d.metadata.labels = {team: 'a'})), current)
    expect(r.threeWay).toBe(false)
    expect(r.object.metadata.labels).toEqual({old: 'x', team: 'a'})
    expect(containers(r.object)[0].env).toEqual([{name: 'KEEP', value: '1'}])
    expect(lastApplied(r.object)?.metadata.labels).toEqual({team: 'a'})
  })
})

describe('a new object', () => {
  it('is the manifest with the annotation, no patch', () => {
    const r = kubectlApply(manifest(), undefined, 'ns')
    expect(r.patch).toBeUndefined()
    expect(r.object.spec).toEqual(manifest().spec)
    expect(lastApplied(r.object)?.spec).toEqual(manifest().spec)
  })
})

describe('the patch halves, as the API server and kubectl use them', () => {
  it('null in a patch removes the field; $patch: delete removes a list item; $setElementOrder orders', () => {
    const object = {spec: {paused: true, template: {spec: {containers: [{name: 'a'}, {name: 'b'}, {name: 'c'}]}}}}
    const patch = {spec: {paused: null, template: {spec: {'$setElementOrder/containers': [{name: 'c'}, {name: 'a'}], containers: [{name: 'b', $patch: 'delete'}]}}}}
    expect(strategicMergePatch(object, patch, DEPLOYMENT)).toEqual({spec: {template: {spec: {containers: [{name: 'c'}, {name: 'a'}]}}}})
  })

  it('$patch: replace on a list replaces it', () => {
    const object = {spec: {template: {spec: {containers: [{name: 'a', image: '1'}, {name: 'b'}]}}}}
    const patch = {spec: {template: {spec: {containers: [{name: 'z'}, {$patch: 'replace'}]}}}}
    expect(strategicMergePatch(object, patch, DEPLOYMENT).spec.template.spec.containers).toEqual([{name: 'z'}])
  })

  it('a list item without its merge key is refused with where it is', () => {
    const current = live(manifest())
    const bad = manifest((d) => containers(d).push({image: 'no-name'}))
    try {
      threeWayMergePatch(lastApplied(current), withLastApplied(bad, 'ns'), current, DEPLOYMENT)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(MergeError)
      expect((e as MergeError).path).toEqual(['spec', 'template', 'spec', 'containers', 1])
      expect((e as MergeError).inManifest).toBe(true)
    }
  })
})

describe('the update as the API server stores it', () => {
  const stored = (d: Json) => ({...d, metadata: {...d.metadata, uid: 'u1', resourceVersion: '7', generation: 4, creationTimestamp: '2026-11-22T09:00:00Z'}, status: {replicas: 3}})

  it('a spec change raises the generation; status and the server metadata stay whatever the manifest says', () => {
    const live = stored(manifest())
    const merged: Json = {...manifest((d) => (containers(d)[0].image = 'web:v2')), status: {replicas: 99}}
    merged.metadata = {...merged.metadata, uid: 'other', generation: 1}
    const r = storedUpdate(live, merged)
    expect(r).toMatchObject({changed: true, specChanged: true})
    expect(r.object.metadata).toMatchObject({uid: 'u1', resourceVersion: '7', generation: 5})
    expect(r.object.status).toEqual({replicas: 3})
  })

  it("a Deployment's annotations changing raise its generation; a ReplicaSet's do not", () => {
    const annotated = (d: Json) => (d.metadata.annotations = {team: 'a'})
    expect(storedUpdate(stored(manifest()), manifest(annotated)).object.metadata.generation).toBe(5)
    const rs = (edit: (d: Json) => void = () => {}) => manifest((d) => {
      d.kind = 'ReplicaSet'
      edit(d)
    })
    const r = storedUpdate(stored(rs()), rs(annotated))
    expect(r).toMatchObject({changed: true, specChanged: false})
    expect(r.object.metadata.generation).toBe(4)
  })

  it('nothing changed: nothing to write', () => {
    const live = stored(manifest())
    expect(storedUpdate(live, manifest()).changed).toBe(false)
  })
})

describe('inputs', () => {
  it('are never changed, not even by a $patch inside a new container', () => {
    const next = manifest((d) => {
      containers(d)[0].env = [{name: 'A', value: '1'}]
      containers(d).push({name: 'd', image: 'd:1', resources: {$patch: 'replace', limits: {cpu: '1'}}})
    })
    const current = manifest((d) => (containers(d)[0].env = [{name: 'B', value: '2'}]))
    const [nextCopy, currentCopy] = [structuredClone(next), structuredClone(current)]
    apply(next, current)
    expect(next).toEqual(nextCopy)
    expect(current).toEqual(currentCopy)
  })
})

describe('every kind kctl simulates merges its pod template by key', () => {
  // A sidecar someone added by hand survives an image change, for each kind with a pod template.
  const template = {metadata: {labels: {app: 'w'}}, spec: {containers: [{name: 'c', image: 'w:v1'}]}}
  const kinds: Array<[string, string, Json, (o: Json) => Json]> = [
    ['StatefulSet', 'apps/v1', {serviceName: 'w', selector: {matchLabels: {app: 'w'}}, template}, (o) => o.spec.template],
    ['DaemonSet', 'apps/v1', {selector: {matchLabels: {app: 'w'}}, template}, (o) => o.spec.template],
    ['Job', 'batch/v1', {template}, (o) => o.spec.template],
    ['CronJob', 'batch/v1', {schedule: '* * * * *', jobTemplate: {spec: {template}}}, (o) => o.spec.jobTemplate.spec.template],
  ]
  it.each(kinds)('%s', (kind, apiVersion, spec, templateOf) => {
    const m = {apiVersion, kind, metadata: {name: 'w', namespace: 'ns'}, spec: structuredClone(spec)}
    const current = structuredClone(kubectlApply(m, undefined, 'ns').object)
    templateOf(current).spec.containers.push({name: 'sidecar', image: 'proxy:1'})
    const next = structuredClone(m)
    templateOf(next).spec.containers[0].image = 'w:v2'
    expect(templateOf(kubectlApply(next, current, 'ns').object).spec.containers).toEqual([
      {name: 'c', image: 'w:v2'},
      {name: 'sidecar', image: 'proxy:1'},
    ])
  })
})
