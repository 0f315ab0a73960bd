// What-ifs applied to the world before anything is planned: --scale, --set-image and
// --apply-manifests. Each changes the stored objects as the API server would store the change
// (the spec changed, generation raised by one), so the controllers then see a new spec.
import type {MemoryWorld, RawObject} from '../apply/memory-world.js'
import {UserError} from '../errors.js'
import type {Origin} from '../model/objects.js'
import {kubectlApply, MergeError, storedUpdate, type KubectlApply} from './apply-merge.js'
import {simulatedControllers, simulationOf} from './controllers.js'

type Obj = Record<string, any>

/** `deployment/web=10` (also `deploy/web`, `replicaset/x`, `rs/x`, `statefulset/x`, `sts/x`; `ns/` prefix not taken: use -n). */
export interface ScaleChange {
  kind: string
  name: string
  replicas: number
}

/** `deployment/web=c=nginx:1.28`: container c's image. */
export interface ImageChange {
  kind: string
  name: string
  container: string
  image: string
}

/** The KIND words of --scale and --set-image, from the simulated controllers' parts (deployment, deploy, rs, sts, ...). */
function kindNamed(word: string): string | undefined {
  for (const c of simulatedControllers()) {
    const kind = c.simulation.targets?.[word]
    if (kind !== undefined && Object.hasOwn(c.simulation.targets!, word)) return kind
  }
  return undefined
}

export function parseTarget(text: string, flag: string, example: string): {kind: string; name: string; rest: string} {
  const m = /^([A-Za-z]+)\/([a-z0-9.-]+)=(.*)$/.exec(text.trim())
  const kind = m ? kindNamed(m[1].toLowerCase()) : undefined
  if (!m || !kind) throw new UserError(`invalid ${flag} "${text}": expected ${example}`)
  return {kind, name: m[2], rest: m[3]}
}

export function parseScale(text: string): ScaleChange {
  const {kind, name, rest} = parseTarget(text, '--scale', 'KIND/NAME=REPLICAS, e.g. deployment/web=10')
  const unscalable = simulationOf(kind)?.unscalable
  if (unscalable !== undefined) throw new UserError(`invalid --scale "${text}": ${unscalable}`)
  if (!/^\d+$/.test(rest) || Number(rest) > 2 ** 31 - 1) throw new UserError(`invalid --scale "${text}": "${rest}" is not a replica count`)
  return {kind, name, replicas: Number(rest)}
}

export function parseSetImage(text: string): ImageChange {
  const {kind, name, rest} = parseTarget(text, '--set-image', 'KIND/NAME=CONTAINER=IMAGE, e.g. deployment/web=web=nginx:1.28')
  const eq = rest.indexOf('=')
  if (eq <= 0 || eq === rest.length - 1) throw new UserError(`invalid --set-image "${text}": expected KIND/NAME=CONTAINER=IMAGE, e.g. deployment/web=web=nginx:1.28`)
  return {kind, name, container: rest.slice(0, eq), image: rest.slice(eq + 1)}
}

/** Sets spec.replicas; says what it did. */
export function applyScale(world: MemoryWorld, namespace: string, change: ScaleChange): string {
  const at = located(world, change.kind, namespace, change.name, '--scale')
  const from = at.object.spec?.replicas ?? 1
  world.replace(at, withSpec(world, at.object, {...at.object.spec, replicas: change.replicas}))
  return `${change.kind} ${namespace}/${change.name}: replicas ${from} → ${change.replicas}`
}

/** Sets one container's image in the pod template; says what it did. */
export function applySetImage(world: MemoryWorld, namespace: string, change: ImageChange): string {
  const at = located(world, change.kind, namespace, change.name, '--set-image')
  const template: Obj = at.object.spec?.template ?? {}
  const containers: Obj[] = Array.isArray(template.spec?.containers) ? template.spec.containers : []
  const i = containers.findIndex((c) => c.name === change.container)
  if (i < 0) {
    throw new UserError(`--set-image: ${change.kind} ${namespace}/${change.name} has no container "${change.container}"`, {
      hint: `its containers: ${containers.map((c) => c.name).join(', ') || 'none'}`,
    })
  }
  const from = containers[i].image
  const next = containers.map((c, j) => (j === i ? {...c, image: change.image} : c))
  world.replace(at, withSpec(world, at.object, {...at.object.spec, template: {...template, spec: {...template.spec, containers: next}}}))
  return `${change.kind} ${namespace}/${change.name}: container ${change.container} image ${from} → ${change.image}`
}

/** Where a manifest came from, to point at a field kubectl apply would refuse. */
export interface ManifestSource {
  /** The manifest's file position of a field path; its own start for []. */
  locate(path: Array<string | number>): Origin
}

/**
 * A manifest applied as `kubectl apply -f` (client-side) applies it: merged onto the stored object
 * with the strategic merge patch kubectl computes (apply-merge.ts: three-way against the
 * last-applied annotation when the object has one, else two-way), the annotation then written,
 * and stored as the API server stores an update (storedUpdate). A new object is created with the
 * annotation, as kubectl creates it.
 * `stored`: the manifest already is the API server's answer to a dry run of the apply, made as
 * `stored` says (a live cluster's).
 */
export function applyManifest(world: MemoryWorld, manifest: RawObject, defaultNamespace: string, opts: {stored?: string; source?: ManifestSource} = {}): string {
  const m = manifest as Obj
  const kind = String(m.kind)
  const namespace = typeof m.metadata?.namespace === 'string' && m.metadata.namespace !== '' ? m.metadata.namespace : defaultNamespace
  const name = String(m.metadata?.name)
  const at = world.find(kind, namespace, name)
  if (opts.stored) {
    if (at) world.replace(at, m)
    else world.add(world.files[0], m)
    return `${kind} ${namespace}/${name}: ${at ? (JSON.stringify(at.object.spec) === JSON.stringify(m.spec) ? 'spec unchanged' : 'spec changed') : 'created'} (${opts.stored})`
  }
  const applied = kubectlMerge(m, at?.object, namespace, `${kind} ${namespace}/${name}`, opts.source)
  if (!at) {
    const metadata = {...applied.object.metadata, generation: 1, resourceVersion: world.nextResourceVersion(), creationTimestamp: world.now().replace(/\.\d+Z$/, 'Z')}
    world.add(world.files[0], {...applied.object, metadata})
    return `${kind} ${namespace}/${name}: created (kubectl apply)`
  }
  const how = applied.threeWay ? 'kubectl apply: three-way merge with the last-applied configuration' : 'kubectl apply: two-way merge, no last-applied configuration'
  const stored = storedUpdate(at.object, applied.object)
  if (!stored.changed) return `${kind} ${namespace}/${name}: unchanged (${how})`
  world.replace(at, {...stored.object, metadata: {...stored.object.metadata, resourceVersion: world.nextResourceVersion()}})
  return `${kind} ${namespace}/${name}: spec ${stored.specChanged ? 'changed' : 'unchanged'} (${how})`
}

/** kubectlApply, its refusals as one line at the manifest's field (or naming the object). */
export function kubectlMerge(manifest: Obj, live: Obj | undefined, namespace: string, what: string, source?: ManifestSource): KubectlApply {
  try {
    return kubectlApply(manifest, live, namespace)
  } catch (e) {
    if (!(e instanceof MergeError)) throw e
    const where = e.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('')
    if (e.inManifest && source) throw new UserError(`--apply-manifests: ${what}: ${where.slice(1)}: ${e.message}`, {origin: source.locate(e.path), hint: 'kubectl apply would refuse this manifest too'})
    throw new UserError(`--apply-manifests: ${what} cannot be merged as kubectl apply merges it: ${where ? `${where.slice(1)}: ` : ''}${e.message}`, {
      hint: e.inManifest ? 'kubectl apply would refuse this manifest too' : 'the stored object is what kubectl would refuse',
    })
  }
}

function located(world: MemoryWorld, kind: string, namespace: string, name: string, flag: string) {
  const at = world.find(kind, namespace, name)
  if (!at) throw new UserError(`${flag}: no ${kind} "${name}" in namespace "${namespace}" was read`, {hint: 'name one of the objects read (-n for another namespace)'})
  return at
}

/**
 * A spec change as the API server stores it: generation + 1, a new resourceVersion, and what the
 * kind's strategy adds (a DaemonSet whose template changed: its template generation + 1, which is
 * how the controller tells old pods from new).
 */
function withSpec(world: MemoryWorld, o: Obj, spec: Obj): Obj {
  const generation = Number(o.metadata?.generation ?? 1)
  const metadata: Obj = {...o.metadata, generation: generation + 1, resourceVersion: world.nextResourceVersion()}
  const stored = simulationOf(String(o.kind))?.storedSpec
  return {...o, metadata: stored ? stored(o, spec, metadata) : metadata, spec}
}
