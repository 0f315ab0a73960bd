// The value `kctl check` produces: findings about manifests, each tied to the field it is about.
// Its JSON form is the wire contract `kctl/v1alpha1` CheckReport (docs/output.md); every other
// format (text, SARIF, JUnit, GitHub annotations, Markdown) renders the same value.

export const CHECK_API_VERSION = 'kctl/v1alpha1'
export const CHECK_REPORT_KIND = 'CheckReport'
export const CHECK_RULES_KIND = 'CheckRuleList'

export type Severity = 'error' | 'warning' | 'info'

/** Most severe first. */
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info']

/** error > warning > info. */
export function severityRank(s: Severity): number {
  return s === 'error' ? 3 : s === 'warning' ? 2 : 1
}

/** Whether `s` is at or above `threshold` (`--fail-on`). */
export function atOrAbove(s: Severity, threshold: Severity): boolean {
  return severityRank(s) >= severityRank(threshold)
}

export const RULE_IDS = [
  'parse-error',
  'invalid-field',
  'duplicate-object',
  'deprecated-api',
  'invalid-selector',
  'empty-selector',
  'selector-template-mismatch',
  'rc-selector-defaulted',
  'overlapping-selectors',
  'immutable-selector-change',
  'service-selects-nothing',
  'service-target-port-undefined',
  'publish-not-ready-without-probe',
  'lb-local-selects-nothing',
  'hpa-replicas-conflict',
  'hpa-replicas-out-of-range',
  'hpa-target-missing',
  'hpa-missing-requests',
  'invalid-ignore',
  'unknown-field',
  'invalid-type',
  'missing-field',
  'invalid-value',
  'unknown-api-version',
  'api-version-not-enabled',
  'ingress-backend-missing',
  'statefulset-service-missing',
  'daemonset-no-eligible-node',
  'immutable-claim-templates-change',
  'pdb-selects-nothing',
  'pdb-blocks-eviction',
  'networkpolicy-selects-nothing',
  'volume-mount-undefined',
  'no-readiness-probe',
  'image-latest',
  'cronjob-schedule',
  'cronjob-time-zone',
  'cronjob-forbid-overlap',
  'pod-failure-policy-unmatchable',
] as const

export type RuleId = (typeof RULE_IDS)[number]

export function isRuleId(s: string): s is RuleId {
  return (RULE_IDS as readonly string[]).includes(s)
}

/** A rule as `kctl check --rules` shows it. */
export interface RuleInfo {
  id: RuleId
  /** The severity of its findings unless a finding says otherwise (see `severities`) or config overrides it. */
  severity: Severity
  /** When some findings of the rule have another default severity: which, and when. */
  severities?: string
  /** One line: what the rule finds. */
  summary: string
  /** Why it matters and what the API server or the controllers would do; a few sentences. */
  explanation: string
  /** The kinds it looks at. */
  kinds: readonly string[]
  /** False when the rule cannot be turned off or re-graded (parse-error). */
  configurable: boolean
  /** False for rules that are opinions: on only when the configuration or --enable turns them on. */
  enabledByDefault?: boolean
}

/** A rule with the settings in force for this run (config and flags applied). */
export interface EffectiveRule extends RuleInfo {
  enabled: boolean
  /** The severity configured for all its findings, when the configuration sets one. */
  configuredSeverity?: Severity
}

/** A place in the input, the object there, and what is said of it. */
export interface RelatedLocation {
  file: string
  /** 1-based, of the field itself (the offending key or value), not of the document. */
  line: number
  /** 1-based, in UTF-16 code units. */
  column: number
  /** The object's kind, namespace and name; empty strings when the input could not be read as an object. */
  kind: string
  namespace: string
  name: string
  message: string
}

/** A finding at its place; `related` are the other places it refers to (the other controller of an overlap, the first copy of a duplicate). */
export interface Finding extends RelatedLocation {
  rule: RuleId
  severity: Severity
  /** The field the finding is about, e.g. `spec.selector.matchLabels.app`; absent for parse errors. */
  field?: string
  related?: RelatedLocation[]
}

export interface CheckSummary {
  /** Input files read (directories expanded). */
  files: number
  /** Objects read from them (List items counted one by one). */
  objects: number
  error: number
  warning: number
  info: number
  /** Findings dropped by a `kctl.io/ignore` annotation or an ignored path. */
  suppressed: number
  /** Findings dropped because the baseline already had them. */
  baselined: number
}

export interface CheckOptions {
  failOn: Severity
  /** The Kubernetes version deprecated-api checks against, `MAJOR.MINOR`. */
  k8sVersion: string
  /** What immutable-selector-change compared with, when anything. */
  against?: {type: 'directory'; path: string} | {type: 'cluster'; context: string; server: string}
  baseline?: string
}

export interface CheckReport {
  apiVersion: typeof CHECK_API_VERSION
  kind: typeof CHECK_REPORT_KIND
  /** Sorted by input file order, then line, column, rule and message. */
  findings: Finding[]
  summary: CheckSummary
  options: CheckOptions
}

/** What decides the exit code: parse errors (1) first, then findings at or above --fail-on (3). */
export function reportOutcome(report: CheckReport): 'ok' | 'findings' | 'unreadable' {
  if (report.findings.some((f) => f.rule === 'parse-error')) return 'unreadable'
  if (report.findings.some((f) => atOrAbove(f.severity, report.options.failOn))) return 'findings'
  return 'ok'
}

/** `Deployment default/web`, or `Namespace team-a` for an object outside namespaces. */
export function objectTitle(o: {kind: string; namespace: string; name: string}): string {
  return `${o.kind} ${o.namespace === '' ? '' : `${o.namespace}/`}${o.name || '(unnamed)'}`
}
