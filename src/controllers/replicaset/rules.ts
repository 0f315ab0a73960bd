// What `kctl check` knows about ReplicaSets and ReplicationControllers: their controller views, a
// ReplicationController's selector (a map of labels, defaulted from the template labels by
// SetDefaults_ReplicationController, §5.5, and mutable: the controller then releases and creates
// pods, §5.8.6), and rc-selector-defaulted. Both kinds go through the Normalizer `kctl plan` uses for
// invalid-field, which this adds their pod spec's checks to.
import type {Labels} from '../../model/objects.js'
import {selectorAnchor, type Draft} from '../../check/draft.js'
import {isMapping, readWorkload, type CheckObject, type OwnSelector} from '../../check/objects.js'
import {podSpec, RESTART_ALWAYS} from '../../check/fields.js'
import type {ControllerChecks, SelectorPolicy} from '../../check/part.js'
import type {RawObject} from '../../sources/documents.js'
import type {Ctx} from '../../sources/normalize.js'
import {formatLabels, mapRequirements, mapSelectorProblemsAt} from '../../check/selectors.js'

/** A ReplicationController's selector: a map of labels, defaulted from the template's. */
const RC_SELECTOR: OwnSelector = {
  read(rawSelector, templateLabels, at) {
    const problems = mapSelectorProblemsAt(rawSelector, at)
    if (problems.length > 0) return {selector: {state: 'invalid', problems}}
    if (isMapping(rawSelector) && Object.keys(rawSelector).length > 0) {
      return {selector: {state: 'ok', requirements: mapRequirements(rawSelector as Labels, at), origin: 'written'}}
    }
    if (templateLabels && Object.keys(templateLabels).length > 0) {
      // SetDefaults_ReplicationController (§5.5).
      return {selector: {state: 'ok', requirements: mapRequirements(templateLabels, ['spec', 'template', 'metadata', 'labels']), origin: 'defaulted'}}
    }
    return {selector: rawSelector === undefined || rawSelector === null ? {state: 'missing'} : {state: 'empty'}}
  },
}

const RC_POLICY: SelectorPolicy = {
  form: 'map',
  mutable: (change, now) =>
    `${change}: a ReplicationController's selector can change, so the API server accepts it; the controller then releases every pod that matches only the old selector (orphaned, still running) and creates pods from the template until ${now} selects spec.replicas of them`,
  empty: (state) => `${state === 'missing' ? 'no spec.selector' : 'spec.selector is empty'} and no template labels to default it from: the API server rejects this ReplicationController`,
}

/** rc-selector-defaulted: a ReplicationController whose selector the API server fills in. */
function rcDrafts(obj: CheckObject): Draft[] {
  const c = obj.controller
  if (!c || c.selector.state !== 'ok' || c.selector.origin !== 'defaulted') return []
  const meta = obj.src.raw.metadata as Record<string, unknown> | undefined
  const own = meta && typeof meta === 'object' ? meta.labels : undefined
  const ownLabelsToo = !own || typeof own !== 'object' || Object.keys(own).length === 0
  return [
    {
      rule: 'rc-selector-defaulted',
      message: `${c.rawSelector === undefined || c.rawSelector === null ? 'no spec.selector' : 'spec.selector is empty'}: the API server sets it to the template labels ${formatLabels(c.templateLabels ?? {})}${ownLabelsToo ? ' (and the RC\'s own labels too)' : ''}, so the RC owns every orphaned pod that carries them; write the selector out`,
      subject: obj,
      ...selectorAnchor(obj),
    },
  ]
}

/** What the Normalizer does not look at on RS and RC: the pod template's spec. */
function moreWorkloadChecks(ctx: Ctx, raw: RawObject): void {
  const spec = isMapping(raw.spec) ? raw.spec : undefined
  const template = isMapping(spec?.template) ? spec.template : undefined
  if (template) podSpec(ctx, template.spec, ['spec', 'template', 'spec'], RESTART_ALWAYS, false)
}

export const replicaSetChecks: ControllerChecks = {
  kinds: [
    {
      kind: 'ReplicationController',
      groups: [''],
      read: (obj, spec) => readWorkload(obj, spec, RC_SELECTOR),
      selector: () => RC_POLICY,
      scalable: true,
      podTemplate: ['spec', 'template'],
      live: {prefix: '/api/v1', plural: 'replicationcontrollers', apiVersion: 'v1'},
      drafts: rcDrafts,
      normalized: true,
      validate: moreWorkloadChecks,
    },
    {
      kind: 'ReplicaSet',
      groups: ['apps', 'extensions'],
      read: (obj, spec) => readWorkload(obj, spec),
      scalable: true,
      podTemplate: ['spec', 'template'],
      live: {prefix: '/apis/apps/v1', plural: 'replicasets', apiVersion: 'apps/v1'},
      normalized: true,
      validate: moreWorkloadChecks,
    },
  ],
}
