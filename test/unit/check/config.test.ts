// .kctl.yaml, --disable, --fail-on, ignored paths, the kctl.io/ignore syntax and --baseline.
import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, relative} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {loadBaseline} from '../../../src/check/baseline.js'
import {parseConfig} from '../../../src/check/config.js'
import {globToRegExp, PathMatcher} from '../../../src/check/glob.js'
import {parseIgnore} from '../../../src/check/ignore.js'
import {UserError} from '../../../src/errors.js'
import {renderCheckJson} from '../../../src/render/check-json.js'
import {check, ofRule, RULES_FX} from './helpers.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-check-config-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

function configError(text: string): string {
  try {
    parseConfig(text, '.kctl.yaml', tmp)
  } catch (error) {
    if (error instanceof UserError) return error.line
    throw error
  }
  throw new Error('expected an error')
}

describe('.kctl.yaml', () => {
  it('reads rules (off, on, a severity, or a mapping), failOn, k8sVersion and ignorePaths', () => {
    const config = parseConfig(
      `check:
  failOn: warning
  k8sVersion: 1.30
  rules:
    overlapping-selectors: off
    rc-selector-defaulted: false
    service-selects-nothing: info
    hpa-replicas-conflict: {severity: error}
    empty-selector: {enabled: true, severity: warning}
  ignorePaths:
    - "vendor/**"
    - generated
`,
      '.kctl.yaml',
      tmp,
    )
    expect(config.failOn).toBe('warning')
    expect(config.k8sVersion?.value).toBe('1.30') // as written: not the number 1.3
    expect(Object.fromEntries(config.rules)).toEqual({
      'overlapping-selectors': {enabled: false},
      'rc-selector-defaulted': {enabled: false},
      'service-selects-nothing': {enabled: true, severity: 'info'},
      'hpa-replicas-conflict': {severity: 'error'},
      'empty-selector': {enabled: true, severity: 'warning'},
    })
    expect(config.ignorePaths).toEqual(['vendor/**', 'generated'])
  })

  it('an empty file, or one without check:, configures nothing', () => {
    expect(parseConfig('', '.kctl.yaml', tmp).rules.size).toBe(0)
    expect(parseConfig('check:\n', '.kctl.yaml', tmp).rules.size).toBe(0)
  })

  it('names file:line:col of every mistake', () => {
    expect(configError('check:\n  rules:\n    overlaping-selectors: off\n')).toBe(
      '.kctl.yaml:3:5: check.rules: unknown rule "overlaping-selectors" (kctl check --rules lists them)',
    )
    expect(configError('check:\n  failon: warning\n')).toBe('.kctl.yaml:2:3: unknown key "failon" (known here: failOn, k8sVersion, rules, ignorePaths)')
    expect(configError('check:\n  failOn: fatal\n')).toBe('.kctl.yaml:2:11: check.failOn: expected error, warning or info')
    expect(configError('check:\n  rules:\n    empty-selector: loud\n')).toMatch(/^\.kctl\.yaml:3:21: check\.rules\.empty-selector: expected off, on/)
    expect(configError('check:\n  rules:\n    parse-error: off\n')).toBe('.kctl.yaml:3:5: check.rules: parse-error cannot be configured (ignore the path instead)')
    expect(configError('chek:\n  rules: {}\n')).toBe('.kctl.yaml:1:1: unknown key "chek" (known here: check)')
    expect(configError('check:\n  ignorePaths: vendor\n')).toBe('.kctl.yaml:2:16: check.ignorePaths: expected a list of path globs')
    expect(configError('check: [\n')).toMatch(/^\.kctl\.yaml:\d+:\d+: invalid YAML: /)
  })

  it('is found in the working directory and applied: severities, rules off, failOn', async () => {
    const dir = join(tmp, 'project')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, '.kctl.yaml'), 'check:\n  failOn: info\n  rules:\n    selector-template-mismatch: warning\n    overlapping-selectors: off\n')
    const r = await check([`${RULES_FX}/selector-template-mismatch/bad.yaml`], {cwd: dir})
    expect(r.options.failOn).toBe('info')
    expect(ofRule(r, 'selector-template-mismatch').every((f) => f.severity === 'warning')).toBe(true)
    expect(ofRule(r, 'overlapping-selectors')).toEqual([])
    // --config wins over the working directory; a flag wins over the file.
    const explicit = join(tmp, 'other.yaml')
    writeFileSync(explicit, 'check:\n  rules:\n    selector-template-mismatch: info\n')
    const r2 = await check([`${RULES_FX}/selector-template-mismatch/bad.yaml`], {cwd: dir, config: explicit, failOn: 'error'})
    expect(ofRule(r2, 'selector-template-mismatch').every((f) => f.severity === 'info')).toBe(true)
    expect(r2.options.failOn).toBe('error')
  })

  it('a missing --config is an error that stops the run', async () => {
    await expect(check([`${RULES_FX}/parse-error/good.yaml`], {config: join(tmp, 'nope.yaml')})).rejects.toThrow(/nope\.yaml: no such file/)
  })

  it('a bad k8sVersion in the file is reported at its position', async () => {
    const dir = join(tmp, 'badversion')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, '.kctl.yaml'), 'check:\n  k8sVersion: "two"\n')
    await expect(check([`${RULES_FX}/parse-error/good.yaml`], {cwd: dir})).rejects.toThrow(UserError)
    const error = await check([`${RULES_FX}/parse-error/good.yaml`], {cwd: dir}).catch((e: UserError) => e.line)
    expect(error).toBe('.kctl.yaml:2:15: invalid check.k8sVersion "two": expected a Kubernetes version such as 1.29 or v1.29.3')
  })

  it('ignorePaths drop findings (parse errors too) in matching files, relative to the config', async () => {
    const dir = join(tmp, 'ignoring')
    mkdirSync(join(dir, 'manifests', 'broken'), {recursive: true})
    for (const f of ['bad.yaml', 'bad.json']) writeFileSync(join(dir, 'manifests', 'broken', f), readFileSync(`${RULES_FX}/parse-error/${f}`))
    writeFileSync(join(dir, 'manifests', 'ok.yaml'), readFileSync(`${RULES_FX}/rc-selector-defaulted/bad.yaml`))
    writeFileSync(join(dir, '.kctl.yaml'), 'check:\n  ignorePaths:\n    - "manifests/broken/*.yaml"\n    - bad.json\n')
    const r = await check([join(dir, 'manifests')], {cwd: dir})
    expect(r.findings.map((f) => `${relative(dir, f.file)} ${f.rule}`)).toEqual(['manifests/ok.yaml rc-selector-defaulted', 'manifests/ok.yaml rc-selector-defaulted'])
    expect(r.summary.suppressed).toBe(3)
  })

  it('--disable turns rules off; parse-error and unknown ids are refused', async () => {
    // (its StatefulSets name Services the file does not have: that rule is turned off too, as a list)
    const r = await check([`${RULES_FX}/overlapping-selectors/bad.yaml`], {disable: ['overlapping-selectors,statefulset-service-missing']})
    expect(r.findings).toEqual([])
    await expect(check([`${RULES_FX}/parse-error`], {disable: ['parse-error']})).rejects.toThrow('parse-error cannot be turned off')
    await expect(check([`${RULES_FX}/parse-error`], {disable: ['nope']})).rejects.toThrow('unknown rule "nope"')
  })
})

describe('path globs', () => {
  const m = (patterns: string[], path: string) => new PathMatcher(patterns).matches(path)
  it('match like .gitignore: names at any depth, anchored paths, directories and their contents', () => {
    expect(m(['*.json'], 'a/b/c.json')).toBe(true)
    expect(m(['vendor'], 'x/vendor/y.yaml')).toBe(true)
    expect(m(['vendor/'], 'vendor/y.yaml')).toBe(true)
    expect(m(['/vendor'], 'x/vendor/y.yaml')).toBe(false)
    expect(m(['charts/*/tests/**'], 'charts/web/tests/a.yaml')).toBe(true)
    expect(m(['charts/*/tests/**'], 'charts/web/x/tests/a.yaml')).toBe(false)
    expect(m(['**/tests/*.yaml'], 'a/b/tests/t.yaml')).toBe(true)
    expect(m(['**/tests/*.yaml'], 'tests/t.yaml')).toBe(true)
    expect(m(['deploy/{dev,staging}/**'], 'deploy/staging/a.yaml')).toBe(true)
    expect(m(['deploy/{dev,staging}/**'], 'deploy/prod/a.yaml')).toBe(false)
    expect(m(['file?.yaml'], 'file1.yaml')).toBe(true)
    expect(m(['[ab].yaml'], 'c.yaml')).toBe(false)
    expect(m(['*.yaml'], '../outside.yaml')).toBe(false)
    expect(globToRegExp('a.b').test('axb')).toBe(false)
  })
})

describe('kctl.io/ignore syntax', () => {
  it('reads RULE[, RULE] then a dash, "--", "-" or ":" then the reason; entries by line or ";"', () => {
    expect(parseIgnore('overlapping-selectors — canary on purpose').entries).toEqual([{rules: ['overlapping-selectors'], reason: 'canary on purpose'}])
    expect(parseIgnore('overlapping-selectors -- x; hpa-replicas-conflict: y\nempty-selector - z').entries.map((e) => e.reason)).toEqual(['x', 'y', 'z'])
    expect(parseIgnore('overlapping-selectors, service-selects-nothing – both fine').entries).toEqual([
      {rules: ['overlapping-selectors', 'service-selects-nothing'], reason: 'both fine'},
    ])
  })

  it('reports what ignores nothing', () => {
    expect(parseIgnore('overlapping-selectors').problems).toEqual(['"overlapping-selectors" is ignored without a reason: write "overlapping-selectors — why this is fine"'])
    expect(parseIgnore('overlapping-selectors —   ').problems).toHaveLength(1)
    expect(parseIgnore('nope — because').problems).toEqual(['unknown rule "nope" (kctl check --rules lists them)'])
    expect(parseIgnore('overlapping-selectors because').problems[0]).toMatch(/^cannot read/)
  })
})

describe('--baseline', () => {
  it('drops findings the baseline has (by rule, object and message, not line), counting each once', async () => {
    const before = await check([`${RULES_FX}/selector-template-mismatch/bad.yaml`])
    const file = join(tmp, 'baseline.json')
    // The saved report, with every line shifted (an edit above): still the same findings.
    const saved = JSON.parse(renderCheckJson(before))
    saved.findings = saved.findings.map((f: {line: number}) => ({...f, line: f.line + 7}))
    writeFileSync(file, JSON.stringify(saved))
    const after = await check([`${RULES_FX}/selector-template-mismatch/bad.yaml`], {baseline: file})
    expect(after.findings).toEqual([])
    expect(after.summary.baselined).toBe(before.findings.length)
    expect(after.options.baseline).toBe(file)
    // One finding fewer in the baseline: exactly that one is new.
    saved.findings = saved.findings.slice(1)
    writeFileSync(file, JSON.stringify(saved))
    const again = await check([`${RULES_FX}/selector-template-mismatch/bad.yaml`], {baseline: file})
    expect(again.findings.map((f) => f.name)).toEqual([before.findings[0].name])
  })

  it('refuses what is not a CheckReport, with one line', () => {
    const file = join(tmp, 'not-a-report.json')
    writeFileSync(file, JSON.stringify({kind: 'ReconcilePlan'}))
    expect(() => loadBaseline(file)).toThrow(`${file}: not a kctl/v1alpha1 CheckReport`)
    expect(() => loadBaseline(join(tmp, 'missing.json'))).toThrow('no such file')
  })
})

describe('the configuration file among the manifests', () => {
  it('is not read as a manifest when -f names its directory', async () => {
    const dir = join(tmp, 'repo')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, '.kctl.yaml'), 'check:\n  failOn: warning\n')
    writeFileSync(join(dir, 'app.yaml'), readFileSync(`${RULES_FX}/rc-selector-defaulted/good.yaml`))
    const prev = process.cwd()
    process.chdir(dir)
    try {
      const r = await check(['.'], {cwd: dir})
      expect(r.findings).toEqual([])
      expect(r.summary.files).toBe(1)
      expect(r.options.failOn).toBe('warning')
    } finally {
      process.chdir(prev)
    }
  })
})
