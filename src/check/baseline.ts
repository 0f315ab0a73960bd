// --baseline FILE: a CheckReport from an earlier `kctl check -o json`. A finding is in the baseline
// when the baseline has one with the same rule, kind, namespace, name and message — not the same
// line, so edits elsewhere in a file do not make old findings new. Counted as a multiset: a third
// identical finding where the baseline has two is new.
import {readFileSync} from 'node:fs'

import {UserError} from '../errors.js'
import {CHECK_API_VERSION, CHECK_REPORT_KIND, type Finding} from '../model/check.js'

export type BaselineKey = Pick<Finding, 'rule' | 'kind' | 'namespace' | 'name' | 'message'>

export function baselineKey(f: BaselineKey): string {
  return JSON.stringify([f.rule, f.kind, f.namespace, f.name, f.message])
}

export class Baseline {
  private readonly counts = new Map<string, number>()
  constructor(
    readonly file: string,
    findings: readonly BaselineKey[],
  ) {
    for (const f of findings) this.counts.set(baselineKey(f), (this.counts.get(baselineKey(f)) ?? 0) + 1)
  }

  /** Whether the baseline still holds this finding; each baseline entry absorbs one finding. */
  take(f: BaselineKey): boolean {
    const key = baselineKey(f)
    const n = this.counts.get(key) ?? 0
    if (n === 0) return false
    this.counts.set(key, n - 1)
    return true
  }
}

export function loadBaseline(file: string): Baseline {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UserError(code === 'ENOENT' ? `${file}: no such file` : `cannot read ${file}: ${(error as Error).message}`, {
      hint: 'write one with kctl check -o json=FILE',
      cause: error,
    })
  }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (error) {
    throw new UserError(`${file}: not JSON (${(error as Error).message.split('\n')[0]})`, {hint: 'a baseline is the output of kctl check -o json'})
  }
  const report = doc as {apiVersion?: unknown; kind?: unknown; findings?: unknown}
  if (!report || typeof report !== 'object' || report.apiVersion !== CHECK_API_VERSION || report.kind !== CHECK_REPORT_KIND || !Array.isArray(report.findings)) {
    throw new UserError(`${file}: not a ${CHECK_API_VERSION} ${CHECK_REPORT_KIND}`, {hint: 'a baseline is the output of kctl check -o json'})
  }
  const findings: BaselineKey[] = []
  report.findings.forEach((f: unknown, i: number) => {
    const x = f as Record<string, unknown>
    if (!x || typeof x !== 'object' || !['rule', 'kind', 'namespace', 'name', 'message'].every((k) => typeof x[k] === 'string')) {
      throw new UserError(`${file}: findings[${i}] lacks rule, kind, namespace, name or message`, {hint: 'a baseline is the output of kctl check -o json'})
    }
    findings.push(x as unknown as BaselineKey)
  })
  return new Baseline(file, findings)
}
