// StatefulSets and DaemonSets read from a real kube-apiserver: the live plan is the plan of the
// same objects exported to a file, and the names kctl gives the ControllerRevisions it says the
// controllers create — the StatefulSet's hash of the stored template JSON, the DaemonSet's hash
// of the Go template — are the names kube-controller-manager's statefulset and daemonset
// controllers then give them, with the pods and claims planned for their first sync.
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {kctl, planJson} from './kctl.js'
import {api, apiOk, controllerManager, deleteNamespace, grantRestricted, makeNode, newNamespace, waitUntil} from './setup/cluster.js'

type Json = Record<string, any>

const NOW = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z')

/** Templates that exercise the API server's defaulting (probes, ports, env, resources, volumes). */
const TEMPLATES: Json[] = [
  {containers: [{name: 'c', image: 'registry.invalid/web:1'}]},
  {
    containers: [
      {
        name: 'app',
        image: 'registry.invalid/app:latest',
        ports: [{containerPort: 8080, name: 'http'}],
        env: [{name: 'MODE', value: 'a<b&c>'}, {name: 'NODE', valueFrom: {fieldRef: {fieldPath: 'spec.nodeName'}}}],
        readinessProbe: {httpGet: {port: 'http'}},
        resources: {requests: {cpu: '0.5', memory: '1024Mi'}, limits: {memory: '1Gi'}},
        volumeMounts: [{name: 'data', mountPath: '/data'}, {name: 'cfg', mountPath: '/etc/cfg'}],
      },
    ],
    volumes: [{name: 'cfg', configMap: {name: 'cfg'}}],
    tolerations: [{key: 'k', operator: 'Exists'}],
  },
]

describe('StatefulSets and DaemonSets against a live cluster', () => {
  let ns: string
  const nodes: string[] = []
  let live: Json

  beforeAll(async () => {
    await controllerManager.stop()
    ns = await newNamespace('wl')
    // Nodes only this DaemonSet selects; the API server taints new nodes not-ready, which nothing
    // here removes, so the taints are set by hand (one node keeps a NoSchedule taint).
    for (const [suffix, taints] of [['a', []], ['b', []], ['c', [{key: 'dedicated', value: 'db', effect: 'NoSchedule'}]]] as const) {
      const name = `${ns}-${suffix}`
      await makeNode(name, {labels: {[`kctl-${ns}`]: 'yes'}})
      await apiOk('PATCH', `/api/v1/nodes/${name}`, {contentType: 'application/merge-patch+json', body: {spec: {taints}}})
      nodes.push(name)
    }
    const labels = (app: string) => ({matchLabels: {app}})
    for (const [i, spec] of TEMPLATES.entries()) {
      await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/statefulsets`, {
        body: {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          metadata: {name: `web${i}`, annotations: {note: 'x'}},
          spec: {
            replicas: 2,
            serviceName: `web${i}`,
            selector: labels(`web${i}`),
            template: {metadata: {labels: {app: `web${i}`}}, spec},
            ...(i === 1
              ? {
                  podManagementPolicy: 'Parallel',
                  ordinals: {start: 5},
                  volumeClaimTemplates: [{metadata: {name: 'data'}, spec: {accessModes: ['ReadWriteOnce'], resources: {requests: {storage: '1Gi'}}}}],
                  persistentVolumeClaimRetentionPolicy: {whenDeleted: 'Delete', whenScaled: 'Delete'},
                }
              : {}),
          },
        },
      })
      await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/daemonsets`, {
        body: {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          metadata: {name: `agent${i}`},
          spec: {
            selector: labels(`agent${i}`),
            // The claim the StatefulSet mounts is an emptyDir here.
            template: {metadata: {labels: {app: `agent${i}`}}, spec: {...spec, volumes: [...(spec.volumes ?? []), ...(i === 1 ? [{name: 'data', emptyDir: {}}] : [])], nodeSelector: {[`kctl-${ns}`]: 'yes'}}},
          },
        },
      })
    }
  })

  afterAll(async () => {
    await controllerManager.stop()
    const background = {body: {kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background'}}
    for (const plural of ['statefulsets', 'daemonsets', 'controllerrevisions']) await api('DELETE', `/apis/apps/v1/namespaces/${ns}/${plural}`, background).catch(() => {})
    await api('DELETE', `/api/v1/namespaces/${ns}/persistentvolumeclaims`).catch(() => {})
    for (const n of nodes) await api('DELETE', `/api/v1/nodes/${n}`).catch(() => {})
    await deleteNamespace(ns).catch(() => {})
  })

  it('plans the same from the cluster as from an export of the same objects', async () => {
    const at = NOW()
    live = await planJson(['-n', ns, '--now', at])
    const items: Json[] = []
    const list = async (path: string, apiVersion: string, kind: string) => {
      for (const item of (await apiOk('GET', path)).items) items.push({apiVersion, kind, ...item})
    }
    await list(`/apis/apps/v1/namespaces/${ns}/statefulsets`, 'apps/v1', 'StatefulSet')
    await list(`/apis/apps/v1/namespaces/${ns}/daemonsets`, 'apps/v1', 'DaemonSet')
    await list(`/apis/apps/v1/namespaces/${ns}/controllerrevisions`, 'apps/v1', 'ControllerRevision')
    await list(`/api/v1/namespaces/${ns}/persistentvolumeclaims`, 'v1', 'PersistentVolumeClaim')
    await list(`/api/v1/namespaces/${ns}/pods`, 'v1', 'Pod')
    await list('/api/v1/nodes', 'v1', 'Node')
    const file = join(mkdtempSync(join(tmpdir(), 'kctl-wl-')), 'export.json')
    writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
    const fromFile = await planJson(['-f', file, '-n', ns, '--now', at])
    expect(fromFile.controllers).toEqual(live.controllers)
    expect(live.controllers.map((c: Json) => `${c.kind}/${c.name}`)).toEqual(['DaemonSet/agent0', 'DaemonSet/agent1', 'StatefulSet/web0', 'StatefulSet/web1'])
    for (const c of live.controllers) expect(c.updateRevision.name, `${c.name}: the revision name is known`).not.toBeNull()
  })

  it("names the revisions, pods and claims as the real controllers' first sync creates them", async () => {
    expect(live, 'the planning test ran first').toBeDefined()
    await controllerManager.start(['statefulset', 'daemonset'])
    for (const c of live.controllers) {
      const revisions = await waitUntil(
        async () => {
          const l = await apiOk('GET', `/apis/apps/v1/namespaces/${ns}/controllerrevisions`)
          const mine = l.items.filter((r: Json) => r.metadata.ownerReferences?.[0]?.uid === c.uid)
          return mine.length > 0 ? mine : undefined
        },
        {what: `a ControllerRevision of ${c.kind} ${c.name}`},
      )
      expect(revisions.map((r: Json) => r.metadata.name), `${c.kind} ${c.name}`).toEqual([c.updateRevision.name])
      const created = c.actions.find((a: Json) => a.type === 'createControllerRevision')
      expect(revisions[0].revision).toBe(created.revision)
    }
    // Each StatefulSet's planned pods and claims exist; each DaemonSet's pods are on the planned nodes.
    for (const c of live.controllers) {
      const pods = await waitUntil(
        async () => {
          const l = await apiOk('GET', `/api/v1/namespaces/${ns}/pods`)
          const mine = l.items.filter((p: Json) => p.metadata.ownerReferences?.[0]?.uid === c.uid)
          const want = c.actions.filter((a: Json) => a.type === 'createStatefulPod' || a.type === 'createDaemonPod').length
          return mine.length >= want ? mine : undefined
        },
        {what: `the pods of ${c.kind} ${c.name}`},
      )
      if (c.kind === 'StatefulSet') {
        for (const a of c.actions.filter((x: Json) => x.type === 'createStatefulPod')) {
          const p = pods.find((x: Json) => x.metadata.name === a.pod)
          expect(p, a.pod).toBeDefined()
          expect(p.metadata.labels).toEqual(a.labels)
          expect(p.spec.hostname).toBe(a.hostname)
          expect(p.spec.subdomain).toBe(a.subdomain)
        }
        const claims = (await apiOk('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims`)).items
        for (const a of c.actions.filter((x: Json) => x.type === 'createClaim')) {
          expect(claims.find((x: Json) => x.metadata.name === a.claim)?.metadata.labels, a.claim).toEqual(a.labels)
        }
      } else {
        const planned = c.actions.filter((a: Json) => a.type === 'createDaemonPod')
        const target = (p: Json) => p.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]
        expect(pods.map(target).sort()).toEqual(planned.map((a: Json) => a.node).sort())
        for (const a of planned) {
          const p = pods.find((x: Json) => target(x) === a.node)
          expect(p.metadata.labels, a.node).toEqual(a.labels)
          expect(p.spec.affinity).toEqual(a.affinity)
          expect(p.spec.tolerations).toEqual(a.tolerations)
        }
      }
    }
  }, 120_000)

  it('an identity that may not list the new kinds gets one note, and the rest is still planned', async () => {
    await grantRestricted(ns, 'replicasets-only', [
      {apiGroups: ['apps'], resources: ['replicasets', 'deployments'], verbs: ['list']},
      {apiGroups: [''], resources: ['pods', 'replicationcontrollers'], verbs: ['list']},
    ])
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/replicasets`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {name: 'rs'},
        spec: {replicas: 0, selector: {matchLabels: {app: 'rs'}}, template: {metadata: {labels: {app: 'rs'}}, spec: {containers: [{name: 'c', image: 'registry.invalid/rs:1'}]}}},
      },
    })
    // The authorizer sees the new binding within moments.
    const r = await waitUntil(async () => {
      const x = await kctl(['plan', '-n', ns, '--now', NOW(), '-o', 'json'], {as: 'restricted'})
      return x.code === 0 ? x : undefined
    }, {what: 'kctl plan as the restricted user to succeed'})
    expect(JSON.parse(r.stdout).controllers.map((c: Json) => `${c.kind}/${c.name}`)).toEqual(['ReplicaSet/rs'])
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/statefulsets, daemonsets, controllerrevisions, persistentvolumeclaims, jobs, cronjobs, services, endpointslices, endpoints, horizontalpodautoscalers and nodes are left out: .*forbidden \(403\)/)
  })
})
