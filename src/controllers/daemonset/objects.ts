// The request bodies of the DaemonSet controller's creates, built from the plan's action and the
// controller as read now (whose resourceVersion is the plan's, so its template is the one planned
// from); what it shares with the StatefulSet controller is in apply/revisioned-objects.ts.
import type {CreateDaemonPodAction} from './model.js'
import type {PodManifest} from '../../apply/pod-control.js'
import {podManifest} from '../../apply/revisioned-objects.js'

type Obj = Record<string, any>

/** CreatePodTemplate + ReplaceDaemonSetPodNodeNameNodeAffinity: the template with the planned labels, node affinity and tolerations. */
export function daemonPodObject(action: CreateDaemonPodAction, namespace: string, set: Obj): PodManifest {
  const template = (set.spec?.template ?? {}) as Obj
  const spec = structuredClone(template.spec ?? {}) as Obj
  spec.affinity = structuredClone(action.affinity)
  if (action.tolerations.length > 0) spec.tolerations = action.tolerations.map((t) => ({...t}))
  return podManifest({generateName: action.generateName, namespace, labels: {...action.labels}, template, owner: action.ownerReference, spec})
}
