// hpa-replicas-conflict: a HorizontalPodAutoscaler's scaleTargetRef names a workload in the input
// whose manifest sets spec.replicas; every apply of that manifest resets the count.
// The workloads it can name are those whose controller runs spec.replicas (CheckedKind.scalable);
// the HPA's own view is read in hpa.ts.
import {checkedKind} from './controllers.js'
import {describeObject, type Draft} from './draft.js'
import {groupOf, resourceGroupOf, type CheckObject} from './objects.js'

export function hpaDrafts(objects: readonly CheckObject[]): Draft[] {
  const targets = new Map<string, CheckObject[]>()
  for (const o of objects) {
    if (!o.controller || !checkedKind(o)?.scalable || o.name === '') continue
    const key = `${o.namespace}|${o.kind}|${o.name}`
    let list = targets.get(key)
    if (!list) targets.set(key, (list = []))
    list.push(o)
  }
  const drafts: Draft[] = []
  const reported = new Set<CheckObject>()
  for (const hpa of objects) {
    const ref = hpa.hpa?.target
    if (!ref) continue
    for (const target of targets.get(`${hpa.namespace}|${ref.kind}|${ref.name}`) ?? []) {
      if (ref.apiVersion !== undefined && resourceGroupOf(groupOf(ref.apiVersion), ref.kind) !== target.resourceGroup) continue
      const replicas = target.controller!.replicas
      if (replicas === undefined || reported.has(target)) continue
      reported.add(target)
      const {minReplicas, maxReplicas} = hpa.hpa!
      const min = minReplicas ?? 1
      const outside = typeof replicas === 'number' && maxReplicas !== undefined && (replicas < min || replicas > maxReplicas) ? `, outside its range ${min}–${maxReplicas},` : ''
      drafts.push({
        rule: 'hpa-replicas-conflict',
        message: `spec.replicas is set, but ${describeObject(hpa)} scales this ${target.kind}: every apply sets the count back to ${JSON.stringify(replicas)}${outside} until the autoscaler scales it again; remove spec.replicas from the manifest`,
        subject: target,
        path: ['spec', 'replicas'],
        atKey: true,
        related: [{object: hpa, path: ['spec', 'scaleTargetRef'], atKey: true, message: `the scaleTargetRef of ${describeObject(hpa)}`}],
        also: [hpa],
      })
    }
  }
  return drafts
}
