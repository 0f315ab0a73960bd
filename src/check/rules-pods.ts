// Rules about one pod spec (a controller's pod template, or a Pod):
//   volume-mount-undefined   a container's volumeMount or volumeDevice names no volume of the pod
//                            (ValidateVolumeMounts / ValidateVolumeDevices: "Not found"; a
//                            StatefulSet's pods also get a volume per volumeClaimTemplate).
import type {Path, RawObject} from '../sources/documents.js'
import {checkedKind} from './controllers.js'
import type {Draft} from './draft.js'
import {isMapping, type CheckObject} from './objects.js'

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

/** Where an object's pod spec is: its controller's template, or a Pod's own spec. */
export function podSpecPath(o: CheckObject): Path | undefined {
  const template = checkedKind(o)?.podTemplate
  if (template) return [...template, 'spec']
  if (o.group === '' && o.kind === 'Pod') return ['spec']
  if (o.group === '' && o.kind === 'PodTemplate') return ['template', 'spec']
  return undefined
}

/** The pod spec of an object (podSpecPath), as parsed; undefined when it has none. */
function podSpecOf(o: CheckObject): unknown {
  const template = checkedKind(o)?.podTemplate
  if (template) {
    const t = at(o.src.raw, template)
    return isMapping(t) ? t.spec : undefined
  }
  if (o.group === '' && o.kind === 'Pod') return o.src.raw.spec
  if (o.group === '' && o.kind === 'PodTemplate') return at(o.src.raw, ['template', 'spec'])
  return undefined
}

const NONE: readonly Draft[] = []
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const
const MOUNTS = [
  ['volumeMounts', 'volumeMount'],
  ['volumeDevices', 'volumeDevice'],
] as const

/** The volumes of a pod spec, with those its controller adds (a StatefulSet's claim templates). */
function podVolumes(o: CheckObject, spec: RawObject): Set<string> {
  const volumes = new Set<string>()
  if (Array.isArray(spec.volumes)) for (const v of spec.volumes) if (isMapping(v) && typeof v.name === 'string') volumes.add(v.name)
  const added = checkedKind(o)?.templateVolumes?.(o.src.raw as RawObject) ?? []
  for (const name of added) volumes.add(name)
  return volumes
}

export function podDrafts(o: CheckObject): readonly Draft[] {
  const spec = podSpecOf(o)
  if (!isMapping(spec)) return NONE
  // The volumes are gathered at the first mount that names one (most pod specs mount none).
  let volumes: Set<string> | undefined
  let drafts: Draft[] | undefined
  for (const field of CONTAINER_LISTS) {
    const containers = spec[field]
    if (!Array.isArray(containers)) continue
    for (let i = 0; i < containers.length; i++) {
      const c = containers[i]
      if (!isMapping(c)) continue
      for (const [what, words] of MOUNTS) {
        const mounts = c[what]
        if (!Array.isArray(mounts)) continue
        for (let j = 0; j < mounts.length; j++) {
          const m = mounts[j]
          const name = isMapping(m) ? m.name : undefined
          if (typeof name !== 'string' || name === '') continue // a missing name is the schema's
          volumes ??= podVolumes(o, spec)
          if (volumes.has(name)) continue
          const known = [...volumes]
          const specPath = podSpecPath(o)!
          ;(drafts ??= []).push({
            rule: 'volume-mount-undefined',
            message:
              `${words} ${name} of container ${typeof c.name === 'string' ? c.name : `#${i}`} names no volume of the pod ` +
              `(${known.length > 0 ? `its volumes: ${known.join(', ')}` : 'it defines none'}): the API server rejects ${o.kind === 'Pod' ? 'the Pod' : `this ${o.kind}`} (${[...specPath, field, i, what, j, 'name'].join('.').replace(/\.(\d+)/g, '[$1]')}: Not found)`,
            subject: o,
            path: [...specPath, field, i, what, j, 'name'],
            atKey: false,
          })
        }
      }
    }
  }
  return drafts ?? NONE
}
