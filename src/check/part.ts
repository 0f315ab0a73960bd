// What a controller gives `kctl check`: the kinds whose objects it reads into the views the rules
// look at, how each kind's selector is judged, and its kind-specific rules. The check engine, the
// catalog (rules.ts), schemas, reports, baseline, ignores and configuration stay shared; the shared
// rules (selectors, overlaps, PodDisruptionBudgets, HPAs, images) ask these parts instead of naming
// kinds. check/controllers.ts gathers the parts from the registry.
import type {Path, RawObject} from '../sources/documents.js'
import type {Ctx} from '../sources/normalize.js'
import type {Draft} from './draft.js'
import type {CheckObject, ControllerView, Previous} from './objects.js'
import type {Scope} from './scope.js'

/** How the rules judge a controller's selector; every field defaults to an apps/v1 LabelSelector. */
export interface SelectorPolicy {
  /** 'map': the selector is a map of labels (ReplicationController), not a LabelSelector. */
  form?: 'map'
  /** The API server generates it from the uid (a Job without manualSelector): no update compares it. */
  generated?: boolean
  /** The selector may change on update (immutable-selector-change is then a warning with this message). */
  mutable?(change: string, now: string): string
  /** How the immutable-selector-change message names the object (default `an apps/v1 <Kind>`). */
  named?: string
  /** empty-selector's message (default: spec.selector is required / selects every pod). */
  empty?(state: 'missing' | 'empty', templateHint: string): string
  /** What ends selector-template-mismatch's message (default: the API server rejects this <Kind>). */
  mismatchTail?: string
}

/** Where `--against-cluster` reads a live object of the kind (its current version). */
export interface LiveResource {
  prefix: string
  plural: string
  apiVersion: string
}

/** One kind a controller syncs, as the check rules see it. */
export interface CheckedKind {
  kind: string
  /** The API groups (as written) its objects are read in. */
  groups: readonly string[]
  /** Fills in the views the rules look at (controller, podLabels, service, hpa). */
  read(obj: CheckObject, spec: RawObject | undefined): void
  /** How its selector is judged (kinds with a controller view). */
  selector?(view: ControllerView): SelectorPolicy
  /** Its objects run spec.replicas pods (1 when unset): PodDisruptionBudget arithmetic and HPA targets. */
  scalable?: true
  /** Where its pod template is (image-latest, volume-mount-undefined, hpa-missing-requests). */
  podTemplate?: Path
  /** Volumes its pods get beyond the template's spec.volumes (a StatefulSet's volumeClaimTemplates), by name. */
  templateVolumes?(raw: RawObject): string[]
  /** Where `--against-cluster` reads it (immutable-selector-change). */
  live?: LiveResource
  /** Its own rules about one object of the kind. */
  drafts?(obj: CheckObject): Draft[]
  /** Read by the Normalizer `kctl plan` uses: invalid-field words its problems as plan does. */
  normalized?: true
  /** invalid-field: its fields as the API server validates them (beyond what the Normalizer checks). */
  validate?(ctx: Ctx, raw: RawObject): void
}

export interface ControllerChecks {
  kinds: readonly CheckedKind[]
  /**
   * Its rules about the objects of one apply set: conflicts are judged within `objects` (what is
   * applied together); what they refer to is looked up nearest first through `scope` (scope.ts).
   */
  setDrafts?(objects: readonly CheckObject[], scope: Scope): Draft[]
  /** Its rules against what the objects replace (a previous render or the live objects). */
  previousDrafts?(objects: readonly CheckObject[], previous: Previous, identity: (o: CheckObject) => string): Draft[]
}

export interface CheckPart {
  check: ControllerChecks
}
