// Minimal reproductions of what reading real repositories showed: references resolved nearest
// first (same file, then same apply set, then anywhere), conflicts judged within one apply set,
// and the rules hpa-missing-requests, networkpolicy-selects-nothing and volume-mount-undefined.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {check} from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-repo-rules-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))
let n = 0

/** A folder with these files (path → YAML); its path. */
function repo(files: Record<string, string>): string {
  const root = join(tmp, `r${n++}`)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), {recursive: true})
    writeFileSync(join(root, path), text)
  }
  return root
}

const rel = (root: string, file: string) => file.slice(root.length + 1)
const findings = async (root: string, req = {}) => (await check([root], req)).findings.map((f) => `${f.rule} ${f.severity} ${rel(root, f.file)}:${f.line}:${f.column}`)

const deployment = (name: string, labels: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  selector: {matchLabels: {${labels}}}
  template:
    metadata: {labels: {${labels}}}
    spec: {containers: [{name: c, image: x${extra}}]}
`
const service = (name: string, selector: string, ports: string, extra = '') => `apiVersion: v1
kind: Service
metadata: {name: ${name}}
spec:
  selector: {${selector}}
  ports: [${ports}]${extra}
`
const ingress = (service: string, port: string) => `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: ing}
spec:
  defaultBackend: {service: {name: ${service}, port: {${port}}}}
`

describe('references are resolved nearest first', () => {
  it("an Ingress uses the Service of its own file or folder, not the one defined last elsewhere", async () => {
    const root = repo({
      'a/app.yaml': `${service('web', 'app: web', '{port: 80}')}---\n${ingress('web', 'number: 80')}---\n${deployment('web', 'app: web')}`,
      'b/app.yaml': `${service('web', 'app: web', '{name: http, port: 8080}')}---\n${ingress('web', 'name: http')}---\n${deployment('web', 'app: web')}`,
      // A third folder names a port neither has: reported, against its nearest (last read) definition.
      'c/ingress.yaml': ingress('web', 'number: 9090'),
    })
    expect(await findings(root)).toEqual(['ingress-backend-missing warning c/ingress.yaml:5:56'])
  })

  it('a StatefulSet finds its headless Service in its own file before a ClusterIP one elsewhere', async () => {
    const sts = (svc: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: ${svc}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: x}]}
`
    const root = repo({
      'a/db.yaml': `${sts('db')}---\n${service('db', 'app: db', '{port: 5432}', '\n  clusterIP: None')}`,
      'b/db.yaml': `${sts('db')}---\n${service('db', 'app: db', '{port: 5432}')}`,
    })
    expect(await findings(root)).toEqual(['statefulset-service-missing warning b/db.yaml:5:16'])
  })

  it('a Service whose pods are defined in another folder selects them (nothing found only when nothing in the input matches)', async () => {
    const root = repo({'deploy/web.yaml': deployment('web', 'app: web'), 'net/svc.yaml': service('web', 'app: web', '{port: 80}'), 'net/other.yaml': service('gone', 'app: gone', '{port: 80}')})
    expect(await findings(root)).toEqual(['service-selects-nothing warning net/other.yaml:5:3'])
  })

  it('an HPA finds its target anywhere in the input, but judges spec.replicas only within its apply set', async () => {
    const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: memory, target: {type: AverageValue, averageValue: 500Mi}}
`
    const root = repo({'app/web.yaml': deployment('web', 'app: web').replace('spec:\n', 'spec:\n  replicas: 3\n'), 'autoscale/hpa.yaml': hpa, 'lost/hpa.yaml': hpa.replace('Deployment, name: web}', 'Deployment, name: api}').replace('metadata: {name: web}', 'metadata: {name: api}')})
    expect(await findings(root)).toEqual(['hpa-target-missing warning lost/hpa.yaml:5:65'])
    expect(await findings(root, {applySet: 'all'})).toEqual(['hpa-replicas-conflict warning app/web.yaml:5:3', 'hpa-target-missing warning lost/hpa.yaml:5:65'])
  })
})

describe('conflicts are judged within one apply set', () => {
  it('the same Deployment in two folders is no duplicate; twice in one folder it is', async () => {
    const root = repo({'a/web.yaml': deployment('web', 'app: web'), 'b/web.yaml': deployment('web', 'app: web, v: "2"'), 'c/one.yaml': deployment('api', 'app: api'), 'c/two.yaml': deployment('api', 'app: api, v: "2"')})
    expect(await findings(root)).toEqual(['duplicate-object error c/two.yaml:3:12'])
  })

  it('a kustomize root is one set with everything below it', async () => {
    const root = repo({'app/kustomization.yaml': 'resources: [a/web.yaml, b/web.yaml]\n', 'app/a/web.yaml': deployment('web', 'app: web'), 'app/b/web.yaml': deployment('web', 'app: web, v: "2"')})
    expect(await findings(root)).toEqual(['duplicate-object error app/b/web.yaml:3:12'])
  })

  it('Jobs without manualSelector never overlap; with manualSelector they do', async () => {
    const job = (name: string, manual: boolean) => `apiVersion: batch/v1
kind: Job
metadata: {name: ${name}}
spec:
${manual ? '  manualSelector: true\n  selector: {matchLabels: {app: tools}}\n' : ''}  template:
    metadata: {labels: {app: tools}}
    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}
`
    expect(await findings(repo({'jobs.yaml': `${job('a', false)}---\n${job('b', false)}`}))).toEqual([])
    expect(await findings(repo({'jobs.yaml': `${job('a', true)}---\n${job('b', true)}`}))).toEqual(['overlapping-selectors warning jobs.yaml:16:3'])
  })

  it('generateName objects never collide', async () => {
    const job = `apiVersion: batch/v1
kind: Job
metadata: {generateName: run-}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}
`
    expect(await findings(repo({'jobs.yaml': `${job}---\n${job}`}))).toEqual([])
  })
})

describe('hpa-missing-requests', () => {
  const hpa = (metrics: string) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
${metrics}`
  const cpu = '  metrics:\n  - type: Resource\n    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}\n'

  it('a CPU utilization metric over containers without a CPU request', async () => {
    const root = repo({'web.yaml': `${deployment('web', 'app: web', ', resources: {requests: {memory: 1Gi}}')}---\n${hpa(cpu)}`})
    const r = await check([root])
    expect(r.findings.map((f) => `${f.rule} ${f.severity} ${f.line}:${f.column} ${f.field}`)).toEqual(['hpa-missing-requests warning 18:22 spec.metrics[0].resource.name'])
    expect(r.findings[0].message).toContain('container c sets none')
    expect(r.findings[0].related?.[0]).toMatchObject({kind: 'Deployment', line: 8})
  })

  it('is quiet when a request or a limit is set, for AverageValue targets, and for memory when only CPU is requested by a sibling metric', async () => {
    expect(await findings(repo({'w.yaml': `${deployment('web', 'app: web', ', resources: {limits: {cpu: "1"}}')}---\n${hpa(cpu)}`}))).toEqual([])
    const avg = '  metrics:\n  - type: Resource\n    resource: {name: memory, target: {type: AverageValue, averageValue: 1Gi}}\n'
    expect(await findings(repo({'w.yaml': `${deployment('web', 'app: web')}---\n${hpa(avg)}`}))).toEqual([])
  })

  it('no metric written means CPU at 80%, which needs CPU requests', async () => {
    expect(await findings(repo({'w.yaml': `${deployment('web', 'app: web')}---\n${hpa('')}`}))).toEqual(['hpa-missing-requests warning w.yaml:13:1'])
  })

  it('each utilization metric is judged against each copy of the target', async () => {
    const both = `${cpu}  - type: Resource\n    resource: {name: memory, target: {type: Utilization, averageUtilization: 60}}\n`
    const root = repo({'w.yaml': `${deployment('web', 'app: web')}---\n${deployment('web', 'app: web', ', imagePullPolicy: Always')}---\n${hpa(both)}`})
    const r = await check([root])
    const missing = r.findings.filter((f) => f.rule === 'hpa-missing-requests')
    expect(missing.map((f) => `${f.line}:${f.column} ${f.message.slice(4, 7)} ${f.related?.[0].line}`)).toEqual(['27:22 cpu 8', '27:22 cpu 17', '29:22 mem 8', '29:22 mem 17'])
  })

  it('a ContainerResource metric needs the request in its container only', async () => {
    const metric = (container: string) => `  metrics:\n  - type: ContainerResource\n    containerResource: {name: cpu, container: ${container}, target: {type: Utilization, averageUtilization: 60}}\n`
    const two = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: c, image: x, resources: {requests: {cpu: 100m}}}
      - {name: side, image: z}
`
    expect(await findings(repo({'w.yaml': `${two}---\n${hpa(metric('c'))}`}))).toEqual([])
    expect(await findings(repo({'w.yaml': `${two}---\n${hpa(metric('side'))}`}))).toEqual(['hpa-missing-requests warning w.yaml:21:31'])
  })
})

describe('networkpolicy-selects-nothing', () => {
  const policy = (selector: string) => `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny}
spec:
  podSelector: ${selector}
  policyTypes: [Ingress]
`
  it('a podSelector no pod template of its namespace matches', async () => {
    const root = repo({'np.yaml': `${deployment('web', 'app: web')}---\n${policy('{matchLabels: {app: wbe}}')}`})
    expect(await findings(root)).toEqual(['networkpolicy-selects-nothing warning np.yaml:14:3'])
  })

  it('is quiet for a matching selector, an empty one, or matchExpressions a template satisfies', async () => {
    expect(await findings(repo({'np.yaml': `${deployment('web', 'app: web')}---\n${policy('{matchLabels: {app: web}}')}`}))).toEqual([])
    expect(await findings(repo({'np.yaml': `${deployment('web', 'app: web')}---\n${policy('{}')}`}))).toEqual([])
    expect(await findings(repo({'np.yaml': `${deployment('web', 'app: web')}---\n${policy('{matchExpressions: [{key: app, operator: In, values: [web, api]}]}')}`}))).toEqual([])
  })
})

describe('volume-mount-undefined', () => {
  it('a volumeMount naming no volume of the pod, in a Deployment and in a Pod', async () => {
    const root = repo({
      'd.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: c, image: x, volumeMounts: [{name: config, mountPath: /etc/app}]}
      volumes: [{name: cfg, configMap: {name: app}}]
`,
      'p.yaml': 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: x\n    volumeDevices: [{name: disk, devicePath: /dev/xvda}]\n',
    })
    const r = await check([root])
    expect(r.findings.map((f) => `${f.rule} ${f.severity} ${rel(root, f.file)}:${f.line}:${f.column} ${f.field}`)).toEqual([
      'volume-mount-undefined error d.yaml:10:51 spec.template.spec.containers[0].volumeMounts[0].name',
      'volume-mount-undefined error p.yaml:8:28 spec.containers[0].volumeDevices[0].name',
    ])
    expect(r.findings[0].message).toBe(
      'volumeMount config of container c names no volume of the pod (its volumes: cfg): the API server rejects this Deployment (spec.template.spec.containers[0].volumeMounts[0].name: Not found)',
    )
  })

  it("a StatefulSet's volumeClaimTemplates are volumes of its pods", async () => {
    const sts = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: x, volumeMounts: [{name: data, mountPath: /data}]}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`
    expect((await findings(repo({'s.yaml': sts}))).filter((f) => f.startsWith('volume'))).toEqual([])
  })
})
