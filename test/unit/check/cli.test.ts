// `kctl check` through the built CLI (bin/run.js): golden output for every format, the SARIF
// validated against the vendored SARIF 2.1.0 schema, several -o in one run, exit codes 0/1/3, and
// one clear line for what stops a run. After a deliberate change: UPDATE_GOLDEN=1 npm run test:unit.
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import {afterAll, describe, expect, it} from 'vitest'

import {kctl, ROOT} from '../cli/run-cli.js'

const SHOWCASE = 'test/fixtures/check/showcase'
const GOLDEN = join(ROOT, 'test', 'golden', 'check')
const update = process.env.UPDATE_GOLDEN === '1'
const tmp = mkdtempSync(join(tmpdir(), 'kctl-check-cli-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name)
  if (update) {
    mkdirSync(GOLDEN, {recursive: true})
    writeFileSync(file, actual)
  }
  if (!existsSync(file)) throw new Error(`${file} is missing: run UPDATE_GOLDEN=1 npm run test:unit and review it`)
  expect(actual).toBe(readFileSync(file, 'utf8'))
}

const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m)

function sarifValidator() {
  const schema = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/check/sarif-schema-2.1.0.json'), 'utf8'))
  const ajv = new Ajv({strict: false, allErrors: true})
  addFormats(ajv)
  return ajv.compile(schema)
}

const FORMATS = [
  {format: 'text', file: 'showcase.txt'},
  {format: 'json', file: 'showcase.json'},
  {format: 'sarif', file: 'showcase.sarif'},
  {format: 'junit', file: 'showcase.junit.xml'},
  {format: 'github', file: 'showcase.github.txt'},
  {format: 'markdown', file: 'showcase.md'},
] as const

describe('kctl check output formats (golden)', () => {
  it.each(FORMATS)('-o $format', ({format, file}) => {
    const run = kctl(['check', '-f', SHOWCASE, '-o', format])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(3)
    golden(file, run.stdout)
  })

  it('--rules, as text and as JSON', () => {
    const text = kctl(['check', '--rules'])
    expect(text.status).toBe(0)
    golden('rules.txt', text.stdout)
    const json = kctl(['check', '--rules', '-o', 'json'])
    expect(json.status).toBe(0)
    golden('rules.json', json.stdout)
    const ids = JSON.parse(json.stdout).rules.map((r: {id: string}) => r.id)
    expect(ids).toEqual(expect.arrayContaining(['selector-template-mismatch', 'overlapping-selectors', 'parse-error', 'deprecated-api']))
  })

  it('prints the same bytes twice', () => {
    expect(kctl(['check', '-f', SHOWCASE, '-o', 'json']).stdout).toBe(kctl(['check', '-f', SHOWCASE, '-o', 'json']).stdout)
  })
})

describe('SARIF', () => {
  const validate = sarifValidator()

  it('is valid against the SARIF 2.1.0 schema, with rules and regions', () => {
    const sarif = JSON.parse(kctl(['check', '-f', SHOWCASE, '-o', 'sarif']).stdout)
    expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true)
    const run = sarif.runs[0]
    expect(run.tool.driver.rules.map((r: {id: string}) => r.id)).toContain('overlapping-selectors')
    const mismatch = run.results.find((r: {ruleId: string}) => r.ruleId === 'selector-template-mismatch')
    expect(mismatch.locations[0].physicalLocation).toEqual({artifactLocation: {uri: `${SHOWCASE}/api.yaml`}, region: {startLine: 11, startColumn: 9}})
    expect(run.tool.driver.rules[mismatch.ruleIndex].id).toBe('selector-template-mismatch')
  })

  it('stays valid with parse errors, an empty result and odd file names', () => {
    const dir = join(tmp, 'odd name #1')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, 'a b.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n   bad: indent\n')
    for (const args of [['-f', dir], ['-f', 'test/fixtures/check/rules/parse-error/good.yaml'], ['-f', '-']]) {
      const run = kctl(['check', ...args, '-o', 'sarif'], {input: 'apiVersion: apps/v1beta1\nkind: Deployment\nmetadata: {name: x}\n'})
      const sarif = JSON.parse(run.stdout)
      expect(validate(sarif), JSON.stringify(validate.errors)).toBe(true)
    }
  })

  it('the validator does reject a broken log (it is not vacuous)', () => {
    const sarif = JSON.parse(kctl(['check', '-f', SHOWCASE, '-o', 'sarif']).stdout)
    sarif.runs[0].results[0].level = 'fatal'
    delete sarif.version
    expect(validate(sarif)).toBe(false)
  })
})

describe('kctl check command line', () => {
  it('writes several formats in one run: -o sarif=FILE -o json=FILE -o text', () => {
    const sarif = join(tmp, 'out.sarif')
    const json = join(tmp, 'out.json')
    const run = kctl(['check', '-f', SHOWCASE, '-o', `sarif=${sarif}`, '-o', `json=${json}`, '-o', 'text'])
    expect(run.status).toBe(3)
    expect(run.stdout).toBe(readFileSync(join(GOLDEN, 'showcase.txt'), 'utf8'))
    expect(readFileSync(sarif, 'utf8')).toBe(readFileSync(join(GOLDEN, 'showcase.sarif'), 'utf8'))
    expect(readFileSync(json, 'utf8')).toBe(readFileSync(join(GOLDEN, 'showcase.json'), 'utf8'))
  })

  it('with every format going to files, says on stderr what it wrote', () => {
    const junit = join(tmp, 'out.xml')
    const run = kctl(['check', '-f', SHOWCASE, '-o', `junit=${junit}`])
    expect(run.status).toBe(3)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`kctl check: 8 findings (3 errors, 4 warnings, 1 info) in 9 objects from 4 files; wrote ${junit}\n`)
    expect(readFileSync(junit, 'utf8')).toBe(readFileSync(join(GOLDEN, 'showcase.junit.xml'), 'utf8'))
  })

  it('defaults to text when stdout is not a terminal (JSON only with -o json)', () => {
    const run = kctl(['check', '-f', SHOWCASE], {env: {GITHUB_ACTIONS: undefined}})
    expect(run.status).toBe(3)
    expect(run.stdout).toBe(readFileSync(join(GOLDEN, 'showcase.txt'), 'utf8'))
    expect(JSON.parse(kctl(['check', '-f', SHOWCASE, '-o', 'json']).stdout)).toMatchObject({apiVersion: 'kctl/v1alpha1', kind: 'CheckReport', summary: {files: 4, objects: 9, error: 3, warning: 4, info: 1}})
  })

  it('-o table is text, as in every other command, to stdout or to a file; --rules takes it too', () => {
    const run = kctl(['check', '-f', SHOWCASE, '-o', 'table'])
    expect(run.status).toBe(3)
    expect(run.stdout).toBe(readFileSync(join(GOLDEN, 'showcase.txt'), 'utf8'))
    const file = join(tmp, 'table.txt')
    expect(kctl(['check', '-f', SHOWCASE, '-o', `table=${file}`]).status).toBe(3)
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(GOLDEN, 'showcase.txt'), 'utf8'))
    const rules = kctl(['check', '--rules', '-o', 'table'])
    expect(rules.status).toBe(0)
    expect(rules.stdout).toBe(readFileSync(join(GOLDEN, 'rules.txt'), 'utf8'))
  })

  it('under GitHub Actions (GITHUB_ACTIONS=true) adds workflow annotations, then the text, unless -o says otherwise', () => {
    const github = readFileSync(join(GOLDEN, 'showcase.github.txt'), 'utf8')
    const text = readFileSync(join(GOLDEN, 'showcase.txt'), 'utf8')
    const run = kctl(['check', '-f', SHOWCASE], {env: {GITHUB_ACTIONS: 'true'}})
    expect(run.status).toBe(3)
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe(github + text)
    // -o decides alone: text only, JSON only, or a SARIF file with nothing on stdout.
    expect(kctl(['check', '-f', SHOWCASE, '-o', 'text'], {env: {GITHUB_ACTIONS: 'true'}}).stdout).toBe(text)
    expect(JSON.parse(kctl(['check', '-f', SHOWCASE, '-o', 'json'], {env: {GITHUB_ACTIONS: 'true'}}).stdout).kind).toBe('CheckReport')
    const sarif = join(tmp, 'gha.sarif')
    const toFile = kctl(['check', '-f', SHOWCASE, '-o', `sarif=${sarif}`], {env: {GITHUB_ACTIONS: 'true'}})
    expect(toFile.stdout).toBe('')
    expect(toFile.status).toBe(3)
    // Any other value of the variable is not GitHub Actions.
    expect(kctl(['check', '-f', SHOWCASE], {env: {GITHUB_ACTIONS: 'false'}}).stdout).toBe(text)
  })

  it('exit 0 with nothing at or above --fail-on, 3 with something', () => {
    const warnings = 'test/fixtures/check/rules/overlapping-selectors/bad.yaml'
    expect(kctl(['check', '-f', 'test/fixtures/check/rules/overlapping-selectors/good.yaml', '-o', 'json']).status).toBe(0)
    expect(kctl(['check', '-f', warnings, '-o', 'json']).status).toBe(0)
    expect(kctl(['check', '-f', warnings, '-o', 'json', '--fail-on', 'warning']).status).toBe(3)
    const infoOnly = 'test/fixtures/check/rules/rc-selector-defaulted/bad.yaml'
    expect(kctl(['check', '-f', infoOnly, '-o', 'json', '--fail-on', 'warning']).status).toBe(0)
    expect(kctl(['check', '-f', infoOnly, '-o', 'json', '--fail-on', 'info']).status).toBe(3)
  })

  it('the Service rules through the CLI: each finding at its field, exit 3 with --fail-on warning, 0 once the ports and probes are there', () => {
    const rules = ['service-target-port-undefined', 'publish-not-ready-without-probe', 'lb-local-selects-nothing']
    const bad = kctl(['check', ...rules.flatMap((r) => ['-f', `test/fixtures/check/rules/${r}/bad.yaml`]), '-o', 'json', '--fail-on', 'warning'])
    expect(bad.stderr).toBe('')
    expect(bad.status).toBe(3)
    const findings = JSON.parse(bad.stdout).findings.filter((f: {rule: string}) => rules.includes(f.rule))
    expect(findings.map((f: {rule: string; line: number; column: number; field: string}) => `${f.rule}@${f.line}:${f.column} ${f.field}`)).toEqual([
      'service-target-port-undefined@23:17 spec.ports[0].targetPort',
      'service-target-port-undefined@48:58 spec.ports[1].targetPort',
      'publish-not-ready-without-probe@18:29 spec.publishNotReadyAddresses',
      'lb-local-selects-nothing@17:26 spec.externalTrafficPolicy',
    ])
    const good = kctl(['check', '-f', 'test/fixtures/check/rules/service-target-port-undefined/good.yaml', '-f', 'test/fixtures/check/rules/publish-not-ready-without-probe/good.yaml', '-o', 'json', '--fail-on', 'warning'])
    expect(good.status).toBe(0)
  })

  it('exit 1 when an input cannot be parsed, with the report still printed and each input a finding', () => {
    const run = kctl(['check', '-f', 'test/fixtures/check/rules/parse-error', '-o', 'json', '--fail-on', 'info'])
    expect(run.status).toBe(1)
    expect(run.stderr).toBe('')
    const report = JSON.parse(run.stdout)
    expect(report.findings.map((f: {rule: string; line: number; column: number}) => `${f.rule}@${f.line}:${f.column}`)).toEqual([
      'parse-error@5:1',
      'parse-error@16:13',
      'parse-error@19:1',
    ])
  })

  it('reads stdin with -f -', () => {
    const run = kctl(['check', '-f', '-', '-o', 'json'], {input: readFileSync(join(ROOT, 'test/fixtures/check/rules/hpa-replicas-conflict/bad.yaml'), 'utf8')})
    const report = JSON.parse(run.stdout)
    expect(report.findings.map((f: {file: string; line: number}) => `${f.file}:${f.line}`)).toEqual(['<stdin>:6', '<stdin>:30', '<stdin>:31'])
  })

  it.each([
    [['check', '-f', 'nope.yaml'], 'error: nope.yaml: no such file or directory (check the -f path)'],
    [['check'], 'error: kctl check needs manifests: pass -f FILE, -f DIR, -f - or -k DIR (e.g. kctl check -f deploy/)'],
    [['check', '-f', SHOWCASE, '-o', 'xml'], 'error: invalid -o "xml": expected one of text, json, sarif, junit, github, markdown (or table, the same as text), optionally as FORMAT=FILE'],
    [['check', '-f', SHOWCASE, '-o', 'text', '-o', 'json'], 'error: only one -o format can go to standard output (write the others to files: -o sarif=out.sarif)'],
    [['check', '-f', SHOWCASE, '-o', 'sarif=/nonexistent-dir/out.sarif'], 'error: cannot write /nonexistent-dir/out.sarif: ENOENT (does its directory exist?)'],
    [['check', '-f', SHOWCASE, '--k8s-version', 'latest'], 'error: invalid --k8s-version "latest": expected a Kubernetes version such as 1.29 or v1.29.3'],
    [['check', '-f', SHOWCASE, '--baseline', 'nope.json'], 'error: nope.json: no such file (write one with kctl check -o json=FILE)'],
    [['check', '-f', SHOWCASE, '--disable', 'nope'], 'error: --disable: unknown rule "nope" (kctl check --rules lists them)'],
    [['check', '-f', SHOWCASE, '--fail-on', 'fatal'], undefined],
  ])('%j stops with one line and exit 1', (args, line) => {
    const run = kctl(args)
    expect(run.status).toBe(1)
    expect(run.stdout).toBe('')
    noStack(run.stderr)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    if (line) expect(run.stderr).toBe(`${line}\n`)
  })

  it('a bad .kctl.yaml names file:line:col', () => {
    const dir = join(tmp, 'cfg')
    mkdirSync(dir, {recursive: true})
    const config = join(dir, 'kctl.yaml')
    writeFileSync(config, 'check:\n  rules:\n    overlaping-selectors: off\n')
    const run = kctl(['check', '-f', SHOWCASE, '--config', config])
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(`error: ${config}:3:5: check.rules: unknown rule "overlaping-selectors" (kctl check --rules lists them)\n`)
  })

  it('--against and --against-cluster exclude each other', () => {
    const run = kctl(['check', '-f', SHOWCASE, '--against', SHOWCASE, '--against-cluster'])
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/^error: .*--against/)
  })

  it('compares selectors with a previous render (--against DIR)', () => {
    const run = kctl(['check', '-f', 'test/fixtures/check/immutable/current-bad', '--against', 'test/fixtures/check/immutable/previous', '-o', 'json'])
    expect(run.status).toBe(3)
    const report = JSON.parse(run.stdout)
    expect(report.options.against).toEqual({type: 'directory', path: 'test/fixtures/check/immutable/previous'})
    expect(report.findings.map((f: {severity: string; kind: string; line: number; column: number}) => `${f.severity} ${f.kind} ${f.line}:${f.column}`)).toEqual([
      'error Deployment 7:3',
      'error DaemonSet 19:3',
      'warning ReplicationController 32:3',
      'error Job 43:3',
    ])
    expect(report.findings[1].message).toContain('changes from matchLabels {app: agent} to matchExpressions [app In (agent)]')
    expect(report.findings[0].related[0]).toMatchObject({file: 'test/fixtures/check/immutable/previous/app.yaml', line: 6, column: 3})
    const same = kctl(['check', '-f', 'test/fixtures/check/immutable/current-good', '--against', 'test/fixtures/check/immutable/previous', '-o', 'json'])
    expect(same.status).toBe(0)
    expect(JSON.parse(same.stdout).findings).toEqual([])
  })

  it('colours text on request and never otherwise when piped', () => {
    expect(kctl(['check', '-f', SHOWCASE, '-o', 'text']).stdout).not.toMatch(/\x1b\[/)
    expect(kctl(['check', '-f', SHOWCASE, '-o', 'text', '--color']).stdout).toMatch(/\x1b\[31merror/)
    // A file never gets colour.
    const file = join(tmp, 'colour.txt')
    kctl(['check', '-f', SHOWCASE, '-o', `text=${file}`, '--color'])
    expect(readFileSync(file, 'utf8')).not.toMatch(/\x1b\[/)
  })

  it('--help shows the examples', () => {
    const run = kctl(['check', '--help'])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('--against-cluster')
    expect(run.stdout).toContain('-o sarif=kctl.sarif -o github --fail-on warning')
  })
})
