// Generates the `kctl check` benchmark input, deterministically (seeded PRNG): a GitOps-style
// repository of many small multi-document files, one per application, in many namespaces. Each
// application is a Deployment, a Service, a ConfigMap, a ServiceAccount and a
// HorizontalPodAutoscaler (5 resources), so 10,000 applications make 50,000 resources. A small,
// fixed share of them carries the mistakes kctl check looks for (selector/template mismatches, a
// broad selector that overlaps its neighbours, spec.replicas under an HPA, a Service whose selector
// has a typo, a removed apiVersion), so the rules do real work and the findings are counted.
//
//   node bench/check-generate.mjs [--apps N] [--namespaces N] [--seed N] [--clean] [--out DIR]
// Writes DIR/manifests/<namespace>/<app>.yaml and DIR/manifest.json (the parameters and counts).
import {mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {prng} from './generate.mjs'

export const CHECK_DEFAULTS = {apps: 10_000, namespaces: 50, seed: 20261122}

const TIERS = ['web', 'api', 'worker']

function app({ns, name, tier, partOf, fault, rnd}) {
  const image = `registry.example/${name}:${1 + Math.floor(rnd() * 9)}.${Math.floor(rnd() * 20)}.${Math.floor(rnd() * 50)}`
  const selector =
    fault === 'broad'
      ? `    matchLabels:\n      app.kubernetes.io/part-of: ${partOf}\n      tier: ${tier}\n`
      : `    matchLabels:\n      app.kubernetes.io/name: ${name}\n      app.kubernetes.io/part-of: ${partOf}\n`
  const templateTier = fault === 'mismatch' ? `${tier}-v2` : tier
  const extraSelector = fault === 'mismatch' ? `    matchExpressions:\n      - key: tier\n        operator: In\n        values: [${tier}]\n` : ''
  const replicas = fault === 'replicas' ? '  replicas: 3\n' : ''
  const svcName = fault === 'service' ? `${name}x` : name
  const hpaVersion = fault === 'deprecated' ? 'autoscaling/v2beta2' : 'autoscaling/v2'
  const readiness = fault === 'field-typo' ? 'readinesProbe' : 'readinessProbe'
  const httpPort = fault === 'wrong-type' ? '"8080"' : '8080'
  const pullPolicy = fault === 'enum' ? 'ifNotPresent' : 'IfNotPresent'
  return `# ${name}: generated for the kctl check benchmark
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/part-of: ${partOf}
    app.kubernetes.io/version: "1.0"
  annotations:
    owner: team-${Math.floor(rnd() * 40)}
spec:
${replicas}  revisionHistoryLimit: 5
  selector:
${selector}${extraSelector}  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${name}
        app.kubernetes.io/part-of: ${partOf}
        tier: ${templateTier}
      annotations:
        prometheus.io/scrape: "true"
        prometheus.io/port: "9090"
    spec:
      serviceAccountName: ${name}
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
      containers:
        - name: ${name}
          image: ${image}
          imagePullPolicy: ${pullPolicy}
          args: ["--listen=:8080", "--metrics=:9090", "--log-level=info"]
          ports:
            - name: http
              containerPort: ${httpPort}
            - name: metrics
              containerPort: 9090
          env:
            - name: APP_NAME
              value: ${name}
            - name: NAMESPACE
              valueFrom:
                fieldRef:
                  fieldPath: metadata.namespace
          envFrom:
            - configMapRef:
                name: ${name}
          resources:
            requests:
              cpu: ${50 + Math.floor(rnd() * 200)}m
              memory: ${64 + Math.floor(rnd() * 256)}Mi
            limits:
              memory: 512Mi
          ${readiness}:
            httpGet:
              path: /ready
              port: http
            periodSeconds: 5
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            initialDelaySeconds: 10
---
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
  labels:
    app.kubernetes.io/name: ${name}
spec:
  type: ClusterIP
  selector:
    app.kubernetes.io/name: ${svcName}
    app.kubernetes.io/part-of: ${partOf}
  ports:
    - name: http
      port: 80
      targetPort: http
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: ${ns}
data:
  LOG_FORMAT: json
  FEATURE_FLAGS: "search,checkout-v${1 + Math.floor(rnd() * 3)}"
  UPSTREAM: http://${TIERS[Math.floor(rnd() * 3)]}.${ns}.svc.cluster.local
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: ${name}
  namespace: ${ns}
---
apiVersion: ${hpaVersion}
kind: HorizontalPodAutoscaler
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${name}
  minReplicas: 2
  maxReplicas: ${4 + Math.floor(rnd() * 20)}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 70
`
}

/** Bumped whenever the generated text changes, so that an old input is generated again. */
export const GENERATOR_VERSION = 3

/** Faults, by application index: a fixed, small share of each. */
function faultOf(i) {
  if (i % 500 === 7) return 'broad'
  if (i % 100 === 13) return 'mismatch'
  if (i % 50 === 17) return 'replicas'
  if (i % 100 === 29) return 'service'
  if (i % 100 === 41) return 'deprecated'
  // Schema mistakes, which kubeconform finds too: a misspelt field, a wrong type, a value outside an enum.
  if (i % 100 === 53) return 'field-typo'
  if (i % 100 === 71) return 'wrong-type'
  if (i % 100 === 79) return 'enum'
  return undefined
}

export function generateCheckInput({apps = CHECK_DEFAULTS.apps, namespaces = CHECK_DEFAULTS.namespaces, seed = CHECK_DEFAULTS.seed, clean = false, out}) {
  const rnd = prng(seed)
  const dir = join(out, 'manifests')
  rmSync(dir, {recursive: true, force: true})
  let bytes = 0
  const faults = {}
  for (let n = 0; n < namespaces; n++) mkdirSync(join(dir, `team-${String(n).padStart(2, '0')}`), {recursive: true})
  for (let i = 0; i < apps; i++) {
    const n = i % namespaces
    const ns = `team-${String(n).padStart(2, '0')}`
    const tier = TIERS[Math.floor(rnd() * TIERS.length)]
    const name = `${tier}-${String(i).padStart(5, '0')}`
    const fault = clean ? undefined : faultOf(i)
    if (fault) faults[fault] = (faults[fault] ?? 0) + 1
    const text = app({ns, name, tier, partOf: `shop-${n}`, fault, rnd})
    bytes += Buffer.byteLength(text)
    writeFileSync(join(dir, ns, `${name}.yaml`), text)
  }
  const manifest = {params: {apps, namespaces, seed, clean, generator: GENERATOR_VERSION}, files: apps, resources: apps * 5, bytes, faults}
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  const opt = (name, fallback) => {
    const i = args.indexOf(name)
    return i < 0 ? fallback : args[i + 1]
  }
  const m = generateCheckInput({
    apps: Number(opt('--apps', CHECK_DEFAULTS.apps)),
    namespaces: Number(opt('--namespaces', CHECK_DEFAULTS.namespaces)),
    seed: Number(opt('--seed', CHECK_DEFAULTS.seed)),
    clean: args.includes('--clean'),
    out: opt('--out', join(import.meta.dirname ?? '.', 'out', 'check')),
  })
  process.stdout.write(`${JSON.stringify(m)}\n`)
}
