// Generates a large, realistic fixture set, deterministically (seeded PRNG): ReplicaSets owned by
// Deployments and their pods, shaped like `kubectl get -o yaml` / `-o json` output (sorted keys,
// quoted timestamps, managedFields, ready conditions, containerStatuses). Some ReplicaSets are
// scaled below their pod count so that deletion ranking runs, a few above (creates), and some old
// ReplicaSets of a rollout are at 0 with pods left.
//
//   node bench/generate.mjs [--replicasets N] [--pods N] [--seed N] [--out DIR]
// Writes DIR/bench.yaml (one document per object, `---` separated) and DIR/bench.json (a
// `kind: List` as `kubectl get -o json` prints it, 4-space indent), plus DIR/manifest.json, and
// DIR/bench-styled.yaml: the same objects as people write them (a comment before each document
// and above its spec, small maps in flow style, a multi-line annotation as a block scalar).
import {createWriteStream, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

export const DEFAULTS = {replicaSets: 10_000, pods: 150_000, seed: 20261122}

/** `--name N` command-line arguments over `defaults` (numbers); an unknown name is an error. */
export function numberArgs(defaults, argv = process.argv.slice(2)) {
  const o = {...defaults}
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '')
    if (!(k in o)) throw new Error(`unknown argument ${argv[i]}`)
    o[k] = Number(argv[++i])
  }
  return o
}

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function makeWorld({replicaSets = DEFAULTS.replicaSets, pods = DEFAULTS.pods, seed = DEFAULTS.seed} = {}) {
  const rnd = prng(seed)
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1))
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)]
  const hex = (n) => {
    let s = ''
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rnd() * 16)]
    return s
  }
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[int(0, 3)]}${hex(3)}-${hex(12)}`
  const SAFE = 'bcdfghjklmnpqrstvwxz2456789'
  const suffix = (n) => {
    let s = ''
    for (let i = 0; i < n; i++) s += SAFE[Math.floor(rnd() * SAFE.length)]
    return s
  }
  const HASH = '456789bcdf'
  const templateHash = () => {
    let s = ''
    for (let i = 0; i < 10; i++) s += HASH[Math.floor(rnd() * HASH.length)]
    return s
  }
  const base = Date.parse('2026-11-01T00:00:00Z') / 1000
  const time = (lo, hi) => new Date((base + int(lo, hi)) * 1000).toISOString().replace('.000Z', 'Z')
  let rv = 1_000_000
  const resourceVersion = () => String(rv += int(1, 50))

  const namespaces = Array.from({length: 25}, (_, i) => `team-${String(i).padStart(2, '0')}`)
  const nodes = Array.from({length: 400}, (_, i) => `node-${String(i).padStart(3, '0')}`)
  const images = ['nginx:1.27.2', 'ghcr.io/acme/api:3.14.1', 'registry.k8s.io/pause:3.10', 'ghcr.io/acme/worker:2.0.7']

  // Pod counts per ReplicaSet: every Deployment has a new RS and an old one (a rollout) with a few
  // pods left; the counts add up to exactly `pods`.
  const counts = new Array(replicaSets).fill(0)
  for (let left = pods, i = 0; left > 0; i = (i + 1) % replicaSets) {
    const take = Math.min(left, i % 2 === 0 ? int(1, 4) : int(0, 1))
    counts[i] += take
    left -= take
  }

  const objects = {replicaSets: [], pods: []}
  for (let i = 0; i < replicaSets; i++) {
    const dep = Math.floor(i / 2)
    const app = `app-${String(dep).padStart(4, '0')}`
    const ns = namespaces[dep % namespaces.length]
    const hash = templateHash()
    const name = `${app}-${hash}`
    const uid = uuid()
    const created = time(0, 20 * 86400)
    const n = counts[i]
    const isNew = i % 2 === 0
    let replicas = n
    const roll = rnd()
    if (!isNew) replicas = roll < 0.5 ? 0 : Math.max(0, n - 1)
    else if (roll < 0.15) replicas = Math.max(0, n - int(1, 5)) // scale down: ranking runs
    else if (roll < 0.2) replicas = n + int(1, 3) // scale up: creates
    const labels = {app, 'pod-template-hash': hash, tier: pick(['web', 'api', 'worker'])}
    const image = pick(images)
    const depUid = uuid()
    const template = {
      metadata: {creationTimestamp: null, labels},
      spec: {
        containers: [
          {
            image,
            imagePullPolicy: 'IfNotPresent',
            name: 'main',
            ports: [{containerPort: 8080, protocol: 'TCP'}],
            resources: {limits: {memory: '256Mi'}, requests: {cpu: '100m', memory: '128Mi'}},
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
          },
        ],
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
        schedulerName: 'default-scheduler',
        securityContext: {},
        terminationGracePeriodSeconds: 30,
      },
    }
    let ready = 0
    const podList = []
    for (let k = 0; k < n; k++) {
      const podName = `${name}-${suffix(5)}`
      const roll2 = rnd()
      const phase = roll2 < 0.03 ? 'Pending' : roll2 < 0.04 ? 'Failed' : 'Running'
      const scheduled = !(phase === 'Pending' && rnd() < 0.5)
      const isReady = phase === 'Running' && rnd() < 0.93
      if (isReady) ready++
      const podCreated = time(20 * 86400, 21 * 86400 - 3600)
      const readyAt = time(21 * 86400 - 3500, 21 * 86400)
      const restarts = rnd() < 0.8 ? 0 : int(1, 12)
      const annotations = rnd() < 0.05 ? {'controller.kubernetes.io/pod-deletion-cost': String(int(-5, 5))} : undefined
      const conditions = [
        {lastTransitionTime: isReady ? readyAt : podCreated, status: isReady ? 'True' : 'False', type: 'Ready'},
        {lastTransitionTime: podCreated, status: scheduled ? 'True' : 'False', type: 'PodScheduled'},
      ]
      podList.push({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          ...(annotations ? {annotations} : {}),
          creationTimestamp: podCreated,
          generateName: `${name}-`,
          labels: {app, 'pod-template-hash': hash, tier: labels.tier},
          managedFields: [
            {
              apiVersion: 'v1',
              fieldsType: 'FieldsV1',
              fieldsV1: {'f:metadata': {'f:labels': {}, 'f:ownerReferences': {}}},
              manager: 'kube-controller-manager',
              operation: 'Update',
              time: podCreated,
            },
          ],
          name: podName,
          namespace: ns,
          ownerReferences: [{apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'ReplicaSet', name, uid}],
          resourceVersion: resourceVersion(),
          uid: uuid(),
        },
        spec: {
          containers: [{image, name: 'main'}],
          ...(scheduled ? {nodeName: pick(nodes)} : {}),
          restartPolicy: 'Always',
        },
        status: {
          conditions,
          ...(phase === 'Running' ? {containerStatuses: [{name: 'main', ready: isReady, restartCount: restarts, started: true}]} : {}),
          phase,
          ...(scheduled ? {podIP: `10.${int(0, 255)}.${int(0, 255)}.${int(1, 254)}`} : {}),
        },
      })
    }
    objects.replicaSets.push({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        annotations: {
          'deployment.kubernetes.io/desired-replicas': String(replicas),
          'deployment.kubernetes.io/max-replicas': String(replicas + 1),
          'deployment.kubernetes.io/revision': String(isNew ? 2 : 1),
        },
        creationTimestamp: created,
        generation: int(1, 6),
        labels,
        managedFields: [
          {
            apiVersion: 'apps/v1',
            fieldsType: 'FieldsV1',
            fieldsV1: {'f:metadata': {'f:annotations': {'.': {}}, 'f:labels': {'.': {}}, 'f:ownerReferences': {'.': {}}}, 'f:spec': {'f:replicas': {}}},
            manager: 'kube-controller-manager',
            operation: 'Update',
            time: created,
          },
        ],
        name,
        namespace: ns,
        ownerReferences: [{apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'Deployment', name: app, uid: depUid}],
        resourceVersion: resourceVersion(),
        uid,
      },
      spec: {replicas, selector: {matchLabels: {app, 'pod-template-hash': hash}}, template},
      status: {availableReplicas: ready, fullyLabeledReplicas: n, observedGeneration: 1, readyReplicas: ready, replicas: n},
    })
    objects.pods.push(...podList)
  }
  return objects
}

// --- writers -------------------------------------------------------------------------------------

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./-]*$/
const YAML11_WORDS = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'null', 'Null', 'NULL', '~'])

function scalar(v) {
  if (v === null) return 'null'
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (PLAIN.test(v) && !YAML11_WORDS.has(v) && !v.endsWith(':')) return v
  if (v !== '' && !/['\n\\"]/.test(v) && !/^[\s]|[\s]$/.test(v)) return `"${v}"`
  return JSON.stringify(v)
}

/** A block-style YAML emitter for plain data, shaped like go-yaml v2's (kubectl's) output. */
export function toYaml(value, indent = '') {
  let out = ''
  const keys = Object.keys(value).sort()
  for (const key of keys) {
    const v = value[key]
    if (v === undefined) continue
    const k = scalar(key)
    if (Array.isArray(v)) {
      if (v.length === 0) out += `${indent}${k}: []\n`
      else out += `${indent}${k}:\n${seqToYaml(v, indent)}`
    } else if (v !== null && typeof v === 'object') {
      if (Object.keys(v).length === 0) out += `${indent}${k}: {}\n`
      else out += `${indent}${k}:\n${toYaml(v, indent + '  ')}`
    } else out += `${indent}${k}: ${scalar(v)}\n`
  }
  return out
}

function seqToYaml(arr, indent) {
  let out = ''
  for (const item of arr) {
    if (item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length > 0) {
      const body = toYaml(item, indent + '  ')
      out += `${indent}- ${body.slice(indent.length + 2)}`
    } else if (Array.isArray(item)) {
      out += `${indent}- ${JSON.stringify(item)}\n`
    } else out += `${indent}- ${scalar(item)}\n`
  }
  return out
}

/** A map of scalars only, small enough to be written on one line as people write labels. */
const isSmallFlat = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0 && Object.keys(v).length <= 4 && Object.values(v).every((x) => x === null || typeof x !== 'object')

/**
 * The hand-written style of the same data: small maps of scalars in flow style
 * (`labels: {app: web, tier: api}`), a comment above `spec`, and `|` block scalars for multi-line
 * strings. Everything else is block style, as toYaml writes it.
 */
export function toStyledYaml(value, indent = '') {
  let out = ''
  for (const key of Object.keys(value).sort()) {
    const v = value[key]
    if (v === undefined) continue
    const k = scalar(key)
    if (key === 'spec' && indent === '') out += `# the desired state\n`
    if (typeof v === 'string' && v.includes('\n')) {
      out += `${indent}${k}: |\n${v.replace(/\n$/, '').split('\n').map((l) => `${indent}  ${l}`).join('\n')}\n`
    } else if (isSmallFlat(v) && !Object.values(v).some((x) => typeof x === 'string' && x.includes('\n'))) {
      out += `${indent}${k}: {${Object.keys(v).sort().map((x) => `${scalar(x)}: ${scalar(v[x])}`).join(', ')}}\n`
    } else if (Array.isArray(v)) {
      if (v.length === 0) out += `${indent}${k}: []\n`
      else {
        out += `${indent}${k}:\n`
        for (const item of v) {
          if (item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length > 0) {
            const body = toStyledYaml(item, indent + '  ')
            out += `${indent}- ${body.slice(indent.length + 2)}`
          } else out += `${indent}- ${Array.isArray(item) ? JSON.stringify(item) : scalar(item)}\n`
        }
      }
    } else if (v !== null && typeof v === 'object') {
      if (Object.keys(v).length === 0) out += `${indent}${k}: {}\n`
      else out += `${indent}${k}:\n${toStyledYaml(v, indent + '  ')}`
    } else out += `${indent}${k}: ${scalar(v)}\n`
  }
  return out
}

/** The object with a multi-line annotation, so the styled file carries a block scalar per document. */
function withNotes(obj) {
  const note = `${obj.kind} ${obj.metadata.name}\nowned by team ${obj.metadata.namespace}\n`
  return {...obj, metadata: {...obj.metadata, annotations: {...obj.metadata.annotations, 'example.com/notes': note}}}
}

function sortKeysDeep(v) {
  if (Array.isArray(v)) return v.map(sortKeysDeep)
  if (v === null || typeof v !== 'object') return v
  const out = {}
  for (const k of Object.keys(v).sort()) out[k] = sortKeysDeep(v[k])
  return out
}

async function writeAll(stream, chunks) {
  for (const chunk of chunks) {
    if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve))
  }
  await new Promise((resolve, reject) => stream.end((err) => (err ? reject(err) : resolve())))
}

export async function generate({out = 'bench/out', ...params} = {}) {
  mkdirSync(out, {recursive: true})
  const world = makeWorld(params)
  const all = [...world.replicaSets, ...world.pods]
  const yamlPath = join(out, 'bench.yaml')
  const jsonPath = join(out, 'bench.json')
  function* yamlChunks() {
    for (const obj of all) yield `---\n${toYaml(obj)}`
  }
  await writeAll(createWriteStream(yamlPath), yamlChunks())
  const styledPath = join(out, 'bench-styled.yaml')
  function* styledChunks() {
    for (const obj of all) yield `---\n# ${obj.kind.toLowerCase()} ${obj.metadata.namespace}/${obj.metadata.name}\n${toStyledYaml(withNotes(obj))}`
  }
  await writeAll(createWriteStream(styledPath), styledChunks())
  function* jsonChunks() {
    yield '{\n    "apiVersion": "v1",\n    "items": [\n'
    for (let i = 0; i < all.length; i++) {
      const body = JSON.stringify(sortKeysDeep(all[i]), null, 4).replace(/\n/g, '\n        ')
      yield `        ${body}${i + 1 < all.length ? ',' : ''}\n`
    }
    yield '    ],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n'
  }
  await writeAll(createWriteStream(jsonPath), jsonChunks())
  const manifest = {
    params: {...DEFAULTS, ...params},
    replicaSets: world.replicaSets.length,
    pods: world.pods.length,
    scaledDown: world.replicaSets.filter((rs) => rs.spec.replicas < rs.status.replicas).length,
    scaledUp: world.replicaSets.filter((rs) => rs.spec.replicas > rs.status.replicas).length,
  }
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  return {yamlPath, jsonPath, styledPath, manifest}
}

function parseArgs(argv) {
  const opts = {}
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]]
    if (flag === '--replicasets') opts.replicaSets = Number(value)
    else if (flag === '--pods') opts.pods = Number(value)
    else if (flag === '--seed') opts.seed = Number(value)
    else if (flag === '--out') opts.out = value
    else throw new Error(`unknown flag ${flag}`)
  }
  return opts
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now()
  const {yamlPath, jsonPath, manifest} = await generate(parseArgs(process.argv.slice(2)))
  console.log(`wrote ${yamlPath} and ${jsonPath} (${manifest.replicaSets} ReplicaSets, ${manifest.pods} pods) in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
