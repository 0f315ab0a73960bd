// PersistentVolumeClaims of a StatefulSet's pods (pkg/controller/statefulset/stateful_set_utils.go):
// their names and labels, and the owner references the retention policy asks for
// (isClaimOwnerUpToDate, updateClaimOwnerRefForSetAndPod).
import type {Labels, OwnerReference} from '../../model/objects.js'
import type {ClaimView, StatefulSetView} from './model.js'

/** getPersistentVolumeClaimName: `<template>-<set>-<ordinal>`. */
export function claimName(template: string, set: StatefulSetView, ordinal: number): string {
  return `${template}-${set.name}-${ordinal}`
}

/** getPersistentVolumeClaims' labels: the template's, overlaid with the selector's matchLabels (S5.1). */
export function claimLabels(set: StatefulSetView, templateLabels: Labels): Labels {
  const match = set.selector?.matchLabels ?? {}
  return Object.keys(templateLabels).length === 0 ? {...match} : {...templateLabels, ...match}
}

interface Owner {
  kind: 'StatefulSet' | 'Pod'
  apiVersion: string
  name: string
  uid: string
}

const matchesRef = (ref: OwnerReference, o: Owner) => ref.apiVersion === o.apiVersion && ref.kind === o.kind && ref.name === o.name
const hasOwnerRef = (claim: ClaimView, o: Owner) => claim.ownerReferences.some((r) => r.uid === o.uid)
const hasStaleOwnerRef = (claim: ClaimView, o: Owner) => {
  const ref = claim.ownerReferences.find((r) => matchesRef(r, o))
  return ref !== undefined && ref.uid !== o.uid
}

export function setOwner(set: StatefulSetView): Owner {
  return {kind: 'StatefulSet', apiVersion: 'apps/v1', name: set.name, uid: set.uid}
}

export function podOwner(name: string, uid: string): Owner {
  return {kind: 'Pod', apiVersion: 'v1', name, uid}
}

/** PodClaimIsStale (S5.4): a claim still names an earlier pod of this name (another uid). */
export function claimIsStale(set: StatefulSetView, claim: ClaimView, pod: Owner): boolean {
  return set.retention.whenScaled !== 'Retain' && hasStaleOwnerRef(claim, pod)
}

function hasUnexpectedController(claim: ClaimView, set: StatefulSetView, pod: Owner): boolean {
  if (set.retention.whenScaled === 'Retain' && set.retention.whenDeleted === 'Retain') return false
  for (const ref of claim.ownerReferences) {
    const us = [setOwner(set), pod].find((o) => matchesRef(ref, o))
    if (us) {
      if (ref.uid !== us.uid) return true
      continue
    }
    if (ref.controller === true) return true
  }
  return false
}

/**
 * The claim's owner references after UpdatePodClaimForRetentionPolicy, or undefined when they are
 * already right (S5.3): Delete on deletion → the set as controller; Delete on scale-down → a
 * condemned pod as controller. Stale references are left alone; another controller wins.
 */
export function claimOwnersToWrite(claim: ClaimView, set: StatefulSetView, pod: Owner, inRange: boolean): OwnerReference[] | undefined {
  const us = setOwner(set)
  if (hasStaleOwnerRef(claim, us) || hasStaleOwnerRef(claim, pod)) return undefined
  const unexpected = hasUnexpectedController(claim, set, pod)
  const upToDate = (() => {
    if (unexpected) return !(hasOwnerRef(claim, us) || hasOwnerRef(claim, pod))
    if (claim.ownerReferences.some((r) => (r.uid === us.uid || r.uid === pod.uid) && r.controller !== true)) return false
    const {whenScaled, whenDeleted} = set.retention
    const setRef = hasOwnerRef(claim, us)
    const podRef = hasOwnerRef(claim, pod)
    if (whenScaled === 'Retain' && whenDeleted === 'Retain') return !setRef && !podRef
    if (whenScaled === 'Retain') return setRef && !podRef
    if (whenDeleted === 'Retain') return !setRef && !inRange === podRef
    return inRange === setRef && !inRange === podRef
  })()
  if (upToDate) return undefined
  const refs = claim.ownerReferences.filter((r) => !matchesRef(r, us) && !matchesRef(r, pod))
  if (unexpected) return refs
  const controllerRef = (o: Owner): OwnerReference => ({apiVersion: o.apiVersion, kind: o.kind, name: o.name, uid: o.uid, controller: true, blockOwnerDeletion: true})
  if (set.retention.whenDeleted === 'Delete' && (inRange || set.retention.whenScaled === 'Retain')) refs.push(controllerRef(us))
  if (set.retention.whenScaled === 'Delete' && !inRange) refs.push(controllerRef(pod))
  return refs
}
