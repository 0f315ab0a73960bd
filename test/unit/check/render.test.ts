// Escaping and edge cases of the renderers, on hand-made reports.
import {describe, expect, it} from 'vitest'

import {effectiveRules} from '../../../src/check/engine.js'
import type {CheckReport, Finding} from '../../../src/model/check.js'
import {reportOutcome} from '../../../src/model/check.js'
import {renderCheckGithub} from '../../../src/render/check-github.js'
import {renderCheckJunit} from '../../../src/render/check-junit.js'
import {renderCheckMarkdown} from '../../../src/render/check-markdown.js'
import {fileUri, renderCheckSarif} from '../../../src/render/check-sarif.js'
import {renderCheckText} from '../../../src/render/check-text.js'

const finding = (over: Partial<Finding> = {}): Finding => ({
  rule: 'invalid-field',
  severity: 'error',
  file: 'deploy/a,b:c.yaml',
  line: 3,
  column: 5,
  kind: 'Deployment',
  namespace: 'default',
  name: 'web',
  message: 'spec.replicas: 100% <bad> & "odd" | pipe\nsecond line',
  field: 'spec.replicas',
  ...over,
})

const report = (findings: Finding[], failOn: 'error' | 'warning' | 'info' = 'error'): CheckReport => ({
  apiVersion: 'kctl/v1alpha1',
  kind: 'CheckReport',
  findings,
  summary: {
    files: 1,
    objects: 1,
    error: findings.filter((f) => f.severity === 'error').length,
    warning: findings.filter((f) => f.severity === 'warning').length,
    info: findings.filter((f) => f.severity === 'info').length,
    suppressed: 0,
    baselined: 0,
  },
  options: {failOn, k8sVersion: '1.36'},
})

const rules = effectiveRules({rules: new Map(), disabled: new Set()})

describe('renderers', () => {
  it('github: escapes %, line breaks, and : and , in properties; info becomes a notice', () => {
    expect(renderCheckGithub(report([finding(), finding({severity: 'info', rule: 'rc-selector-defaulted'})]))).toBe(
      '::error file=deploy/a%2Cb%3Ac.yaml,line=3,col=5,title=kctl invalid-field::Deployment default/web: spec.replicas: 100%25 <bad> & "odd" | pipe%0Asecond line\n' +
        '::notice file=deploy/a%2Cb%3Ac.yaml,line=3,col=5,title=kctl rc-selector-defaulted::Deployment default/web: spec.replicas: 100%25 <bad> & "odd" | pipe%0Asecond line\n',
    )
    expect(renderCheckGithub(report([]))).toBe('')
  })

  it('junit: escapes XML; findings below --fail-on are not failures', () => {
    const xml = renderCheckJunit(report([finding(), finding({severity: 'warning'})]), ['deploy/a,b:c.yaml', 'clean.yaml'])
    expect(xml).toContain('failure message="spec.replicas: 100% &lt;bad&gt; &amp; &quot;odd&quot; | pipe\nsecond line"')
    expect(xml).toContain('<testsuites name="kctl check" tests="3" failures="1" errors="0">')
    expect(xml).toContain('<testcase name="no findings" classname="clean.yaml" file="clean.yaml"/>')
    expect(xml.match(/<system-out>/g)).toHaveLength(1)
  })

  it('markdown: one table row per finding, pipes and markup escaped, most severe first', () => {
    const md = renderCheckMarkdown(report([finding({severity: 'info'}), finding()]), rules)
    const rows = md.split('\n').filter((l) => l.startsWith('| 🔴') || l.startsWith('| 🔵'))
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatch(/^\| 🔴 error/)
    expect(rows[0]).toContain('spec.replicas: 100% \\<bad\\> & "odd" \\| pipe second line')
    expect(renderCheckMarkdown(report([]), rules)).toBe('### kctl check: no findings in 1 object from 1 file\n\n')
  })

  it('text: groups by file and ends with a summary line', () => {
    expect(renderCheckText(report([]))).toBe('✓ no findings in 1 object from 1 file\n')
    const text = renderCheckText(report([finding({message: 'm', related: [{file: 'x.yaml', line: 1, column: 2, kind: 'K', namespace: 'n', name: 'o', message: 'there'}]})]))
    expect(text).toBe('deploy/a,b:c.yaml\n  3:5  error  Deployment default/web: m  invalid-field\n              ↳ x.yaml:1:2: there\n\n✖ 1 finding (1 error) in 1 object from 1 file\n')
  })

  it('sarif: file names become URI references', () => {
    expect(fileUri('deploy/a b#1.yaml')).toBe('deploy/a%20b%231.yaml')
    expect(fileUri('/abs/x.yaml')).toBe('file:///abs/x.yaml')
    expect(fileUri('<stdin>')).toBe('%3Cstdin%3E')
    const sarif = JSON.parse(renderCheckSarif({...report([finding()]), options: {failOn: 'error', k8sVersion: '1.36', baseline: 'b.json'}}, {rules, version: '9.9.9'}))
    expect(sarif.runs[0].results[0].baselineState).toBe('new')
    expect(sarif.runs[0].tool.driver.version).toBe('9.9.9')
  })

  it('the outcome: parse errors first (exit 1), then findings at or above --fail-on (exit 3)', () => {
    expect(reportOutcome(report([]))).toBe('ok')
    expect(reportOutcome(report([finding({severity: 'warning'})]))).toBe('ok')
    expect(reportOutcome(report([finding({severity: 'warning'})], 'warning'))).toBe('findings')
    expect(reportOutcome(report([finding(), finding({rule: 'parse-error', severity: 'error'})]))).toBe('unreadable')
  })
})
