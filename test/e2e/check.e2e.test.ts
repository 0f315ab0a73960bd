// `kctl check --against-cluster` against the real kube-apiserver: selectors compared with the live
// objects, and what kctl says the API server would do checked against what it does (a server-side
// dry-run of the same change).
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {kctl, kubeconfigFor} from './kctl.js'
import {api, apiOk, controlPlane, deleteNamespace, newNamespace} from './setup/cluster.js'

const container = {containers: [{name: 'c', image: 'registry.invalid/app:1'}]}

function deployment(name: string, selector: object, labels: Record<string, string>) {
  return {apiVersion: 'apps/v1', kind: 'Deployment', metadata: {name}, spec: {replicas: 0, selector, template: {metadata: {labels}, spec: container}}}
}

describe('kctl check --against-cluster', () => {
  let ns: string
  let dir: string

  beforeAll(async () => {
    ns = await newNamespace('check')
    dir = mkdtempSync(join(tmpdir(), 'kctl-check-e2e-'))
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {body: deployment('web', {matchLabels: {app: 'web'}}, {app: 'web'})})
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {body: deployment('agent', {matchLabels: {app: 'agent'}}, {app: 'agent'})})
    await apiOk('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {body: deployment('same', {matchLabels: {app: 'same', tier: 'a'}}, {app: 'same', tier: 'a'})})
    await apiOk('POST', `/api/v1/namespaces/${ns}/replicationcontrollers`, {
      body: {apiVersion: 'v1', kind: 'ReplicationController', metadata: {name: 'legacy'}, spec: {replicas: 0, selector: {app: 'legacy'}, template: {metadata: {labels: {app: 'legacy'}}, spec: container}}},
    })
    await apiOk('POST', `/apis/batch/v1/namespaces/${ns}/jobs`, {
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {name: 'migrate'},
        spec: {suspend: true, manualSelector: true, selector: {matchLabels: {job: 'migrate'}}, template: {metadata: {labels: {job: 'migrate'}}, spec: {...container, restartPolicy: 'Never'}}},
      },
    })
  })

  afterAll(async () => {
    for (const path of [`/apis/apps/v1/namespaces/${ns}/deployments`, `/apis/batch/v1/namespaces/${ns}/jobs`]) {
      await api('DELETE', path, {body: {kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background'}}).catch(() => {})
    }
    await deleteNamespace(ns).catch(() => {})
  })

  /** The manifests a user is about to apply: namespace from -n (they name none). */
  function manifests(): string {
    const file = join(dir, 'app.yaml')
    writeFileSync(
      file,
      `# A label added to the selector.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web, tier: frontend}
  template:
    metadata: {labels: {app: web, tier: frontend}}
    spec: {containers: [{name: c, image: registry.invalid/app:2}]}
---
# The same pods, said with matchExpressions.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: agent
spec:
  selector:
    matchExpressions: [{key: app, operator: In, values: [agent]}]
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: c, image: registry.invalid/app:2}]}
---
# Unchanged (written in another order).
apiVersion: apps/v1
kind: Deployment
metadata:
  name: same
spec:
  selector:
    matchLabels: {tier: a, app: same}
  template:
    metadata: {labels: {app: same, tier: a, version: "2"}}
    spec: {containers: [{name: c, image: registry.invalid/app:2}]}
---
apiVersion: v1
kind: ReplicationController
metadata:
  name: legacy
spec:
  selector: {app: legacy, version: v2}
  template:
    metadata: {labels: {app: legacy, version: v2}}
    spec: {containers: [{name: c, image: registry.invalid/app:2}]}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  manualSelector: true
  selector: {matchLabels: {job: migrate-v2}}
  template:
    metadata: {labels: {job: migrate-v2}}
    spec:
      restartPolicy: Never
      containers: [{name: c, image: registry.invalid/app:2}]
---
# Not in the cluster yet: nothing to compare.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: brand-new
spec:
  selector: {matchLabels: {app: brand-new}}
  template:
    metadata: {labels: {app: brand-new}}
    spec: {containers: [{name: c, image: registry.invalid/app:1}]}
`,
    )
    return file
  }

  it('reports each selector change against the live object, at the selector, with what the server does', async () => {
    const r = await kctl(['check', '-f', manifests(), '-n', ns, '--against-cluster', '-o', 'json'])
    expect(r.code, r.stderr).toBe(3)
    const report = JSON.parse(r.stdout)
    expect(report.options.against).toEqual({type: 'cluster', context: expect.any(String), server: controlPlane().server})
    // The target version comes from the server's /version.
    expect(report.options.k8sVersion).toBe('1.36')
    const found = report.findings.filter((f: {rule: string}) => f.rule === 'immutable-selector-change')
    expect(found.map((f: any) => `${f.severity} ${f.kind}/${f.name} ${f.line}:${f.column}`)).toEqual([
      'error Deployment/web 7:3',
      'error Deployment/agent 19:3',
      'warning ReplicationController/legacy 42:3',
      'error Job/migrate 53:3',
    ])
    expect(found[0].namespace).toBe(ns)
    expect(found[0].message).toContain(`changes from app=web to app=web,tier=frontend against the live Deployment ${ns}/web`)
    expect(found[0].message).toContain('"field is immutable"')
    expect(found[1].message).toContain('matchLabels {app: agent} to matchExpressions [app In (agent)]')
    expect(found[2].message).toContain('the API server accepts it')
  })

  it('what it says matches the API server: apps/v1 and Job selector changes are refused, the RC change is accepted', async () => {
    const dryRun = (path: string, body: object) => api('PATCH', `${path}?dryRun=All`, {contentType: 'application/merge-patch+json', body})
    const web = await dryRun(`/apis/apps/v1/namespaces/${ns}/deployments/web`, {
      spec: {selector: {matchLabels: {app: 'web', tier: 'frontend'}}, template: {metadata: {labels: {app: 'web', tier: 'frontend'}}}},
    })
    expect(web.status).toBe(422)
    expect(web.body).toContain('field is immutable')
    // Semantically the same pods, written differently: still refused (Semantic.DeepEqual on the struct).
    const agent = await dryRun(`/apis/apps/v1/namespaces/${ns}/deployments/agent`, {
      spec: {selector: {matchLabels: null, matchExpressions: [{key: 'app', operator: 'In', values: ['agent']}]}},
    })
    expect(agent.status).toBe(422)
    expect(agent.body).toContain('field is immutable')
    // Unchanged, reordered: accepted.
    const same = await dryRun(`/apis/apps/v1/namespaces/${ns}/deployments/same`, {spec: {selector: {matchLabels: {tier: 'a', app: 'same'}}}})
    expect(same.status).toBe(200)
    const job = await dryRun(`/apis/batch/v1/namespaces/${ns}/jobs/migrate`, {
      spec: {selector: {matchLabels: {job: 'migrate-v2'}}, template: {metadata: {labels: {job: 'migrate-v2'}}}},
    })
    expect(job.status).toBe(422)
    expect(job.body).toContain('field is immutable')
    const rc = await dryRun(`/api/v1/namespaces/${ns}/replicationcontrollers/legacy`, {
      spec: {selector: {app: 'legacy', version: 'v2'}, template: {metadata: {labels: {app: 'legacy', version: 'v2'}}}},
    })
    expect(rc.status).toBe(200)
  })

  it('--k8s-version wins over the server\'s version', async () => {
    const r = await kctl(['check', '-f', manifests(), '-n', ns, '--against-cluster', '--k8s-version', '1.33', '-o', 'json'])
    expect(JSON.parse(r.stdout).options.k8sVersion).toBe('1.33')
  })

  it('a user without RBAC grants gets one 403 line, exit 1', async () => {
    const r = await kctl(['check', '-f', manifests(), '-n', ns, '--against-cluster'], {as: 'restricted'})
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^error: forbidden \(403\) to get (Deployment|ReplicationController|Job) /)
  })

  it('an unreachable server is one line, not a stack trace', async () => {
    const file = kubeconfigFor()
    const r = await kctl(['check', '-f', manifests(), '--against-cluster', '--kubeconfig', file])
    expect(r.code).toBe(1)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/cannot reach the API server at https:\/\/127\.0\.0\.1:1 .*ECONNREFUSED/)
  })
})
