// What `kctl check` knows about Jobs: their controller views (the selector the API server generates
// from the uid unless manualSelector is set, §5.4.6), and
//   pod-failure-policy-unmatchable  a podFailurePolicy rule no failed pod can match (CronJobs' Jobs too);
// and invalid-field's checks of a Job spec (a CronJob's Job template's too).
import type {Labels} from '../../model/objects.js'
import type {Path, RawObject} from '../../sources/documents.js'
import type {Draft} from '../../check/draft.js'
import {isMapping, readWorkload, type CheckObject, type OwnSelector} from '../../check/objects.js'
import {INT32_MAX, metadata, oneOf, specOf, template} from '../../check/fields.js'
import type {ControllerChecks, SelectorPolicy} from '../../check/part.js'
import type {Ctx} from '../../sources/normalize.js'
import {labelSelectorProblemsAt, labelSelectorRequirements, type SourcedRequirement} from '../../check/selectors.js'

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

function at(raw: unknown, path: Path): unknown {
  let v = raw
  for (const step of path) v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[step] : undefined
  return v
}

/** Labels the API server adds to a Job's template when it generates the selector (docs/replicaset-controller.md §5.4.6). */
export const JOB_UID_LABEL = 'batch.kubernetes.io/controller-uid'
const JOB_LABELS = (uid: string, name: string): Labels => ({
  [JOB_UID_LABEL]: uid,
  'batch.kubernetes.io/job-name': name,
  'controller-uid': uid,
  'job-name': name,
})

/** A Job's selector: generated unless manualSelector is set (then a LabelSelector like any other). */
function jobSelector(obj: CheckObject, spec: RawObject | undefined): OwnSelector {
  const manualSelector = spec?.manualSelector === true
  return {
    manualSelector,
    read(rawSelector, templateLabels, at) {
      if (manualSelector || labelSelectorProblemsAt(rawSelector, at).length > 0) return undefined
      // generateSelector (pkg/registry/batch/job/strategy.go): the uid label is added to the
      // selector, uid and job-name labels to the template (labels written by hand are kept).
      const written = isMapping(rawSelector) ? labelSelectorRequirements(rawSelector, at) : []
      const generated: SourcedRequirement = {key: JOB_UID_LABEL, operator: 'In', values: [obj.uid], path: isMapping(rawSelector) ? at : ['spec'], atKey: true}
      return {
        selector: {
          state: 'ok',
          requirements: written.some((r) => r.key === JOB_UID_LABEL && r.operator === 'In') ? written : [...written, generated],
          origin: written.length > 0 ? 'written' : 'generated',
        },
        podLabels: {...JOB_LABELS(obj.uid, obj.name), ...templateLabels},
      }
    },
  }
}

const GENERATED: SelectorPolicy = {
  generated: true,
  named: 'a Job',
  mismatchTail: 'the API server rejects this Job ("selector does not match template labels"); leave the selector out and let it be generated, or set manualSelector: true',
  empty: (state, template) => `manualSelector is true but spec.selector is ${state === 'missing' ? 'missing' : 'empty'}: the API server rejects this Job${template}`,
}
const MANUAL: SelectorPolicy = {named: 'a Job', empty: GENERATED.empty}

/**
 * pod-failure-policy-unmatchable for the Job spec at `jobSpec` (a Job's spec, a CronJob's
 * jobTemplate.spec): podFailurePolicy rules that no failed pod can match (matchPodFailurePolicy).
 */
export function podFailurePolicyDrafts(o: CheckObject, jobSpec: Path): Draft[] {
  const raw = o.src.raw
  const drafts: Draft[] = []
  const draft = (rule: Draft['rule'], path: Path, message: string) => drafts.push({rule, message, subject: o, path, atKey: false})
  const containers = new Set(
    [...list(at(raw, [...jobSpec, 'template', 'spec', 'containers'])), ...list(at(raw, [...jobSpec, 'template', 'spec', 'initContainers']))].map((c) => at(c, ['name'])).filter((n) => typeof n === 'string'),
  )
  list(at(raw, [...jobSpec, 'podFailurePolicy', 'rules'])).forEach((rule, i) => {
    const rp: Path = [...jobSpec, 'podFailurePolicy', 'rules', i]
    const codes = at(rule, ['onExitCodes'])
    if (!isMapping(codes)) return
    const values = list(codes.values)
    if (codes.operator === 'In' && values.length > 0 && values.every((v) => v === 0)) {
      draft('pod-failure-policy-unmatchable', [...rp, 'onExitCodes', 'values'], 'onExitCodes In [0] never matches: only containers that exit with a non-zero code are looked at')
    }
    if (typeof codes.containerName === 'string' && !containers.has(codes.containerName)) {
      draft('pod-failure-policy-unmatchable', [...rp, 'onExitCodes', 'containerName'], `containerName ${codes.containerName} names no container of the pod template: the rule never matches`)
    }
  })
  return drafts
}

/** The restartPolicy a Job's pods may have (required: the default, Always, is rejected). */
const JOB_RESTART_POLICIES: readonly string[] = ['OnFailure', 'Never']

/** invalid-field: a Job spec's fields (a Job's spec, a CronJob's jobTemplate.spec at `base`). */
export function jobSpec(ctx: Ctx, spec: RawObject, base: Path): void {
  ctx.int(spec.parallelism, [...base, 'parallelism'], 0, INT32_MAX)
  ctx.int(spec.completions, [...base, 'completions'], 0, INT32_MAX)
  ctx.int(spec.backoffLimit, [...base, 'backoffLimit'], 0, INT32_MAX)
  const deadline = ctx.int(spec.activeDeadlineSeconds, [...base, 'activeDeadlineSeconds'], 0, Number.MAX_SAFE_INTEGER)
  if (deadline === 0) ctx.fail([...base, 'activeDeadlineSeconds'], 'must be greater than 0')
  ctx.int(spec.ttlSecondsAfterFinished, [...base, 'ttlSecondsAfterFinished'], 0, INT32_MAX)
  ctx.bool(spec.manualSelector, [...base, 'manualSelector'])
  ctx.bool(spec.suspend, [...base, 'suspend'])
  if (spec.completionMode !== undefined) oneOf(ctx, spec.completionMode, [...base, 'completionMode'], ['NonIndexed', 'Indexed'])
  template(ctx, spec.template, [...base, 'template'], JOB_RESTART_POLICIES, true)
}

function job(ctx: Ctx, raw: RawObject): void {
  metadata(ctx, raw, 'subdomain')
  jobSpec(ctx, specOf(ctx, raw), ['spec'])
}

export const jobChecks: ControllerChecks = {
  kinds: [
    {
      kind: 'Job',
      groups: ['batch'],
      read: (obj, spec) => readWorkload(obj, spec, jobSelector(obj, spec)),
      selector: (c) => (c.manualSelector ? MANUAL : GENERATED),
      podTemplate: ['spec', 'template'],
      live: {prefix: '/apis/batch/v1', plural: 'jobs', apiVersion: 'batch/v1'},
      drafts: (o) => podFailurePolicyDrafts(o, ['spec']),
      validate: job,
    },
  ],
}
