// Parsed objects → CheckObjects (objects.ts): identity, ignores, and the views the rules look at.
// The kinds a controller syncs are read by its check part (part.ts, found through controllers.ts);
// Pods and PodTemplates, which no controller here syncs, are read here.
import {inventedUid} from '../sources/normalize.js'
import {SourceObject} from '../sources/documents.js'
import {checkedKind} from './controllers.js'
import {parseIgnore, IGNORE_ANNOTATION} from './ignore.js'
import type {Labels} from '../model/objects.js'
import type {Path} from '../sources/documents.js'
import type {IgnoreEntry} from './ignore.js'
import type {CheckedKind} from './part.js'
import {groupOf, isClusterScoped, isMapping, resourceGroupOf, stringMap, type CheckObject, type ControllerView, type HpaView, type PodSpecView, readPodSpec, type ServiceView} from './objects.js'

/**
 * A CheckObject as read, and its own SourceObject (`src` is itself): one record kept per object to
 * the end of a run rather than two. One class, with every view a reader may set present from the
 * start: all objects share one shape whatever their kind, and the rules' lookups across kinds stay fast.
 */
class ReadObject extends SourceObject implements CheckObject {
  controller?: ControllerView
  podLabels?: Labels
  podLabelsPath?: Path
  podSpec?: PodSpecView
  service?: ServiceView
  hpa?: HpaView
  /** The uid written, or invented already (generateName); undefined until asked otherwise. */
  #uid: string | undefined
  /** The kctl.io/ignore annotation read (most often NO_IGNORES, shared). */
  readonly #ignore: {entries: IgnoreEntry[]; problems: string[]}
  readonly #apiVersion: string
  readonly #kind: string

  constructor(
    src: SourceObject,
    readonly group: string,
    readonly resourceGroup: string,
    readonly namespace: string,
    readonly explicitNamespace: boolean,
    readonly name: string,
    uid: string | undefined,
    readonly controllerRefs: ReadonlyArray<{apiVersion: string; kind: string; name: string}>,
    ignore: {entries: IgnoreEntry[]; problems: string[]},
    readonly part: CheckedKind | null,
  ) {
    super(src.raw, src.locator, src.ordinal)
    this.#apiVersion = src.apiVersion
    this.#kind = src.kind
    this.#uid = uid
    this.#ignore = ignore
    this.controller = undefined
    this.podLabels = undefined
    this.podLabelsPath = undefined
    this.podSpec = undefined
    this.service = undefined
    this.hpa = undefined
  }

  get src(): SourceObject {
    return this
  }

  /** Read once, while the parsed form is at hand: it may be let go (engine.ts releaseParsed). */
  override get apiVersion(): string {
    return this.#apiVersion
  }

  override get kind(): string {
    return this.#kind
  }

  get ignores(): IgnoreEntry[] {
    return this.#ignore.entries
  }

  get ignoreProblems(): string[] {
    return this.#ignore.problems
  }

  /** Invented only when a rule asks (a Job's generated selector): hashing every object costs. */
  get uid(): string {
    return (this.#uid ??= inventedUid(this.resourceGroup, this.kind, this.namespace, this.name))
  }
}

/** What most objects have: no controller reference, no ignore annotation (shared, never written to: objects are kept to the end of a run). */
const NONE: never[] = []
const NO_IGNORES: {entries: IgnoreEntry[]; problems: string[]} = {entries: NONE, problems: NONE}

/** The kctl.io/ignore annotation when it is a string (no rule reads the other annotations: they are not kept). */
function ignoreAnnotation(annotations: unknown): string | undefined {
  if (!isMapping(annotations) || !Object.hasOwn(annotations, IGNORE_ANNOTATION)) return undefined
  const v = annotations[IGNORE_ANNOTATION]
  return typeof v === 'string' ? v : undefined
}

export function readCheckObject(src: SourceObject, defaultNamespace: string): CheckObject {
  const raw = src.raw
  const apiVersion = src.apiVersion
  const kind = src.kind
  const group = groupOf(apiVersion)
  const meta = isMapping(raw.metadata) ? raw.metadata : {}
  const explicitNamespace = typeof meta.namespace === 'string' && meta.namespace !== ''
  const namespace = isClusterScoped(group, kind) ? '' : explicitNamespace ? (meta.namespace as string) : defaultNamespace
  const name = typeof meta.name === 'string' ? meta.name : ''
  const resourceGroup = resourceGroupOf(group, kind)
  // An object named by generateName gets a name (and uid) of its own when created: two such
  // objects never share one. Its uid is invented now (such objects are few).
  const uid =
    typeof meta.uid === 'string' && meta.uid !== ''
      ? meta.uid
      : name === '' && typeof meta.generateName === 'string'
        ? inventedUid(resourceGroup, kind, namespace, `${meta.generateName}<${src.ordinal}>`)
        : undefined
  let controllerRefs: Array<{apiVersion: string; kind: string; name: string}> = NONE
  if (Array.isArray(meta.ownerReferences)) {
    for (const r of meta.ownerReferences) {
      if (isMapping(r) && r.controller === true && typeof r.kind === 'string' && typeof r.name === 'string') {
        if (controllerRefs === NONE) controllerRefs = []
        controllerRefs.push({apiVersion: typeof r.apiVersion === 'string' ? r.apiVersion : '', kind: r.kind, name: r.name})
      }
    }
  }
  const ignoreValue = ignoreAnnotation(meta.annotations)
  const ignore = ignoreValue === undefined ? NO_IGNORES : parseIgnore(ignoreValue)
  const reader = checkedKind({kind, group})
  const obj = new ReadObject(src, group, resourceGroup, namespace, explicitNamespace, name, uid, controllerRefs, ignore, reader ?? null)
  const spec = isMapping(raw.spec) ? raw.spec : undefined
  if (reader) {
    reader.read(obj, spec)
  } else if (kind === 'PodTemplate' && group === '') {
    const template = isMapping(raw.template) ? raw.template : undefined
    if (template) {
      obj.podLabels = stringMap(isMapping(template.metadata) ? template.metadata.labels : undefined)
      obj.podLabelsPath = ['template', 'metadata', 'labels']
    }
  } else if (kind === 'Pod' && group === '') {
    obj.podLabels = stringMap(meta.labels)
    obj.podLabelsPath = ['metadata', 'labels']
  }
  // The pod spec beside the pod labels: what the rules over several objects read of it, taken now.
  if (obj.podLabelsPath) obj.podSpec = readPodSpec(raw, obj.podLabelsPath)
  return obj
}
