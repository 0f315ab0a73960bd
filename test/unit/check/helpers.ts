// Runs the check service the way the command does (no oclif), from an empty working directory so
// no .kctl.yaml is picked up unless a test writes one.
import {mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import type {CheckReport, Finding} from '../../../src/model/check.js'
import {runCheck, type CheckRequest} from '../../../src/services/check.js'

export const RULES_FX = 'test/fixtures/check/rules'
export const EMPTY_CWD = mkdtempSync(join(tmpdir(), 'kctl-check-cwd-'))

export async function check(paths: string[], req: Partial<CheckRequest> = {}): Promise<CheckReport> {
  return (await runCheck({filename: paths, cwd: EMPTY_CWD, ...req})).report
}

/** `rule@line:column`, the compact form positions are asserted in. */
export const at = (f: Finding) => `${f.rule}@${f.line}:${f.column}`

export function ofRule(report: CheckReport, rule: string): Finding[] {
  return report.findings.filter((f) => f.rule === rule)
}
