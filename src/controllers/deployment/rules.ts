// What `kctl check` knows about Deployments: their controller views (an apps/v1 LabelSelector), and
// no-readiness-probe (off unless configured: an opinion).
import type {Path, RawObject} from '../../sources/documents.js'
import type {Draft} from '../../check/draft.js'
import {isMapping, readWorkload, type CheckObject} from '../../check/objects.js'
import type {ControllerChecks} from '../../check/part.js'

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

const TEMPLATE: Path = ['spec', 'template']

/** no-readiness-probe: several replicas whose containers have no readiness probe. */
function deploymentDrafts(o: CheckObject): Draft[] {
  if (!o.controller) return []
  const containers = list(at(o.src.raw, [...TEMPLATE, 'spec', 'containers']))
  // The replicas it runs: spec.replicas, defaulted to 1.
  const r = o.controller.replicas
  const replicas = r === undefined ? 1 : typeof r === 'number' ? r : undefined
  if ((replicas ?? 0) > 1 && containers.length > 0 && !containers.some((c) => isMapping(at(c, ['readinessProbe'])))) {
    return [
      {
        rule: 'no-readiness-probe',
        message: `${replicas} replicas and no readiness probe: a pod counts as ready as soon as its containers start, so a rollout replaces old pods before the new ones serve, and the Service sends them traffic at once`,
        subject: o,
        path: [...TEMPLATE, 'spec', 'containers'],
        atKey: true,
      },
    ]
  }
  return []
}

export const deploymentChecks: ControllerChecks = {
  kinds: [
    {
      kind: 'Deployment',
      groups: ['apps', 'extensions'],
      read: (obj, spec: RawObject | undefined) => readWorkload(obj, spec),
      scalable: true,
      podTemplate: TEMPLATE,
      live: {prefix: '/apis/apps/v1', plural: 'deployments', apiVersion: 'apps/v1'},
      drafts: deploymentDrafts,
    },
  ],
}
