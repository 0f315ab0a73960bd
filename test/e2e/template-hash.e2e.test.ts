// pod-template-hash: kctl's TypeScript hash against kube-controller-manager's own code.
//
// A Go program built from the pinned Kubernetes module (controlplane/k8s/tools/hashoracle) decodes
// each template as the API server does (defaulting, conversion, a protobuf round trip) and calls
// controller.ComputeHash; kctl must print the same hash for every one of a few thousand generated
// templates. A second program prints the Go type graph the hash walks: the committed table must
// be exactly its output, so a new Kubernetes pin cannot leave the table behind.
import {execFileSync} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {ensureGoTools} from '../../controlplane/build.js'
import {figure, readmeText} from './readme-figures.js'
import {readVersions} from '../../controlplane/gen-gomod.js'
import {TABLE_FILE, tableModule} from '../../controlplane/typetable.js'
// The benchmarks' seeded generator (plain JavaScript).
import {prng as rng} from '../../bench/generate.mjs'
import {podTemplateDump, podTemplateHash, UnhashableTemplate} from '../../src/reconcile/hash/index.js'

type Json = Record<string, any>


const QUANTITIES = ['100m', '0.1', '1', '1.5', '2', '1000m', '1e3', '2e3', '1.5Gi', '0.5Gi', '128Mi', '100Mi', '512Mi', '1Ki', '100001m', '0.000001', '1u', '1n', '12345678901234567890', '1E', '8Ei', '3k', '4000', '0', '1.', '.5', '010', '1e-3', 2000, 1.5, 0.25]

function template(r: () => number): {template: Json; collisionCount?: number} {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
  const maybe = (p = 0.5) => r() < p
  const name = () => pick(['a', 'web', 'main', 'side-car', 'x1'])
  const probe = (): Json => {
    const handler = pick([
      {httpGet: {path: maybe() ? '/healthz' : '', port: maybe() ? 8080 : 'http', ...(maybe(0.3) ? {scheme: 'HTTPS', httpHeaders: [{name: 'X', value: 'y'}]} : {})}},
      {tcpSocket: {port: maybe() ? 5432 : 'db'}},
      {grpc: {port: 9090, ...(maybe() ? {service: 'health'} : {})}},
      {exec: {command: ['cat', '/tmp/ok']}},
    ])
    return {...handler, ...(maybe() ? {periodSeconds: 5} : {}), ...(maybe(0.3) ? {failureThreshold: 7, initialDelaySeconds: 3} : {})}
  }
  // Left out half the time: the server stores Go's zero quantity ("0").
  const divisor = (d: string | undefined): Json => (d === undefined ? {} : {divisor: d})
  const resources = (): Json => {
    const list = () => Object.fromEntries(['cpu', 'memory', 'ephemeral-storage', 'nvidia.com/gpu'].filter(() => maybe(0.4)).map((k) => [k, pick(QUANTITIES)]))
    return {...(maybe() ? {requests: list()} : {}), ...(maybe() ? {limits: list()} : {})}
  }
  const container = (): Json => {
    const c: Json = {name: name(), image: pick(['nginx:1.27', 'nginx', 'nginx:latest', 'registry.example.com:5000/team/app:v2', `img@sha256:${'a'.repeat(64)}`, 'Bad:Image'])}
    if (maybe(0.3)) c.command = ['sh', '-c', 'echo hi']
    if (maybe(0.3)) c.args = maybe() ? [] : ['--port=8080', '']
    if (maybe(0.4)) c.ports = [{containerPort: 8080, ...(maybe() ? {name: 'http'} : {}), ...(maybe(0.3) ? {protocol: 'UDP', hostPort: 53} : {})}]
    if (maybe(0.4)) {
      c.env = [
        {name: 'MODE', value: 'prod'},
        ...(maybe() ? [{name: 'POD', valueFrom: {fieldRef: {fieldPath: 'metadata.name'}}}] : []),
        ...(maybe() ? [{name: 'PW', valueFrom: {secretKeyRef: {name: 's', key: 'k', ...(maybe() ? {optional: true} : {})}}}] : []),
        ...(maybe(0.3) ? [{name: 'MEM', valueFrom: {resourceFieldRef: {resource: 'limits.memory', ...divisor(pick(['1Mi', '1', '0.5', undefined]))}}}] : []),
      ]
    }
    if (maybe(0.3)) c.envFrom = [{configMapRef: {name: 'cfg'}}]
    if (maybe(0.5)) c.resources = resources()
    if (maybe(0.3)) c.readinessProbe = probe()
    if (maybe(0.2)) c.livenessProbe = probe()
    if (maybe(0.1)) c.startupProbe = probe()
    if (maybe(0.2)) c.lifecycle = {preStop: maybe() ? {exec: {command: ['sleep', '5']}} : {httpGet: {port: 80}}}
    if (maybe(0.3)) c.securityContext = maybe() ? {} : {runAsNonRoot: true, runAsUser: 1000, capabilities: {drop: ['ALL']}, allowPrivilegeEscalation: false, readOnlyRootFilesystem: maybe()}
    if (maybe(0.2)) c.volumeMounts = [{name: 'data', mountPath: '/data', ...(maybe() ? {readOnly: true} : {})}]
    if (maybe(0.1)) c.imagePullPolicy = pick(['Always', 'IfNotPresent', 'Never'])
    if (maybe(0.1)) c.terminationMessagePolicy = 'FallbackToLogsOnError'
    if (maybe(0.1)) c.workingDir = '/srv'
    if (maybe(0.05)) c.tty = true
    return c
  }
  const volume = (): Json =>
    pick([
      {name: 'data', emptyDir: maybe() ? {} : {medium: 'Memory', sizeLimit: pick(['1Gi', '500Mi', '0.5Gi'])}},
      {name: 'data'},
      {name: 'data', secret: {secretName: 's', ...(maybe() ? {defaultMode: 256} : {}), ...(maybe() ? {items: [{key: 'a', path: 'a'}]} : {})}},
      {name: 'data', configMap: {name: 'c', ...(maybe() ? {optional: true} : {})}},
      {name: 'data', hostPath: {path: '/var/log', ...(maybe() ? {type: 'Directory'} : {})}},
      {name: 'data', persistentVolumeClaim: {claimName: 'pvc'}},
      {name: 'data', downwardAPI: {items: [{path: 'labels', fieldRef: {fieldPath: 'metadata.labels'}}, {path: 'cpu', resourceFieldRef: {containerName: 'a', resource: 'requests.cpu', ...divisor(pick(['1m', undefined]))}}]}},
      {name: 'data', projected: {sources: [{serviceAccountToken: {path: 'token', ...(maybe() ? {expirationSeconds: 600} : {})}}, {configMap: {name: 'c'}}]}},
      {name: 'data', ephemeral: {volumeClaimTemplate: {spec: {accessModes: ['ReadWriteOnce'], resources: {requests: {storage: pick(['1Gi', '1.5Gi', '100M'])}}}}}},
    ])
  const labels: Json = {app: pick(['web', 'api', 'w-1'])}
  if (maybe(0.3)) labels.tier = pick(['frontend', 'backend', ''])
  const metadata: Json = {labels}
  if (maybe(0.2)) metadata.annotations = maybe() ? {} : {'example.com/owner': 'team-a', 'a.b/c': 'x'}
  if (maybe(0.1)) metadata.creationTimestamp = null
  const spec: Json = {containers: Array.from({length: 1 + Math.floor(r() * 2)}, container)}
  if (maybe(0.2)) spec.initContainers = [{...container(), ...(maybe() ? {restartPolicy: 'Always'} : {})}]
  if (maybe(0.3)) spec.volumes = [volume()]
  if (maybe(0.2)) spec.nodeSelector = maybe() ? {} : {'kubernetes.io/os': 'linux'}
  if (maybe(0.2)) spec.tolerations = [{key: 'k', operator: 'Exists', effect: 'NoSchedule'}, ...(maybe() ? [{key: 'x', operator: 'Equal', value: 'y', tolerationSeconds: 30, effect: 'NoExecute'}] : [])]
  if (maybe(0.2)) {
    spec.affinity = {
      nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: 'zone', operator: 'In', values: ['a', 'b']}]}]}},
      ...(maybe() ? {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 50, podAffinityTerm: {topologyKey: 'kubernetes.io/hostname', labelSelector: {matchLabels: labels}}}]}} : {}),
    }
  }
  if (maybe(0.1)) spec.topologySpreadConstraints = [{maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: {matchLabels: labels}}]
  if (maybe(0.2)) spec.securityContext = maybe() ? {} : {fsGroup: 2000, runAsUser: 1000, seccompProfile: {type: 'RuntimeDefault'}}
  if (maybe(0.1)) spec.terminationGracePeriodSeconds = pick([0, 5, 30])
  if (maybe(0.1)) spec.serviceAccountName = 'app'
  if (maybe(0.1)) spec.dnsPolicy = 'None'
  if (maybe(0.1)) spec.hostNetwork = true
  if (maybe(0.1)) spec.priorityClassName = 'high'
  if (maybe(0.1)) spec.enableServiceLinks = false
  if (maybe(0.1)) spec.imagePullSecrets = [{name: 'regcred'}]
  if (maybe(0.05)) spec.overhead = {cpu: pick(QUANTITIES)}
  const collisionCount = pick([undefined, undefined, 0, 1, 3])
  return {template: {metadata, spec}, collisionCount}
}

function deployment(t: Json, collisionCount: number | undefined): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'd'},
    spec: {selector: {matchLabels: t.metadata.labels}, template: t},
    ...(collisionCount === undefined ? {} : {status: {collisionCount}}),
  }
}

const COUNT = Number(process.env.KCTL_HASH_COUNT ?? 2000)
const SEED = Number(process.env.KCTL_HASH_SEED ?? 20261124)

describe('pod-template-hash against controller.ComputeHash', () => {
  it('the committed Go type table is the pinned Kubernetes version\'s', async () => {
    const tools = await ensureGoTools()
    const generated = tableModule(execFileSync(tools.typeTable, {encoding: 'utf8'}), readVersions().kubernetes)
    expect(readFileSync(TABLE_FILE, 'utf8') === generated, 'the table is stale: run npx tsx controlplane/typetable.ts').toBe(true)
  }, 300_000)

  it(`equals the controller's hash on ${COUNT} generated templates (seed ${SEED})`, async () => {
    const tools = await ensureGoTools()
    const r = rng(SEED)
    const cases = Array.from({length: COUNT}, () => template(r))
    const input = cases.map((c) => JSON.stringify(deployment(c.template, c.collisionCount))).join('\n')
    const out = execFileSync(tools.hashOracle, {input, encoding: 'utf8', maxBuffer: 1 << 30}).trim().split('\n')
    expect(out.length).toBe(COUNT)
    let compared = 0
    let rejected = 0
    let unhashable = 0
    const mismatches: string[] = []
    out.forEach((line, i) => {
      const go = JSON.parse(line) as {hash?: string; dump?: string; error?: string}
      if (go.error) {
        rejected++ // the API server would refuse it too (an invalid quantity): nothing to name
        return
      }
      let ts: string
      try {
        ts = podTemplateHash(cases[i].template, cases[i].collisionCount)
      } catch (e) {
        if (!(e instanceof UnhashableTemplate)) throw e
        unhashable++
        mismatches.push(`#${i}: kctl cannot hash it (${e.message}); the controller's hash is ${go.hash}`)
        return
      }
      compared++
      if (ts !== go.hash) {
        const mine = podTemplateDump(cases[i].template)
        let at = 0
        while (at < mine.length && mine[at] === go.dump![at]) at++
        mismatches.push(`#${i}: kctl ${ts}, controller ${go.hash}; dumps differ at ${at}: kctl …${mine.slice(Math.max(0, at - 80), at + 80)}… controller …${go.dump!.slice(Math.max(0, at - 80), at + 80)}…`)
      }
    })
    process.stderr.write(`\npod-template-hash: ${compared} templates compared, ${rejected} refused by the decoder, ${unhashable} not hashable by kctl, ${mismatches.length} mismatches\n`)
    expect(mismatches.slice(0, 5)).toEqual([])
    expect(compared + rejected).toBe(cases.length)
    // The README states these figures (for the default count); they must be the ones measured here.
    if (process.env.KCTL_HASH_COUNT === undefined) {
      expect(readmeText()).toContain(`${figure(cases.length)} generated templates`)
      expect(readmeText()).toContain(`**${figure(compared)} of ${figure(compared)}** equal`)
    }
  }, 300_000)
})
