// `--apply-manifests` from files against the real thing: kctl's kubectl-apply merge
// (src/simulate/apply-merge.ts) next to `kubectl apply` itself and the API server.
//
// For each pair of manifests: the first is applied with `kubectl apply` (so the object carries
// the last-applied annotation; one case creates it with `kubectl create`, without it), someone
// else may then change the object (a patch, as `kubectl scale` or `kubectl edit` would), and then:
// - kctl merges the second manifest onto the object read back (kubectlApply + storedUpdate);
// - the API server stores kctl's result (a dry-run update: the server adds its defaults to what
//   the merge added) and applies kctl's patch (a dry-run strategic merge patch);
// - `kubectl apply` applies the second manifest for real.
// Exact: the labels, the annotations (the new last-applied text byte for byte), the spec and the
// generation kctl predicts are what kubectl apply leaves. Through the CLI, `kctl plan -f LIVE
// --apply-manifests NEXT` plans the ReplicaSet and the replicas that `kctl plan` of the object
// kubectl stored plans; so does the live `kctl plan --apply-manifests NEXT` (kctl sends kubectl's
// patch as a dry run), and with --server-side it plans what a server-side apply stores.
//
// A server-side apply (what --server-side does against a live cluster) of the same manifest is
// also made (dry run), and must differ from kubectl apply exactly where the two differ in
// principle: a server-side apply by another field manager removes nothing it did not apply
// itself, so what the last client-side apply set and the new manifest drops (an env var, a label,
// replicas, a container) stays; it rewrites no last-applied annotation; everything else agrees.
//
// Then seeded random pairs (and changes by others between them), compared the same way with
// kubectl apply; where kubectl's result is invalid, the API server must refuse kctl's too:
//
//   KCTL_APPLY_SEED=7 KCTL_APPLY_COUNT=100 npx vitest run --project e2e test/e2e/apply-merge.e2e.test.ts
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

// @ts-expect-error: a plain .mjs module shared with the benchmarks
import {prng} from '../../bench/generate.mjs'
import {kubectlApply, LAST_APPLIED, storedUpdate} from '../../src/simulate/apply-merge.js'
import {kctl} from './kctl.js'
import {api, apiOk, deleteNamespace, kubectl, newNamespace} from './setup/cluster.js'

type Json = Record<string, any>

interface Case {
  name: string
  /** The first manifest (kubectl apply; `created`: kubectl create, no annotation). */
  first: Json
  created?: boolean
  /** A strategic merge patch someone else makes in between. */
  others?: Json
  /** The second manifest. */
  next: Json
  /** Paths (under labels / spec) where a server-side apply of `next` keeps what kubectl apply removes. */
  serverSideKeeps?: string[]
  /** A server-side apply of `next` is refused: what it keeps makes the object invalid. */
  serverSideRefused?: string
}

function deployment(edit: (d: Json) => void = () => {}): Json {
  const d: Json = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {name: 'web', labels: {app: 'web'}},
    spec: {
      replicas: 3,
      selector: {matchLabels: {app: 'web'}},
      template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'c', image: 'registry.example.com/web:v1'}]}},
    },
  }
  edit(d)
  return d
}

const containers = (d: Json) => d.spec.template.spec.containers
const withEnv = (...names: string[]) => (d: Json) => (containers(d)[0].env = names.map((name) => ({name, value: name.toLowerCase()})))

const CASES: Case[] = [
  {name: 'a new image', first: deployment(), next: deployment((d) => (containers(d)[0].image = 'registry.example.com/web:v2'))},
  {
    name: 'a container added, ports merged by containerPort',
    first: deployment((d) => (containers(d)[0].ports = [{containerPort: 8080, name: 'http'}])),
    next: deployment((d) => {
      containers(d)[0].ports = [{containerPort: 8080, name: 'web'}, {containerPort: 9090, name: 'metrics'}]
      containers(d).push({name: 'log', image: 'registry.example.com/log:v1', args: ['--follow']})
    }),
  },
  {
    name: 'an env var removed since the last apply, one added by hand kept',
    first: deployment(withEnv('A', 'B')),
    others: {spec: {template: {spec: {containers: [{name: 'c', env: [{name: 'X', value: 'by-hand'}]}]}}}},
    next: deployment(withEnv('A')),
    serverSideKeeps: ['spec.template.spec.containers[0].env'],
  },
  {
    name: 'replicas dropped from the manifest after a scale: removed, then defaulted',
    first: deployment(),
    others: {spec: {replicas: 5}},
    next: deployment((d) => delete d.spec.replicas),
    serverSideKeeps: ['spec.replicas'],
  },
  {
    name: 'replicas never in the manifest: the scale stays',
    first: deployment((d) => delete d.spec.replicas),
    others: {spec: {replicas: 5}},
    next: deployment((d) => {
      delete d.spec.replicas
      containers(d)[0].image = 'registry.example.com/web:v2'
    }),
  },
  {
    name: 'a label removed since the last apply, one added by hand kept',
    first: deployment((d) => (d.metadata.labels = {app: 'web', tier: 'frontend'})),
    others: {metadata: {labels: {owner: 'team-a'}}},
    next: deployment(),
    serverSideKeeps: ['labels.tier'],
  },
  {
    name: 'RollingUpdate to Recreate: the defaulted rollingUpdate cleared ($retainKeys)',
    first: deployment(),
    next: deployment((d) => (d.spec.strategy = {type: 'Recreate'})),
    serverSideRefused: 'spec.strategy.rollingUpdate',
  },
  {
    name: 'containers replaced, a sidecar added by hand kept in its place',
    first: deployment((d) => containers(d).push({name: 'd', image: 'registry.example.com/d:v1'})),
    others: {spec: {template: {spec: {containers: [{name: 'sidecar', image: 'registry.example.com/proxy:v1'}]}}}},
    next: deployment((d) => (containers(d)[0] = {name: 'e', image: 'registry.example.com/e:v1'})),
    serverSideKeeps: ['spec.template.spec.containers'],
  },
  {
    name: 'first apply onto an object kubectl create made (no annotation): nothing removed',
    first: deployment((d) => {
      d.metadata.labels.tier = 'frontend'
      withEnv('A', 'B')(d)
    }),
    created: true,
    next: deployment((d) => {
      withEnv('A')(d)
      containers(d)[0].image = 'registry.example.com/web:v2'
    }),
  },
  {
    name: 'a ReplicaSet: a volume changes its source ($retainKeys on each volume)',
    first: replicaSet([{name: 'data', emptyDir: {}}]),
    next: replicaSet([{name: 'data', configMap: {name: 'web-data'}}]),
    serverSideRefused: 'spec.template.spec.volumes[0].configMap',
  },
]

function replicaSet(volumes: Json[]): Json {
  return deployment((d) => {
    d.kind = 'ReplicaSet'
    d.spec.replicas = 0
    d.spec.template.spec.volumes = volumes
  })
}

const pathOf = (ns: string, m: Json) => `/apis/apps/v1/namespaces/${ns}/${m.kind === 'ReplicaSet' ? 'replicasets' : 'deployments'}/${m.metadata.name}`

/** What an apply decides: labels, annotations, spec, generation. */
const decided = (o: Json) => ({labels: o.metadata.labels, annotations: o.metadata.annotations, spec: o.spec, generation: o.metadata.generation})

/** The leaf paths where two values differ (a list differing in length is one path). */
function differences(a: unknown, b: unknown, at = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return []
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((x, i) => differences(x, b[i], `${at}[${i}]`))
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()
    return keys.flatMap((k) => differences((a as Json)[k], (b as Json)[k], at ? `${at}.${k}` : k))
  }
  return [at]
}

function file(name: string, object: Json): string {
  const dir = mkdtempSync(join(tmpdir(), `kctl-apply-merge-${name}-`))
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(object))
  return dir
}

/** `kctl plan` of a Deployment: the ReplicaSet it creates and its replicas. */
async function planned(args: string[]): Promise<{replicaSet?: string; desired: number}> {
  const run = await kctl(['plan', '-o', 'json', '--now', '2026-11-22T10:00:00Z', ...args])
  expect(run.code, run.stderr).toBe(0)
  const web = JSON.parse(run.stdout).controllers.find((c: Json) => c.kind === 'Deployment')
  return {replicaSet: web.actions.find((a: Json) => a.type === 'createReplicaSet')?.name, desired: web.desired}
}

describe('--apply-manifests from files merges as kubectl apply does', () => {
  const namespaces: string[] = []
  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(ns)
  })

  it.each(CASES)('$name', async (c) => {
    const ns = await newNamespace('apply')
    namespaces.push(ns)
    const path = pathOf(ns, c.first)
    await kubectl([c.created ? 'create' : 'apply', '-n', ns, '-f', '-'], {input: JSON.stringify(c.first)})
    if (c.others) await apiOk('PATCH', path, {body: c.others, contentType: 'application/strategic-merge-patch+json'})
    const live = await apiOk('GET', path)
    expect(live.metadata.annotations?.[LAST_APPLIED] === undefined).toBe(c.created === true)

    // kctl's prediction, and the API server's view of it (defaults added, nothing kept).
    const predicted = kubectlApply(c.next, live, ns)
    expect(predicted.threeWay).toBe(!c.created)
    const stored = storedUpdate(live, predicted.object)
    const updated = await apiOk('PUT', `${path}?dryRun=All`, {body: stored.object})
    const patched = await apiOk('PATCH', `${path}?dryRun=All`, {body: predicted.patch, contentType: 'application/strategic-merge-patch+json'})
    const serverSide = await api('PATCH', `${path}?dryRun=All&fieldManager=kctl-simulate&force=true`, {
      body: {...c.next, metadata: {...c.next.metadata, namespace: ns}},
      contentType: 'application/apply-patch+yaml',
    })
    const fromFiles = c.next.kind === 'Deployment' ? await planned(['-n', ns, '-f', file('live', live), '--apply-manifests', file('next', c.next)]) : undefined
    // Live: the user's own kubectl apply (client-side) sent as a dry run, or with --server-side a server-side apply.
    const next = file('next-live', c.next)
    const liveClientSide = c.next.kind === 'Deployment' ? await planned(['-n', ns, '--apply-manifests', next]) : undefined
    const liveServerSide = c.next.kind === 'Deployment' && serverSide.status === 200 ? await planned(['-n', ns, '--apply-manifests', next, '--server-side']) : undefined

    // The real thing.
    await kubectl(['apply', '-n', ns, '-f', '-'], {input: JSON.stringify(c.next)})
    const real = await apiOk('GET', path)

    expect(predicted.object.metadata.annotations[LAST_APPLIED]).toBe(real.metadata.annotations[LAST_APPLIED])
    expect(stored.object.metadata.generation).toBe(real.metadata.generation)
    expect(decided(updated)).toEqual(decided(real))
    expect(decided(patched)).toEqual(decided(real))
    if (fromFiles) expect(fromFiles).toEqual(await planned(['-n', ns, '-f', file('real', real)]))
    if (liveClientSide) expect(liveClientSide).toEqual(await planned(['-n', ns, '-f', file('real', real)]))
    if (liveServerSide) expect(liveServerSide).toEqual(await planned(['-n', ns, '-f', file('ssa', serverSide.json)]))
    // Where the two applies differ in what the plan reads (the scale kept), the flag is what tells them apart.
    if (liveServerSide && c.serverSideKeeps?.includes('spec.replicas')) expect(liveServerSide.desired).not.toBe(liveClientSide?.desired)

    // Server-side apply: the same where it should be, and where not, only where it keeps more.
    if (c.serverSideRefused) {
      // It keeps what kubectl apply's $retainKeys clears: a Recreate Deployment's defaulted
      // rollingUpdate, a volume's old source beside the new one; the object would be invalid.
      expect(serverSide.status).toBe(422)
      expect(serverSide.json.details.causes.map((x: Json) => x.field)).toContain(c.serverSideRefused)
    } else {
      expect(serverSide.status, serverSide.body).toBe(200)
      const ssa = serverSide.json
      expect(differences({labels: ssa.metadata.labels, spec: ssa.spec}, {labels: real.metadata.labels, spec: real.spec})).toEqual(c.serverSideKeeps ?? [])
    }
  })
})

const SEED = Number(process.env.KCTL_APPLY_SEED ?? 20261125)
const COUNT = Number(process.env.KCTL_APPLY_COUNT ?? 16)

type Rnd = () => number
const chance = (r: Rnd, p: number) => r() < p
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]
const some = <T>(r: Rnd, xs: readonly T[]): T[] => xs.filter(() => chance(r, 0.5))

/** A random Deployment manifest `web` (always valid on its own; the selector never changes). */
function randomDeployment(r: Rnd): Json {
  const container = (name: string): Json => {
    const c: Json = {name, image: `registry.example.com/${name}:${pick(r, ['v1', 'v2'])}`}
    if (chance(r, 0.6)) c.env = some(r, ['A', 'B', 'C', 'D']).map((n) => ({name: n, value: pick(r, ['1', '2'])}))
    if (chance(r, 0.4)) c.ports = some(r, [80, 443, 8080]).map((containerPort) => ({containerPort, ...(chance(r, 0.3) ? {name: `p${containerPort}`} : {})}))
    if (chance(r, 0.3)) c.args = some(r, ['--a', '--b', '--c'])
    if (chance(r, 0.3)) c.resources = {limits: {...(chance(r, 0.5) ? {cpu: pick(r, ['1', '2'])} : {}), memory: '1Gi'}}
    return c
  }
  return deployment((d) => {
    if (chance(r, 0.5)) d.metadata.labels = {app: 'web', ...Object.fromEntries(some(r, ['team', 'tier']).map((k) => [k, pick(r, ['a', 'b'])]))}
    if (chance(r, 0.3)) delete d.spec.replicas
    else d.spec.replicas = pick(r, [1, 2, 3])
    if (chance(r, 0.4)) d.spec.strategy = chance(r, 0.5) ? {type: 'Recreate'} : {type: 'RollingUpdate', rollingUpdate: {maxSurge: pick(r, [1, '50%'])}}
    if (chance(r, 0.2)) d.spec.paused = pick(r, [true, false])
    const names = some(r, ['c', 'd', 'e'])
    d.spec.template.spec.containers = (names.length > 0 ? (chance(r, 0.3) ? names.reverse() : names) : ['c']).map(container)
    if (chance(r, 0.3)) d.spec.template.spec.initContainers = some(r, ['i', 'j']).map(container)
    if (chance(r, 0.4)) d.spec.template.spec.volumes = some(r, ['va', 'vb']).map((name) => (chance(r, 0.5) ? {name, emptyDir: {}} : {name, configMap: {name: pick(r, ['x', 'y'])}}))
    if (chance(r, 0.3)) d.spec.template.spec.tolerations = some(r, ['k1', 'k2']).map((key) => ({key, operator: 'Exists'}))
  })
}

/** What someone else does between the two applies: patches, as kubectl scale, label or edit send them. */
function randomOthers(r: Rnd): Array<{patch: Json; contentType: string}> {
  const smp = (patch: Json) => ({patch, contentType: 'application/strategic-merge-patch+json'})
  const out: Array<{patch: Json; contentType: string}> = []
  if (chance(r, 0.4)) out.push(smp({spec: {replicas: pick(r, [4, 5])}}))
  if (chance(r, 0.3)) out.push(smp({metadata: {labels: {owner: 'by-hand'}}}))
  if (chance(r, 0.3)) out.push(smp({spec: {template: {spec: {containers: [{name: 'sidecar', image: 'registry.example.com/proxy:v1'}]}}}}))
  if (chance(r, 0.2)) out.push(smp({spec: {template: {spec: {dnsPolicy: 'Default'}}}}))
  return out
}

describe(`random manifest pairs (seed ${SEED}, ${COUNT} pairs) against kubectl apply`, () => {
  const namespaces: string[] = []
  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(ns)
  })

  it('kctl predicts what kubectl apply stores, or that the API server refuses it', async () => {
    const r = prng(SEED)
    const ns = await newNamespace('apply-rnd')
    namespaces.push(ns)
    let refused = 0
    for (let i = 0; i < COUNT; i++) {
      const first = {...randomDeployment(r), metadata: {...deployment().metadata, name: `web-${i}`}}
      const next = {...randomDeployment(r), metadata: {...randomDeployment(r).metadata, name: `web-${i}`}}
      const others = randomOthers(r)
      const what = `pair ${i} (KCTL_APPLY_SEED=${SEED}): ${JSON.stringify({first, others, next})}`
      const path = pathOf(ns, first)
      await kubectl(['apply', '-n', ns, '-f', '-'], {input: JSON.stringify(first)})
      for (const o of others) await apiOk('PATCH', path, {body: o.patch, contentType: o.contentType})
      const live = await apiOk('GET', path)
      const predicted = kubectlApply(next, live, ns)
      const stored = storedUpdate(live, predicted.object)
      const updated = await api('PUT', `${path}?dryRun=All`, {body: stored.object})
      const real = await kubectl(['apply', '-n', ns, '-f', '-'], {input: JSON.stringify(next), allowFailure: true})
      if (real.code !== 0) {
        // kubectl's result is invalid (e.g. Recreate beside a rollingUpdate someone else set): so is kctl's.
        expect(updated.status, `${what}\nkubectl: ${real.stderr}`).toBe(422)
        refused++
        continue
      }
      expect(updated.status, `${what}\n${updated.body}`).toBe(200)
      const after = await apiOk('GET', path)
      expect(predicted.object.metadata.annotations[LAST_APPLIED], what).toBe(after.metadata.annotations[LAST_APPLIED])
      expect(stored.object.metadata.generation, what).toBe(after.metadata.generation)
      expect(decided(updated.json), what).toEqual(decided(after))
    }
    console.info(`${COUNT} random pairs: ${COUNT - refused} stored as predicted, ${refused} refused by the API server for kubectl and kctl alike`)
    // The pairs are made to be valid: a refusal is the exception, never the rule.
    expect(refused).toBeLessThan(COUNT / 4)
  })
})
