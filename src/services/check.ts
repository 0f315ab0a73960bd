// `check`: read the manifests (and, for immutable-selector-change, what they replace: a previous
// render or the live objects), run the rules, apply the configuration, return the report.
// Things that stop the whole run (a missing -f path, a bad flag, config or baseline, an
// unreachable cluster) are UserErrors; inputs that cannot be parsed are findings.
import {existsSync} from 'node:fs'
import {basename, resolve} from 'node:path'

import {loadBaseline} from '../check/baseline.js'
import {CONFIG_FILE, loadConfig} from '../check/config.js'
import {checkedKind} from '../check/controllers.js'
import {DEFAULT_K8S_MINOR, formatMinor, parseK8sVersion} from '../check/deprecations.js'
import {buildReport, effectiveRules, ObjectPass, type EngineInput} from '../check/engine.js'
import {PathMatcher} from '../check/glob.js'
import {identityOf, type CheckObject, type Previous} from '../check/objects.js'
import {kustomizeReadFiles} from '../check/kustomize.js'
import {readCheckObject} from '../check/read.js'
import {schemaVersions} from '../check/schema.js'
import {UserError} from '../errors.js'
import {isRuleId, SEVERITIES, type CheckOptions, type CheckReport, type EffectiveRule, type RuleId, type Severity} from '../model/check.js'
import {openSources, readDocuments, SourceFile, type SourceObject} from '../sources/documents.js'
import {emptyInputError, skippedNotice, type ApplySetMode, type Skipped} from '../sources/layout.js'

export interface CheckRequest {
  /** -f values. */
  filename?: string[]
  /** -k: a kustomization directory, rendered. */
  kustomize?: string
  /** --apply-set (layout.ts). */
  applySet?: ApplySetMode
  /** Inputs that hold no object are not an error. */
  allowEmpty?: boolean
  /** Notes about the input (what a directory walk skipped, what could not be validated): stderr in the CLI. */
  onNote?: (message: string) => void
  /** --schemas DIR: CustomResourceDefinitions (YAML or JSON) to validate custom resources with. */
  schemas?: string
  /** -n: the namespace of objects that name none (default "default"). */
  namespace?: string
  /** --config; without it ./.kctl.yaml is read when present. */
  config?: string
  cwd?: string
  baseline?: string
  failOn?: string
  k8sVersion?: string
  /** --disable RULE (repeatable). */
  disable?: string[]
  /** --enable RULE (repeatable): rules that are off by default or in the configuration. */
  enable?: string[]
  /** --against DIR: a previous render. */
  against?: string
  /** --against-cluster: the live objects. */
  againstCluster?: boolean
  kubeconfig?: string
  context?: string
  readStdin?: () => Promise<string>
}

/** The rules with this run's settings (for `kctl check --rules`). */
export function listRules(req: Pick<CheckRequest, 'config' | 'cwd' | 'disable' | 'enable'>): EffectiveRule[] {
  const config = loadConfig(req.config, req.cwd ?? process.cwd())
  return effectiveRules({rules: config.rules, disabled: ruleFlags('--disable', req.disable), enabled: ruleFlags('--enable', req.enable)})
}

/** The rule ids of --disable or --enable (repeatable, or comma-separated). */
function ruleFlags(flag: string, ids: string[] | undefined): Set<RuleId> {
  const out = new Set<RuleId>()
  for (const raw of ids ?? []) {
    for (const id of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (!isRuleId(id)) throw new UserError(`${flag}: unknown rule "${id}"`, {hint: 'kctl check --rules lists them'})
      if (id === 'parse-error' && flag === '--disable') throw new UserError('--disable: parse-error cannot be turned off')
      out.add(id)
    }
  }
  return out
}

export interface CheckResult {
  report: CheckReport
  /** The rules with this run's settings (SARIF and Markdown describe them). */
  rules: EffectiveRule[]
  /** The input files, in the order read. */
  files: string[]
}

export async function runCheck(req: CheckRequest): Promise<CheckResult> {
  const cwd = req.cwd ?? process.cwd()
  // Everything that can be wrong with the request is found before any manifest is read.
  const config = loadConfig(req.config, cwd)
  const disabled = ruleFlags('--disable', req.disable)
  const enabled = ruleFlags('--enable', req.enable)
  const failOn = (req.failOn ?? config.failOn ?? 'error') as Severity
  if (!SEVERITIES.includes(failOn)) throw new UserError(`invalid --fail-on "${req.failOn}": expected error, warning or info`)
  let k8sMinor: number | undefined
  if (req.k8sVersion !== undefined) k8sMinor = schemaMinor(parseK8sVersion(req.k8sVersion), `--k8s-version ${req.k8sVersion}`)
  else if (config.k8sVersion) {
    try {
      k8sMinor = schemaMinor(parseK8sVersion(config.k8sVersion.value, 'check.k8sVersion'), `check.k8sVersion ${config.k8sVersion.value}`)
    } catch (error) {
      throw new UserError((error as UserError).message, {origin: config.k8sVersion.origin})
    }
  }
  if (req.against !== undefined && req.againstCluster) throw new UserError('--against and --against-cluster cannot be used together')
  if (req.against !== undefined && !existsSync(req.against)) throw new UserError(`${req.against}: no such file or directory`, {hint: 'check the --against path'})
  const baseline = req.baseline !== undefined ? loadBaseline(req.baseline) : undefined
  const paths = req.filename ?? []
  if (paths.length === 0 && req.kustomize === undefined) throw new UserError('kctl check needs manifests: pass -f FILE, -f DIR, -f - or -k DIR', {hint: 'e.g. kctl check -f deploy/'})
  for (const p of paths) {
    if (p !== '-' && p !== '' && !existsSync(p)) throw new UserError(`${p}: no such file or directory`, {hint: 'check the -f path'})
  }
  const defaultNamespace = req.namespace ?? 'default'

  // The manifests.
  const parseErrors: UserError[] = []
  // `kctl check -f .` in a project: .kctl.yaml files (and the --config file) are configuration,
  // not manifests.
  const configPath = config.file === undefined ? undefined : resolve(cwd, config.file)
  const skipped: Skipped[] = []
  const sources = (await openSources(paths, {readStdin: req.readStdin, applySet: req.applySet, skipped, kustomize: req.kustomize})).filter(
    (s) => s.fsPath === undefined || (basename(s.fsPath) !== CONFIG_FILE && (configPath === undefined || resolve(s.fsPath) !== configPath)),
  )
  // Positions are asked for afterwards, file by file: the bytes read are kept for them.
  for (const s of sources) s.keepBytes = true
  const note = skippedNotice(skipped, 'check')
  if (note) req.onNote?.(note)
  // The rules about one object alone run as the objects are read, when the Kubernetes version is
  // known before (with --against-cluster and no version asked for, the live server tells it).
  const rules = effectiveRules({rules: config.rules, disabled, enabled})
  const known = req.againstCluster ? k8sMinor : (k8sMinor ?? DEFAULT_K8S_MINOR)
  const objectPass =
    known === undefined
      ? undefined
      : new ObjectPass({
          defaultNamespace,
          k8sMinor: known,
          schemaMinor: nearestSchemaMinor(known),
          applySetMode: req.applySet,
          enabled: new Set(rules.filter((r) => r.enabled).map((r) => r.id)),
          // Each object's parsed form goes once its file is judged, unless the objects are compared
          // with what they replace, or a file named twice makes the input judged whole at the end.
          release: req.against === undefined && !req.againstCluster && new Set(sources.map((s) => s.name)).size === sources.length,
        })
  const objects: CheckObject[] = []
  // Patches and generator inputs a kustomization names are not objects, wherever it is.
  const notObjects = kustomizeReadFiles(paths)
  for (const src of readDocuments(sources, {onError: (e) => parseErrors.push(e)})) {
    if (notObjects.size === 0 || !notObjects.has(resolve(src.file))) {
      const obj = readCheckObject(src, defaultNamespace)
      objects.push(obj)
      objectPass?.add(obj)
    }
  }
  if (objects.length === 0 && parseErrors.length === 0 && !req.allowEmpty) throw emptyInputError(paths, req.kustomize, sources.length, skipped.length)

  // What they replace.
  let previous: Previous | undefined
  let previousIdentity: ((o: CheckObject) => string) | undefined
  let against: CheckOptions['against']
  if (req.against !== undefined) {
    const files = await openSources([req.against])
    const map = new Map<string, CheckObject>()
    for (const src of readDocuments(files, {onError: (e) => parseErrors.push(e)})) {
      const o = readCheckObject(src, defaultNamespace)
      if (o.name !== '' && !map.has(identityOf(o))) map.set(identityOf(o), o)
    }
    previous = {source: {type: 'directory', path: req.against}, objects: map}
    previousIdentity = identityOf
    against = {type: 'directory', path: req.against}
  } else if (req.againstCluster) {
    const live = await readLive(objects, req)
    previous = {source: {type: 'cluster', context: live.context}, objects: live.objects}
    previousIdentity = live.identity
    against = {type: 'cluster', context: live.context, server: live.server}
    k8sMinor ??= live.minor
  }

  const definitions: CheckObject[] = []
  if (req.schemas !== undefined) {
    if (!existsSync(req.schemas)) throw new UserError(`${req.schemas}: no such file or directory`, {hint: 'check the --schemas path'})
    for (const src of readDocuments(await openSources([req.schemas], {applySet: 'all'}), {onError: (e) => parseErrors.push(e)})) definitions.push(readCheckObject(src, defaultNamespace))
  }

  // The live server's version may be one kctl has no schemas for: the nearest set validates.
  const minor = k8sMinor ?? DEFAULT_K8S_MINOR
  const schemas = nearestSchemaMinor(minor)
  if (schemas !== minor) req.onNote?.(`no schemas for Kubernetes ${formatMinor(minor)}: objects are validated with those of ${formatMinor(schemas)} (kctl has ${schemaVersions().join(', ')})`)

  const input: EngineInput = {
    definitions,
    onNote: req.onNote,
    files: sources.map((s) => s.name),
    objects,
    parseErrors,
    defaultNamespace,
    k8sMinor: minor,
    schemaMinor: schemas,
    previous,
    previousIdentity,
    applySetMode: req.applySet,
    objectPass,
  }
  const options: CheckOptions = {failOn, k8sVersion: formatMinor(input.k8sMinor)}
  if (against) options.against = against
  if (baseline) options.baseline = baseline.file
  const report = buildReport(input, {
    rules: config.rules,
    disabled,
    enabled,
    ignorePaths: config.ignorePaths.length > 0 ? {matcher: new PathMatcher(config.ignorePaths), baseDir: config.baseDir, cwd} : undefined,
    baseline,
    options,
  })
  return {report, rules, files: [...input.files]}
}

/** A version asked for by name must be one kctl has schemas for. */
function schemaMinor(minor: number, asked: string): number {
  const versions = schemaVersions()
  if (!versions.includes(formatMinor(minor))) throw new UserError(`${asked}: kctl checks against Kubernetes ${versions.join(', ')}`)
  return minor
}

/** The schema version nearest a Kubernetes version (the live server's, which may be any). */
function nearestSchemaMinor(minor: number): number {
  const minors = schemaVersions().map((v) => Number(v.split('.')[1]))
  return minors.reduce((best, m) => (Math.abs(m - minor) < Math.abs(best - minor) ? m : best), minors[minors.length - 1])
}

// ---------------------------------------------------------------------------------------------
// --against-cluster

const CONCURRENCY = 8

async function readLive(
  objects: readonly CheckObject[],
  req: CheckRequest,
): Promise<{context: string; server: string; minor?: number; objects: Map<string, CheckObject>; identity: (o: CheckObject) => string}> {
  // Lazy: the cluster code pulls in client-node, which costs ~0.3 s to import.
  const {connect} = await import('../sources/cluster.js')
  const {ApiError} = await import('../sources/cluster-client.js')
  const client = await connect({kubeconfig: req.kubeconfig, context: req.context})
  const liveDefault = req.namespace ?? client.config.namespace
  // Fields named one by one: a checked object's kind is a getter, which a spread would leave out.
  const identity = (o: CheckObject) => identityOf({resourceGroup: o.resourceGroup, kind: o.kind, namespace: o.explicitNamespace ? o.namespace : liveDefault, name: o.name})
  let minor: number | undefined
  try {
    const version = await client.request<{gitVersion?: string}>('/version', {what: 'read the server version'})
    if (version?.gitVersion) minor = parseK8sVersion(version.gitVersion)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error // unreachable: say so now
  }
  // Where each controller kind is served (the current versions: what a stored object is read as).
  const wanted = objects.filter((o) => o.controller && o.name !== '' && checkedKind(o)?.live)
  const found: Array<Record<string, unknown>> = []
  let next = 0
  const worker = async () => {
    while (next < wanted.length) {
      const o = wanted[next++]
      const r = checkedKind(o)!.live!
      const namespace = o.explicitNamespace ? o.namespace : liveDefault
      const path = `${r.prefix}/namespaces/${encodeURIComponent(namespace)}/${r.plural}/${encodeURIComponent(o.name)}`
      try {
        const live = await client.request<Record<string, unknown>>(path, {what: `get ${o.kind} ${namespace}/${o.name}`})
        found.push({apiVersion: r.apiVersion, kind: o.kind, ...live})
      } catch (error) {
        if (error instanceof ApiError && error.status.code === 404) continue // not created yet: nothing to compare
        throw error
      }
    }
  }
  await Promise.all(Array.from({length: Math.min(CONCURRENCY, wanted.length)}, worker))
  const name = `cluster:${client.config.context}`
  const file = new SourceFile(name, undefined, 'json', Buffer.from(JSON.stringify({apiVersion: 'v1', kind: 'List', items: found})))
  const map = new Map<string, CheckObject>()
  for (const src of readDocuments([file]) as Iterable<SourceObject>) {
    const o = readCheckObject(src, liveDefault)
    map.set(identityOf(o), o)
  }
  return {context: client.config.context, server: client.server, minor, objects: map, identity}
}
