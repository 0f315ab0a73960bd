// How a repository of manifests is laid out, as far as reading it with -f is concerned.
//
// Real repositories hold more than objects to apply: kustomization files and the patches they
// name, Helm charts (templates that are not YAML until rendered), and alternatives that are never
// applied together (a kustomize base and each of its overlays). Walking a directory, kctl
//   - skips hidden files and directories (`.github/`, `.git/`);
//   - skips a Helm chart (a directory with a Chart.yaml) whole, and says how to render it;
//   - skips kustomization files, and the files a kustomization names as patches, generator inputs
//     or transformer configurations (they are not objects);
//   - puts every file in an apply set: the objects that would be applied together. Rules that
//     compare objects (duplicates, overlapping selectors) compare only within one apply set.
//
// Apply sets (--apply-set):
//   dir   (default) each kustomize root (a directory with a kustomization file, with everything
//         below it that is not another root) is its own set; all other files form one set.
//   file  each file is its own set.
//   all   everything read is one set.
import {existsSync, readFileSync} from 'node:fs'
import {join, normalize} from 'node:path'

import {load as loadYaml} from 'js-yaml'

import {UserError} from '../errors.js'
import {KUBE_YAML_SCHEMA} from './yaml11.js'

export type ApplySetMode = 'dir' | 'file' | 'all'
export const APPLY_SET_MODES: readonly ApplySetMode[] = ['dir', 'file', 'all']

/** The set of files outside any kustomize root (dir mode), and of everything (all mode). */
export const SHARED_SET = ''

export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization']

export type SkipReason = 'kustomization' | 'kustomize-input' | 'kustomize-unlisted' | 'kustomize-unsupported' | 'helm-chart'

export interface Skipped {
  /** The file or (for a Helm chart, a kustomize root) directory, as the user sees it. */
  name: string
  reason: SkipReason
  /** Why (a kustomize root kctl cannot read without kustomize: what it uses). */
  detail?: string
}

/** A directory's entries, as the walk sees them. */
export interface DirLayout {
  /** This directory is a kustomize root: files below it form one apply set. */
  kustomizeRoot: boolean
  /** This directory is a Helm chart: skipped whole. */
  helmChart: boolean
  /** Files (full paths, normalized) that a kustomization here names as non-objects. */
  notObjects: Set<string>
}

/** What a directory is, from the names of its entries (and its kustomization file, if any). */
export function dirLayout(dir: string, names: readonly string[]): DirLayout {
  const helmChart = names.includes('Chart.yaml')
  const kfile = KUSTOMIZATION_FILES.find((k) => names.includes(k))
  const notObjects = new Set<string>()
  if (kfile && !helmChart) for (const p of kustomizeInputs(join(dir, kfile))) notObjects.add(normalize(join(dir, p)))
  return {kustomizeRoot: kfile !== undefined && !helmChart, helmChart, notObjects}
}

/** A kustomization file as a mapping; undefined when it cannot be read or parsed. */
export function loadKustomization(file: string): Record<string, unknown> | undefined {
  let doc: unknown
  try {
    doc = loadYaml(readFileSync(file, 'utf8'), {schema: KUBE_YAML_SCHEMA})
  } catch {
    return undefined
  }
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>) : undefined
}

/** The `resources` (and old `bases`) entries of the kustomization in `dir`: files or other roots. */
export function kustomizeResources(dir: string): string[] {
  const kfile = KUSTOMIZATION_FILES.map((k) => join(dir, k)).find((f) => existsSync(f))
  const k = kfile === undefined ? undefined : loadKustomization(kfile)
  if (!k) return []
  return [k.bases, k.resources].flatMap((v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []))
}

/**
 * Files a kustomization reads that are not objects to apply: patches, generator inputs,
 * configurations, replacements. `resources` (objects, or other roots) are not among them. An
 * unreadable kustomization names nothing: its files are then read as they are.
 */
export function kustomizeInputs(file: string): string[] {
  const k = loadKustomization(file)
  if (!k) return []
  const out: string[] = []
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
  const paths = (v: unknown) => (Array.isArray(v) ? v.map((x) => (x as {path?: unknown})?.path).filter((x): x is string => typeof x === 'string') : [])
  out.push(...strings(k.patchesStrategicMerge), ...paths(k.patches), ...paths(k.patchesJson6902), ...paths(k.replacements))
  out.push(...strings(k.configurations), ...strings(k.transformers), ...strings(k.generators), ...strings(k.validators))
  for (const gen of [k.configMapGenerator, k.secretGenerator]) {
    if (!Array.isArray(gen)) continue
    for (const g of gen as Array<Record<string, unknown>>) {
      // `files` entries may be written `key=path`.
      out.push(...strings(g?.files).map((f) => f.slice(f.indexOf('=') + 1)), ...strings(g?.envs))
      if (typeof g?.env === 'string') out.push(g.env)
    }
  }
  if (typeof k.openapi === 'object' && k.openapi !== null && typeof (k.openapi as {path?: unknown}).path === 'string') out.push((k.openapi as {path: string}).path)
  return out
}

/** The set a file belongs to: `root` is its innermost kustomize root, if any. */
export function applySetOf(mode: ApplySetMode, name: string, root: string | undefined): string {
  if (mode === 'all') return SHARED_SET
  if (mode === 'file') return name
  return root ?? SHARED_SET
}

/** One line for stderr about what a walk skipped, or none. */
export function skippedNotice(skipped: readonly Skipped[], command = 'plan'): string | undefined {
  if (skipped.length === 0) return undefined
  const count = (reason: SkipReason) => skipped.filter((s) => s.reason === reason)
  const parts: string[] = []
  const k = count('kustomization').length
  const inputs = count('kustomize-input').length
  const unlisted = count('kustomize-unlisted').length
  const roots = count('kustomize-unsupported')
  if (k > 0) parts.push(`${k} kustomization file${k === 1 ? '' : 's'}`)
  if (inputs > 0) parts.push(`${inputs} file${inputs === 1 ? '' : 's'} a kustomization reads as patches or generator inputs`)
  if (unlisted > 0) parts.push(`${unlisted} file${unlisted === 1 ? '' : 's'} in a kustomize root that its kustomization does not list`)
  if (roots.length > 0) {
    parts.push(`${roots.length} kustomize root${roots.length === 1 ? '' : 's'} that need${roots.length === 1 ? 's' : ''} kustomize (${roots[0].name}: ${roots[0].detail}${roots.length > 1 ? '; …' : ''})`)
  }
  const charts = count('helm-chart')
  if (charts.length > 0) parts.push(`${charts.length} Helm chart${charts.length === 1 ? '' : 's'} (${charts[0].name}${charts.length > 1 ? ', …' : ''})`)
  const hints: string[] = []
  if (k > 0) hints.push(`kctl ${command} -k DIR renders a kustomization`)
  if (roots.length > 0) hints.push('put kustomize or kubectl on PATH to render them')
  if (charts.length > 0) hints.push(`render a chart with \`helm template ${charts[0].name} | kctl ${command} -f -\``)
  return `skipped ${parts.join(', ')}: ${hints.join('; ')}`
}


/** -f/-k named inputs that hold no object at all: a misspelt or empty directory, most likely. */
export function emptyInputError(paths: readonly string[], kustomize: string | undefined, files: number, skipped: number): UserError {
  const named = [...paths.map((p) => `-f ${p}`), ...(kustomize !== undefined ? [`-k ${kustomize}`] : [])].join(' ')
  const what = files === 0 ? `no YAML or JSON file${skipped > 0 ? ` to read (${skipped} skipped)` : ''}` : `no object in ${files} file${files === 1 ? '' : 's'}`
  return new UserError(`${named}: ${what}`, {hint: 'check the path; pass --allow-empty if an empty input is expected'})
}
