// Parsed objects → CheckObjects (objects.ts): identity, ignores, and the views the rules look at.
// The kinds a controller syncs are read by its check part (part.ts, found through controllers.ts);
// Pods and PodTemplates, which no controller here syncs, are read here.
import {inventedUid} from '../sources/normalize.js'
import type {SourceObject} from '../sources/documents.js'
import {checkedKind} from './controllers.js'
import {parseIgnore, IGNORE_ANNOTATION} from './ignore.js'
import {groupOf, isClusterScoped, isMapping, resourceGroupOf, stringMap, type CheckObject} from './objects.js'

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
  // objects never share one.
  const generated = name === '' && typeof meta.generateName === 'string' ? `${meta.generateName}<${src.ordinal}>` : name
  // Invented only when a rule asks (a Job's generated selector): hashing every object costs.
  let uid = typeof meta.uid === 'string' && meta.uid !== '' ? meta.uid : undefined
  const annotations = stringMap(meta.annotations)
  const controllerRefs: Array<{apiVersion: string; kind: string; name: string}> = []
  if (Array.isArray(meta.ownerReferences)) {
    for (const r of meta.ownerReferences) {
      if (isMapping(r) && r.controller === true && typeof r.kind === 'string' && typeof r.name === 'string') {
        controllerRefs.push({apiVersion: typeof r.apiVersion === 'string' ? r.apiVersion : '', kind: r.kind, name: r.name})
      }
    }
  }
  const ignoreValue = annotations[IGNORE_ANNOTATION]
  const {entries, problems} = ignoreValue === undefined ? {entries: [], problems: []} : parseIgnore(ignoreValue)
  const obj: CheckObject = {
    src,
    apiVersion,
    kind,
    group,
    resourceGroup,
    namespace,
    explicitNamespace,
    name,
    get uid() {
      return (uid ??= inventedUid(resourceGroup, kind, namespace, generated))
    },
    annotations,
    controllerRefs,
    ignores: entries,
    ignoreProblems: problems,
    // Every view a reader may set, set here first: all objects then share one shape, and the rules
    // that read them across kinds stay fast (property lookups that see one shape, not one per kind).
    controller: undefined,
    podLabels: undefined,
    podLabelsPath: undefined,
    service: undefined,
    hpa: undefined,
  }
  const spec = isMapping(raw.spec) ? raw.spec : undefined
  const reader = checkedKind(obj)
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
  return obj
}
