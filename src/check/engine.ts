// The rules over the objects read, then the report: configuration (rules on/off, severities),
// ignored paths, kctl.io/ignore annotations and the baseline, in that order; positions last, only
// for the findings that remain.
import {relative, resolve, sep} from 'node:path'
import {InternalError, type UserError} from '../errors.js'
import {
  CHECK_API_VERSION,
  CHECK_REPORT_KIND,
  type CheckOptions,
  type CheckReport,
  type EffectiveRule,
  type Finding,
  type RelatedLocation,
  type RuleId,
  type Severity,
} from '../model/check.js'
import type {Origin} from '../model/objects.js'
import {cutEchoes} from '../render/echo.js'
import {sameItems} from '../same-items.js'
import type {Path, RawObject, SourceObject} from '../sources/documents.js'
import type {ApplySetMode} from '../sources/layout.js'
import {formatPath} from '../sources/normalize.js'
import type {Baseline} from './baseline.js'
import type {RuleSetting} from './config.js'
import {apiVerdict} from './deprecations.js'
import type {Draft} from './draft.js'
import type {PathMatcher} from './glob.js'
import {ignores, IGNORE_ANNOTATION} from './ignore.js'
import type {CheckObject, Previous} from './objects.js'
import {checkedKind, controllerChecks} from './controllers.js'
import {immutableDrafts} from './rules-immutable.js'
import {overlapDrafts} from './rules-overlap.js'
import {podDrafts} from './rules-pods.js'
import {referenceDrafts, workloadDrafts} from './rules-references.js'
import {SchemaPass, unvalidatedNote} from './rules-schema.js'
import {selectorDrafts} from './rules-selector.js'
import {RULES} from './rules.js'
import {applySetKeys, Scope} from './scope.js'
import {isTemplate, templateFiles, templateNote} from './templates.js'
import {FieldPass} from './validate.js'

export interface EngineInput {
  /** Input files in the order read (findings are sorted by it). */
  files: readonly string[]
  objects: readonly CheckObject[]
  /** Inputs that could not be read or parsed, each with its position. */
  parseErrors: readonly UserError[]
  defaultNamespace: string
  /** The Kubernetes version deprecations are judged against (1.`k8sMinor`). */
  k8sMinor: number
  /** The version whose schemas validate the objects (one kctl has; default k8sMinor). */
  schemaMinor?: number
  previous?: Previous
  /** The identity an input object has in `previous` (namespaces may default differently there). */
  previousIdentity?: (o: CheckObject) => string
  /** Objects read from --schemas: CustomResourceDefinitions to validate custom resources with. */
  definitions?: readonly CheckObject[]
  /** Told once about what could not be validated (stderr in the CLI). */
  onNote?: (message: string) => void
  /** --apply-set: which objects are applied together (scope.ts). */
  applySetMode?: ApplySetMode
  /** The rules about one object alone, run as `objects` were read (ObjectPass); without it, collectDrafts runs them. */
  objectPass?: ObjectPass
}

const SCHEMA_RULES: readonly RuleId[] = ['unknown-field', 'invalid-type', 'missing-field', 'invalid-value', 'unknown-api-version', 'api-version-not-enabled']

export interface EngineSettings {
  rules: ReadonlyMap<RuleId, RuleSetting>
  /** --disable. */
  disabled: ReadonlySet<RuleId>
  /** --enable: rules that are off by default or in the configuration. */
  enabled?: ReadonlySet<RuleId>
  ignorePaths?: {matcher: PathMatcher; baseDir: string; cwd: string}
  baseline?: Baseline
  options: CheckOptions
}

/** Every rule with the settings in force. */
export function effectiveRules(settings: Pick<EngineSettings, 'rules' | 'disabled' | 'enabled'>): EffectiveRule[] {
  return RULES.map((r) => {
    const s = settings.rules.get(r.id)
    const enabled = !settings.disabled.has(r.id) && (settings.enabled?.has(r.id) || (s?.enabled ?? r.enabledByDefault ?? true))
    return {...r, enabled, configuredSeverity: s?.severity}
  })
}

/** What the rules about one object alone depend on, besides the object. */
export interface ObjectPassSettings {
  defaultNamespace: string
  k8sMinor: number
  schemaMinor: number
  applySetMode?: ApplySetMode
  /** The enabled rules. */
  enabled: ReadonlySet<RuleId>
  /**
   * Let each object's parsed form go once its file is judged (releaseParsed), when nothing will
   * read the objects whole again: no --against, no file read twice (which judges the input whole).
   */
  release?: boolean
}

/**
 * The kinds whose parsed objects the rules over several objects read at the end: an Ingress's
 * backends, NetworkPolicy and PodDisruptionBudget selectors and budgets, a DaemonSet's node
 * selection and the Nodes it may run on, a StatefulSet's serviceName, a CustomResourceDefinition's
 * schemas. Every other object is read at the end only through its views (read.ts: controller,
 * podLabels, podSpec, service, hpa).
 */
const READ_AT_END: ReadonlySet<string> = new Set(['Ingress', 'NetworkPolicy', 'PodDisruptionBudget', 'DaemonSet', 'StatefulSet', 'Node', 'CustomResourceDefinition'])

/** What a released object's parsed form is: reading it is a bug, said at once rather than answered with nothing. */
const RELEASED: RawObject = new Proxy(
  {},
  {
    get: () => released(),
    has: () => released(),
    ownKeys: () => released(),
    getOwnPropertyDescriptor: () => released(),
  },
)

function released(): never {
  throw new InternalError('a rule read an object whose parsed form was let go (engine.ts READ_AT_END)')
}

/**
 * Lets the parsed form of an object go: the parsed documents are most of a run's memory, and
 * keeping them all to the end makes every garbage collection copy them. Its position and text
 * stay (its locator).
 */
export function releaseParsed(src: SourceObject): void {
  ;(src as {raw: RawObject}).raw = RELEASED
}

/**
 * The rules about one object alone (invalid-field and duplicate-object, the schema rules,
 * deprecated-api, invalid-ignore, the selector rules, volume-mount-undefined, image-latest, and each
 * controller's rules about one object of its kind), run file by file as the input is read, while
 * each object is fresh in memory. A file is judged once all its objects are in: a template
 * (templates.ts) is skipped whole. Objects come file by file; a file named again after others
 * (`interleaved`) leaves the work to collectDrafts, which judges the whole input at once.
 */
export class ObjectPass {
  private readonly drafts: Draft[] = []
  private readonly fields: FieldPass
  private readonly schema: SchemaPass | undefined
  /** Files that are templates, in input order. */
  readonly templates = new Set<string>()
  private file: string | undefined
  private pending: CheckObject[] = []
  private readonly done = new Set<string>()
  /** Objects whose parsed form the schema rules read at finish() (kinds without a built-in schema). */
  private readonly waiting = new Set<CheckObject>()
  interleaved = false
  /** finish() has been called (it gives the drafts once). */
  finished = false

  /** The enabled rules judge() asks about for every object, looked up once. */
  private readonly enabled: {all: ReadonlySet<RuleId>; deprecatedApi: boolean; invalidIgnore: boolean; volumeMountUndefined: boolean; imageLatest: boolean}

  constructor(readonly settings: ObjectPassSettings) {
    const on = settings.enabled
    this.enabled = {all: on, deprecatedApi: on.has('deprecated-api'), invalidIgnore: on.has('invalid-ignore'), volumeMountUndefined: on.has('volume-mount-undefined'), imageLatest: on.has('image-latest')}
    this.fields = new FieldPass(settings.defaultNamespace, applySetKeys(settings.applySetMode))
    this.schema = SCHEMA_RULES.some((id) => settings.enabled.has(id)) ? new SchemaPass(settings.schemaMinor) : undefined
  }

  /** Every object of `objects` judged at once: the templates first (over all of them), then each other object in order. */
  static whole(objects: readonly CheckObject[], settings: ObjectPassSettings): ObjectPass {
    const pass = new ObjectPass(settings)
    for (const file of templateFiles(objects)) pass.templates.add(file)
    for (const o of objects) if (!pass.templates.has(o.src.file)) pass.judge(o)
    return pass
  }

  /** The next object of the input. */
  add(obj: CheckObject): void {
    const file = obj.src.file
    if (file !== this.file) {
      this.flush()
      if (this.done.has(file)) this.interleaved = true
      this.file = file
    }
    this.pending.push(obj)
  }

  private flush(): void {
    if (this.file === undefined) return
    this.done.add(this.file)
    const objects = this.pending
    this.pending = []
    if (isTemplate(objects)) this.templates.add(this.file)
    else for (const o of objects) this.judge(o)
    if (this.settings.release) {
      for (const o of objects) if (!READ_AT_END.has(o.kind) && !this.waiting.has(o)) releaseParsed(o.src)
    }
  }

  private judge(obj: CheckObject): void {
    const {drafts, enabled} = this
    this.fields.add(obj)
    const verdict = apiVerdict(obj.apiVersion, obj.kind, this.settings.k8sMinor)
    // The schema rules judge the apiVersion against the version whose schemas they use, which may be another.
    if (this.schema?.add(obj, this.settings.schemaMinor === this.settings.k8sMinor ? verdict !== undefined : undefined)) this.waiting.add(obj)
    if (enabled.deprecatedApi) {
      if (verdict) drafts.push({rule: 'deprecated-api', severity: verdict.severity, message: verdict.message, subject: obj, path: ['apiVersion'], atKey: false})
    }
    if (enabled.invalidIgnore) {
      for (const problem of obj.ignoreProblems) {
        drafts.push({rule: 'invalid-ignore', message: `${IGNORE_ANNOTATION}: ${problem}`, subject: obj, path: ['metadata', 'annotations', IGNORE_ANNOTATION], atKey: false})
      }
    }
    const on = enabled.all
    addEnabled(drafts, selectorDrafts(obj), on)
    if (enabled.volumeMountUndefined) addEnabled(drafts, podDrafts(obj), on)
    // The controller's own rules about one object of its kind.
    const part = checkedKind(obj)
    if (part?.drafts) addEnabled(drafts, part.drafts(obj), on)
    if (enabled.imageLatest) addEnabled(drafts, workloadDrafts(obj), on)
  }

  /** The drafts of every object added (the notes on templates and unvalidated objects said through onNote). */
  finish(definitions: readonly CheckObject[], onNote?: (message: string) => void): Draft[] {
    this.finished = true
    this.flush()
    this.file = undefined
    const on = (id: RuleId) => this.settings.enabled.has(id)
    const templateWords = templateNote(this.templates)
    if (templateWords) onNote?.(templateWords)
    const out: Draft[] = []
    const fields = this.fields.finish()
    for (const d of fields) if (on(d.rule)) out.push(d)
    if (this.schema) {
      const {drafts: schema, unvalidated} = this.schema.finish(definitions)
      // A field invalid-field already reports (the same check, worded for the controllers) is said once.
      const said = new Set(fields.filter((d) => d.rule === 'invalid-field').map((d) => `${d.subject?.src.ordinal}|${formatPath(d.path)}`))
      for (const d of schema) if (on(d.rule) && !said.has(`${d.subject?.src.ordinal}|${formatPath(d.path)}`)) out.push(d)
      const note = unvalidatedNote(unvalidated)
      if (note) onNote?.(note)
    }
    for (const d of this.drafts) out.push(d)
    return out
  }
}

/**
 * The drafts of `found` whose rule is enabled, added to `drafts`. By index: a for-of loop for each
 * rule in judge() made it several times larger to compile, for lists that are almost all empty.
 */
function addEnabled(drafts: Draft[], found: readonly Draft[], on: ReadonlySet<RuleId>): void {
  for (let i = 0; i < found.length; i++) if (on.has(found[i].rule)) drafts.push(found[i])
}

/** Whether a pass was run with these settings. */
function sameSettings(a: ObjectPassSettings, b: ObjectPassSettings): boolean {
  return (
    a.defaultNamespace === b.defaultNamespace &&
    a.k8sMinor === b.k8sMinor &&
    a.schemaMinor === b.schemaMinor &&
    (a.applySetMode ?? 'dir') === (b.applySetMode ?? 'dir') &&
    a.enabled.size === b.enabled.size &&
    [...a.enabled].every((id) => b.enabled.has(id))
  )
}

/** All drafts of the enabled rules, in no particular order. */
export function collectDrafts(input: EngineInput, enabled: ReadonlySet<RuleId>): Draft[] {
  const drafts: Draft[] = []
  const on = (id: RuleId) => enabled.has(id)
  for (const e of input.parseErrors) {
    drafts.push({rule: 'parse-error', message: e.hint ? `${e.message} (${e.hint})` : e.message, path: [], atKey: false, origin: e.origin ?? {file: '', line: 1, column: 1}})
  }
  // The rules about one object alone: run as the input was read (ObjectPass), or now.
  // Templates (envsubst placeholders) are named once and judged by no rule; their objects remain
  // what other objects may refer to (scope.all).
  const settings: ObjectPassSettings = {
    defaultNamespace: input.defaultNamespace,
    k8sMinor: input.k8sMinor,
    schemaMinor: input.schemaMinor ?? input.k8sMinor,
    applySetMode: input.applySetMode,
    enabled,
  }
  const streamed = input.objectPass
  const pass = streamed && !streamed.interleaved && !streamed.finished && sameSettings(streamed.settings, settings) ? streamed : ObjectPass.whole(input.objects, settings)
  if (pass !== streamed && streamed?.settings.release) throw new InternalError('the objects were let go as they were judged, and must now be judged again')
  for (const d of pass.finish(input.definitions ?? [], input.onNote)) drafts.push(d)
  const templates = pass.templates
  const objects = templates.size === 0 ? input.objects : input.objects.filter((o) => !templates.has(o.src.file))
  const scope = new Scope(input.objects, input.applySetMode)
  const controllers = controllerChecks()
  // Rules that judge a conflict compare only what is applied together, one apply set at a time;
  // rules that look for what an object refers to look nearest first, through the scope.
  for (const whole of scope.applySets()) {
    const set = templates.size === 0 ? whole : whole.filter((o) => !templates.has(o.src.file))
    if (set.length === 0) continue
    if (on('overlapping-selectors')) for (const d of overlapDrafts(set)) drafts.push(d)
    for (const c of controllers) for (const d of c.setDrafts?.(set, scope) ?? []) if (on(d.rule)) drafts.push(d)
    for (const d of referenceDrafts(set, scope)) if (on(d.rule)) drafts.push(d)
  }
  if (on('immutable-selector-change') && input.previous) drafts.push(...immutableDrafts(objects, input.previous, input.previousIdentity!))
  if (input.previous) for (const c of controllers) for (const d of c.previousDrafts?.(objects, input.previous, input.previousIdentity!) ?? []) if (on(d.rule)) drafts.push(d)
  return drafts
}

/** A finding that survived configuration, ignores and the baseline, with the positions it waits for. */
interface Kept {
  draft: Draft
  finding: Finding
  own: Position | undefined
  related: Position[] | undefined
}

interface Position {
  path: Path
  atKey: boolean
  at?: Origin
}

/** Up to this many positions of one object are told apart by comparing paths; more, by a key. */
const FEW_POSITIONS = 8

/**
 * The positions the findings ask for. Each reads and parses the object's text again: the same field
 * of the same object (the broad side of many overlaps, an HPA's target) is located once, and the
 * positions are computed object by object in input order, so that each object's text is read once
 * for all.
 */
class Positions {
  private readonly bySrc = new Map<SourceObject, Position[]>()
  /** The positions of an object asked for more than FEW_POSITIONS times, by key. */
  private readonly keyed = new Map<SourceObject, Map<string, Position>>()

  ask(src: SourceObject, path: Path, atKey: boolean): Position {
    const list = this.bySrc.get(src)
    if (!list) {
      const p: Position = {path, atKey, at: undefined}
      this.bySrc.set(src, [p])
      return p
    }
    if (list.length <= FEW_POSITIONS) {
      for (const p of list) if (p.atKey === atKey && sameItems(p.path, path)) return p
      const p: Position = {path, atKey, at: undefined}
      list.push(p)
      return p
    }
    let keyed = this.keyed.get(src)
    if (!keyed) this.keyed.set(src, (keyed = new Map(list.map((p) => [positionKey(p.path, p.atKey), p]))))
    const key = positionKey(path, atKey)
    let p = keyed.get(key)
    if (!p) {
      keyed.set(key, (p = {path, atKey, at: undefined}))
      list.push(p)
    }
    return p
  }

  /** Computes every position asked for. */
  locate(): void {
    // In input order without a sort: by ordinal, objects of the same ordinal (from another input) in the order asked.
    const byOrdinal: Array<Array<[SourceObject, Position[]]>> = []
    for (const entry of this.bySrc) {
      const ordinal = entry[0].ordinal
      const same = byOrdinal[ordinal]
      if (same) same.push(entry)
      else byOrdinal[ordinal] = [entry]
    }
    for (let i = 0; i < byOrdinal.length; i++) {
      const same = byOrdinal[i]
      if (same) for (let j = 0; j < same.length; j++) locateAll(same[j][0], same[j][1])
    }
  }
}

function locateAll(src: SourceObject, list: Position[]): void {
  for (const p of list) p.at = p.path.length === 0 ? src.origin : src.locate(p.path, {key: p.atKey})
}

const positionKey = (path: Path, atKey: boolean) => `${atKey ? 'k' : 'v'}${JSON.stringify(path)}`

export function buildReport(input: EngineInput, settings: EngineSettings): CheckReport {
  const rules = effectiveRules(settings)
  const enabled = new Set(rules.filter((r) => r.enabled).map((r) => r.id))
  const byId = new Map(rules.map((r) => [r.id, r]))
  const drafts = collectDrafts(input, enabled)
  // Each phase is a function of its own: its loop is optimized alone, not the whole report once per loop.
  const {kept, suppressed, baselined} = keepFindings(drafts, byId, settings)
  const findings = sortFindings(placeFindings(kept), input.files)
  const counts: Record<Severity, number> = {error: 0, warning: 0, info: 0}
  for (const f of findings) counts[f.severity]++
  const count = (s: Severity) => counts[s]
  return {
    apiVersion: CHECK_API_VERSION,
    kind: CHECK_REPORT_KIND,
    findings,
    summary: {
      files: input.files.length,
      objects: input.objects.length,
      error: count('error'),
      warning: count('warning'),
      info: count('info'),
      suppressed,
      baselined,
    },
    options: settings.options,
  }
}

/** The findings of the drafts that survive the ignored paths, the kctl.io/ignore annotations and the baseline, still without positions. */
function keepFindings(drafts: readonly Draft[], byId: ReadonlyMap<RuleId, EffectiveRule>, settings: EngineSettings): {kept: Kept[]; suppressed: number; baselined: number} {
  let suppressed = 0
  let baselined = 0
  const kept: Kept[] = []
  // Index loops, here and in placeFindings: a for-of loop made each of these much larger to compile.
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i]
    const rule = byId.get(d.rule)!
    const file = d.subject ? d.subject.src.file : (d.origin?.file ?? '')
    if (settings.ignorePaths && isIgnoredPath(file, settings.ignorePaths)) {
      suppressed++
      continue
    }
    if (d.subject && d.rule !== 'invalid-ignore' && ignoredBy(d)) {
      suppressed++
      continue
    }
    const severity: Severity = rule.configuredSeverity ?? d.severity ?? rule.severity
    // The finding's fields in its order; the position (its file in place of the subject's) is set once known.
    const finding: Finding = {
      rule: d.rule,
      severity,
      file,
      kind: d.subject?.kind ?? '',
      namespace: d.subject?.namespace ?? '',
      name: d.subject?.name ?? '',
      // Cut before the baseline compares it, so that a report read back as a baseline matches.
      message: cutEchoes(d.message),
      line: 0,
      column: 0,
    }
    // Parse errors are never baselined: an unreadable input always fails the run (exit 1).
    if (settings.baseline && d.rule !== 'parse-error' && settings.baseline.take(finding)) {
      baselined++
      continue
    }
    kept.push({draft: d, finding, own: undefined, related: undefined})
  }
  return {kept, suppressed, baselined}
}

/** The kept findings with their positions (and the field and related objects they name). */
function placeFindings(kept: Kept[]): Finding[] {
  const positions = new Positions()
  for (let i = 0; i < kept.length; i++) {
    const k = kept[i]
    const {draft} = k
    if (!draft.origin && !draft.lazyOrigin) k.own = positions.ask(draft.subject!.src, draft.path, draft.atKey)
    if (draft.related) k.related = draft.related.map((r) => positions.ask(r.object.src, r.path, r.atKey))
  }
  positions.locate()
  const findings: Finding[] = new Array<Finding>(kept.length)
  for (let i = 0; i < kept.length; i++) {
    const {draft, finding, own, related} = kept[i]
    const at = draft.origin ?? draft.lazyOrigin?.() ?? own!.at!
    finding.file = at.file
    finding.line = at.line
    finding.column = at.column
    if (draft.subject) finding.field = formatPath(draft.path)
    if (draft.related && draft.related.length > 0) {
      finding.related = draft.related.map((r, j): RelatedLocation => {
        const pos = related![j].at!
        return {file: pos.file, line: pos.line, column: pos.column, kind: r.object.kind, namespace: r.object.namespace, name: r.object.name, message: r.message}
      })
    }
    findings[i] = finding
  }
  return findings
}

/** In place: by input file order, then file, line, column, rule and message. */
function sortFindings(findings: Finding[], files: readonly string[]): Finding[] {
  // Each finding's file order is looked up once, not at every comparison.
  const fileOrder = new Map(files.map((f, i) => [f, i]))
  const ranked = findings.map((f) => ({f, order: fileOrder.get(f.file) ?? files.length}))
  ranked.sort(
    ({f: a, order: oa}, {f: b, order: ob}) =>
      oa - ob ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  )
  for (let i = 0; i < ranked.length; i++) findings[i] = ranked[i].f
  return findings
}

/** Whether a kctl.io/ignore annotation of the draft's subject, or of an object it also names, ignores its rule. */
function ignoredBy(d: Draft): boolean {
  if (ignores(d.subject!.ignores, d.rule)) return true
  if (d.also) for (const o of d.also) if (ignores(o.ignores, d.rule)) return true
  return false
}

function isIgnoredPath(file: string, ignore: NonNullable<EngineSettings['ignorePaths']>): boolean {
  if (file === '' || file.startsWith('<') || file.startsWith('cluster:')) return false
  const rel = relative(ignore.baseDir, resolve(ignore.cwd, file)).split(sep).join('/')
  return ignore.matcher.matches(rel)
}
