// The README's figures about the oracles are the numbers the oracles compute: each e2e test that
// produces one checks that the README says exactly that (whitespace and line breaks aside).
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

const README = fileURLToPath(new URL('../../README.md', import.meta.url))

/** The README as one line: runs of whitespace become one space. */
export function readmeText(): string {
  return readFileSync(README, 'utf8').replace(/\s+/g, ' ')
}

/** 2000 → "2,000", as the README writes numbers. */
export const figure = (n: number) => n.toLocaleString('en-US')
