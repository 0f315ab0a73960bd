// The documentation's figures about the oracles are the numbers the oracles compute: each e2e test
// that produces one checks that the documentation (README.md, CONTRIBUTING.md, docs/*.md) says
// exactly that (whitespace and line breaks aside).
import {readdirSync, readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const FILES = ['README.md', 'CONTRIBUTING.md', ...readdirSync(`${ROOT}docs`).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]

/** The documentation as one line: runs of whitespace become one space. */
export function readmeText(): string {
  return FILES.map((f) => readFileSync(`${ROOT}${f}`, 'utf8'))
    .join('\n')
    .replace(/\s+/g, ' ')
}

/** 2000 → "2,000", as the documentation writes numbers. */
export const figure = (n: number) => n.toLocaleString('en-US')
