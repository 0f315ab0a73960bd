// A finding before it has a position, a severity from the configuration, or a place in the report.
// Positions are computed only for findings that survive configuration, ignores and the baseline:
// each one reads the object's text again (sources/documents.ts Locator).
import {objectTitle, type RuleId, type Severity} from '../model/check.js'
import type {Origin} from '../model/objects.js'
import type {Path} from '../sources/documents.js'
import type {CheckObject} from './objects.js'

export interface RelatedDraft {
  object: CheckObject
  path: Path
  atKey: boolean
  message: string
}

export interface Draft {
  rule: RuleId
  /** The finding's own default severity when it differs from the rule's (deprecated vs removed). */
  severity?: Severity
  message: string
  /** The object the finding is about; absent for inputs that could not be read as objects. */
  subject?: CheckObject
  /** The field, relative to the object; [] for the object itself. */
  path: Path
  /** Point at the field's key rather than its value. */
  atKey: boolean
  /** A position known already (parse errors). */
  origin?: Origin
  /** A position computed on demand by someone else (the Normalizer's problems). */
  lazyOrigin?: () => Origin
  related?: RelatedDraft[]
  /** Other objects whose kctl.io/ignore annotation may also silence this finding (the other side of a pair). */
  also?: CheckObject[]
}

/** Where a controller's selector is written, or the field it would be defaulted from. */
export function selectorAnchor(obj: CheckObject): {path: Path; atKey: boolean} {
  const c = obj.controller
  if (c && c.rawSelector !== undefined && c.rawSelector !== null) return {path: ['spec', 'selector'], atKey: true}
  if (c?.templateLabels && Object.keys(c.templateLabels).length > 0) return {path: ['spec', 'template', 'metadata', 'labels'], atKey: true}
  return {path: ['spec', 'selector'], atKey: true}
}

/** `Deployment default/web`. */
export function describeObject(obj: CheckObject): string {
  return objectTitle(obj)
}
