// Fixture files for tests that read them: a temporary folder removed after the test file, the one
// line a read is refused with, and the plan table of what was read.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll} from 'vitest'

import {UserError} from '../../src/errors.js'
import {planSnapshot} from '../../src/reconcile/planner.js'
import {renderPlanTable} from '../../src/render/plan-table.js'
import {parseFeatureGates, plannerOptions} from '../../src/services/options.js'
import {readFixtures} from '../../src/sources/fixtures.js'

/** A temporary folder for this test file's fixtures: `file` writes a named one, `yaml` a numbered one. */
export function fixtureFiles(prefix: string): {file(name: string, text: string): string; yaml(text: string): string} {
  const dir = mkdtempSync(join(tmpdir(), `kctl-${prefix}-`))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))
  let n = 0
  const file = (name: string, text: string) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }
  return {file, yaml: (text) => file(`f${n++}.yaml`, text)}
}

/** The one line (UserError.line) reading these files is refused with; fails when they read fine. */
export async function readError(paths: string[]): Promise<string> {
  try {
    await readFixtures({paths})
  } catch (error) {
    if (error instanceof UserError) return error.line
    throw error
  }
  throw new Error('expected an error')
}

/** `kctl plan`'s table for these files, at the tests' fixed clock and the default feature gates. */
export async function planTable(paths: string[]): Promise<string> {
  const snapshot = await readFixtures({paths})
  return renderPlanTable(planSnapshot(snapshot, plannerOptions('2026-11-22T10:00:00Z', parseFeatureGates(undefined))))
}
