// Rules about one pod spec (a controller's pod template, or a Pod):
//   volume-mount-undefined   a container's volumeMount or volumeDevice names no volume of the pod
//                            (ValidateVolumeMounts / ValidateVolumeDevices: "Not found"; a
//                            StatefulSet's pods also get a volume per volumeClaimTemplate).
import type {Path, RawObject} from '../sources/documents.js'
import {checkedKind} from './controllers.js'
import type {Draft} from './draft.js'
import {isMapping, type CheckObject} from './objects.js'

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

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

export function podDrafts(o: CheckObject): Draft[] {
  const specPath = podSpecPath(o)
  if (!specPath) return []
  const spec = at(o.src.raw, specPath)
  if (!isMapping(spec)) return []
  const volumes = new Set<string>()
  for (const v of list(spec.volumes)) if (isMapping(v) && typeof v.name === 'string') volumes.add(v.name)
  const added = checkedKind(o)?.templateVolumes?.(o.src.raw as RawObject) ?? []
  for (const name of added) volumes.add(name)
  const drafts: Draft[] = []
  for (const field of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    list(spec[field]).forEach((c, i) => {
      if (!isMapping(c)) return
      for (const [what, words] of [
        ['volumeMounts', 'volumeMount'],
        ['volumeDevices', 'volumeDevice'],
      ] as const) {
        list(c[what]).forEach((m, j) => {
          const name = isMapping(m) ? m.name : undefined
          if (typeof name !== 'string' || name === '' || volumes.has(name)) return // a missing name is the schema's
          const known = [...volumes]
          drafts.push({
            rule: 'volume-mount-undefined',
            message:
              `${words} ${name} of container ${typeof c.name === 'string' ? c.name : `#${i}`} names no volume of the pod ` +
              `(${known.length > 0 ? `its volumes: ${known.join(', ')}` : 'it defines none'}): the API server rejects ${o.kind === 'Pod' ? 'the Pod' : `this ${o.kind}`} (${[...specPath, field, i, what, j, 'name'].join('.').replace(/\.(\d+)/g, '[$1]')}: Not found)`,
            subject: o,
            path: [...specPath, field, i, what, j, 'name'],
            atKey: false,
          })
        })
      }
    })
  }
  return drafts
}
