// The documentation shows what the program prints: every example in README.md, CONTRIBUTING.md and
// docs/*.md that shows a `kctl …` command with its output is run through the built CLI and must
// print exactly that, with the exit status shown. The convention (CONTRIBUTING.md, "Examples in
// the documentation"):
//
//   ```console
//   $ kctl check -f examples/statefulset -o text --fail-on warning   (every other command with --now)
//   …stdout, then stderr, exactly as printed…
//   [exit 3]                      <- only when the exit status is not 0
//   ```
//
// A command may go on over lines that end in ` \`; a block may hold several commands, each followed
// by its output. `<!-- doc-test: skip: REASON -->` on the line before the fence skips a block that
// needs what a unit test does not have (a live cluster, a provider's state), and the reason is
// printed. Compared after removing trailing whitespace; in `kctl watch` tables the wall-clock time
// at the start of a row (HH:MM:SS), which `--now` does not set, is not compared.
//
// Also here: relative links and their #anchors resolve, the rule table of docs/check.md is the
// program's rule list, and the feature-gate flag lists every gate the program knows.
import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {dirname, join, normalize} from 'node:path'

import {describe, expect, it} from 'vitest'

import {kctl, NOW, ROOT} from './run-cli.js'

const FILES = ['README.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

interface Fence {
  file: string
  line: number // 1-based line of the opening fence
  lang: string
  body: string[]
  skip?: string
  /** Only blank lines between the previous fence's end and this one. */
  followsFence: boolean
}

function fences(file: string): Fence[] {
  const lines = read(file).split('\n')
  const out: Fence[] = []
  let lastEnd = -10
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i])
    if (!open) continue
    let j = i + 1
    while (j < lines.length && !/^```\s*$/.test(lines[j])) j++
    const before = lines.slice(lastEnd + 1, i)
    const skip = /^<!-- doc-test: skip: (.+?) -->$/.exec(lines[i - 1] ?? '')?.[1]
    out.push({file, line: i + 1, lang: open[1], body: lines.slice(i + 1, j), skip, followsFence: lastEnd >= 0 && before.every((l) => l.trim() === '')})
    lastEnd = j
    i = j
  }
  return out
}

interface Example {
  where: string
  args: string[]
  command: string
  expected: string
  status: number
  skip?: string
}

/** Splits a command line as a POSIX shell would for the plain words and quotes an example uses. */
function words(command: string): string[] {
  if (/[|;&<>`$()]/.test(command.replace(/'[^']*'|"[^"]*"/g, ''))) throw new Error(`not a plain command (pipes, redirections and variables are not run): ${command}`)
  const out: string[] = []
  for (const m of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3])
  return out
}

function examples(fence: Fence): Example[] {
  const out: Example[] = []
  const body = fence.body
  let i = 0
  while (i < body.length) {
    if (!body[i].startsWith('$ ')) throw new Error(`${fence.file}:${fence.line + 1 + i}: a console block starts each command with "$ kctl "`)
    let command = body[i].slice(2)
    while (command.endsWith('\\')) command = command.slice(0, -1).trimEnd() + ' ' + body[++i].trim()
    const first = fence.line + 1 + i
    const output: string[] = []
    for (i++; i < body.length && !body[i].startsWith('$ '); i++) output.push(body[i])
    let status = 0
    const exit = /^\[exit (\d+)\]$/.exec(output.at(-1) ?? '')
    if (exit) {
      status = Number(exit[1])
      output.pop()
    }
    const argv = words(command)
    if (argv[0] !== 'kctl') throw new Error(`${fence.file}:${first}: a console block runs kctl, not ${argv[0]}`)
    out.push({where: `${fence.file}:${first}`, command, args: argv.slice(1), expected: output.join('\n'), status, skip: fence.skip})
  }
  return out
}

const all = FILES.flatMap(fences)
const consoles = all.filter((f) => f.lang === 'console')
const runnable = consoles.flatMap(examples)

function normalize_(text: string, watch: boolean): string {
  let lines = text.split('\n').map((l) => l.trimEnd())
  if (watch) lines = lines.map((l) => l.replace(/^\d\d:\d\d:\d\d /, 'hh:mm:ss '))
  while (lines.length > 0 && lines.at(-1) === '') lines.pop()
  return lines.join('\n')
}

describe('the examples in the documentation', () => {
  it('every example with output is a console block, so that it is run', () => {
    const wrong: string[] = []
    for (const f of all) {
      if (f.lang === 'console') continue
      const dollar = f.body.findIndex((l) => /^\$ /.test(l))
      if (dollar >= 0) wrong.push(`${f.file}:${f.line + 1 + dollar}: "$ " command in a \`\`\`${f.lang} block: use \`\`\`console`)
    }
    // The old shape: a block with the command, then a block with what it printed.
    all.forEach((f, k) => {
      const prev = all[k - 1]
      if (f.followsFence && prev?.file === f.file && prev.lang === 'sh' && prev.body.some((l) => /^(kctl|\.\/bin\/run\.js) /.test(l)) && f.lang === '')
        wrong.push(`${f.file}:${f.line}: output after a command block: show both in one \`\`\`console block`)
    })
    expect(wrong).toEqual([])
  })

  it('finds the examples of the README and of every command page', () => {
    const files = new Set(runnable.map((e) => e.where.split(':')[0]))
    for (const f of ['README.md', 'docs/plan.md', 'docs/list.md', 'docs/simulate.md', 'docs/check.md', 'docs/reconcile.md', 'docs/watch.md']) expect(files, f).toContain(f)
    console.info(`docs examples: ${runnable.length} found, ${runnable.filter((e) => e.skip).length} skipped`)
  })

  for (const ex of runnable) {
    if (ex.skip) {
      console.info(`skipped ${ex.where} (${ex.skip}): kctl ${ex.command.slice(5)}`)
      it.skip(`${ex.where}: ${ex.command} (skipped: ${ex.skip})`, () => {})
      continue
    }
    it(`${ex.where}: ${ex.command}`, () => {
      if (ex.args[0] !== 'check') expect(ex.args, 'examples fix the clock with --now').toContain('--now')
      const run = kctl(ex.args)
      const watch = ex.args[0] === 'watch'
      expect(normalize_(run.stdout + run.stderr, watch)).toBe(normalize_(ex.expected, watch))
      expect(run.status).toBe(ex.status)
    })
  }
})

/** GitHub's anchor for a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

function anchors(file: string): Set<string> {
  const text = read(file).replace(/^```[\s\S]*?^```/gm, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])))
}

describe('the documentation hangs together', () => {
  it('every relative link and #anchor resolves', () => {
    const broken: string[] = []
    for (const file of FILES) {
      const text = read(file).replace(/^```[\s\S]*?^```/gm, '')
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]
        if (/^[a-z]+:/.test(target)) continue
        const [path, anchor] = target.split('#')
        const resolved = path === '' ? file : normalize(join(dirname(file), path))
        if (!existsSync(join(ROOT, resolved))) broken.push(`${file}: ${target} (no ${resolved})`)
        else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`)
      }
    }
    expect(broken).toEqual([])
  })

  it("docs/check.md's rule table is the program's rule list, with each rule's default severity", () => {
    const rules: {id: string; defaultSeverity: string; enabled: boolean}[] = JSON.parse(kctl(['check', '--rules', '-o', 'json']).stdout).rules
    const table = [...read('docs/check.md').matchAll(/^\| `([a-z-]+)` \| ([^|]+) \|/gm)].map((m) => ({id: m[1], severity: m[2].trim()}))
    expect(table.map((r) => r.id).sort()).toEqual(rules.map((r) => r.id).sort())
    for (const rule of rules) {
      const row = table.find((r) => r.id === rule.id)!
      expect(row.severity.split(/[\s,/(]/)[0], rule.id).toBe(rule.defaultSeverity)
      expect(row.severity.includes('off'), rule.id).toBe(!rule.enabled)
    }
  })

  it('the --feature-gates flag names every gate the program knows', () => {
    const gates = Object.keys(JSON.parse(kctl(['plan', '-f', 'examples/scale-down', '--now', NOW, '-o', 'json']).stdout).options.featureGates)
    expect(gates.length).toBeGreaterThanOrEqual(5)
    for (const file of ['docs/input.md', 'docs/output.md']) {
      const row = read(file).split('\n').find((l) => l.startsWith('| `--feature-gates'))
      for (const gate of gates) expect(row, `${file}: ${gate}`).toContain(`\`${gate}\``)
    }
  })
})
