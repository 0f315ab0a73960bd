// Fixture files for reader tests: a temporary folder removed after the test file, and the one line
// a read refused with.
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll} from 'vitest'

import {UserError} from '../../src/errors.js'
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
