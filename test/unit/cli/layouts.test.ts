// Repositories as people lay them out, built here: a kustomize base with two overlays (patches,
// generator inputs, an overlay's own copy of an object), an all-in-one file beside the split
// files, a Helm chart, a CI workflow. `plan` and `check` on the whole tree must finish with exit 0
// and only true findings; the apply-set choice, -k and the empty-input rule are asserted by exit
// code and output.
import {spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {kctl, NOW} from './run-cli.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-layouts-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

function tree(root: string, files: Record<string, string>): string {
  const dir = join(tmp, root)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), {recursive: true})
    writeFileSync(join(dir, name), text)
  }
  return dir
}

const rs = (name: string, replicas: number, app = name) => `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${app}}}
  template:
    metadata: {labels: {app: ${app}}}
    spec: {containers: [{name: c, image: nginx:1.27}]}
`
const service = (name: string, app = name) => `apiVersion: v1
kind: Service
metadata: {name: ${name}}
spec:
  selector: {app: ${app}}
  ports: [{port: 80}]
`
const secret = (name: string, value: string) => `apiVersion: v1
kind: Secret
metadata: {name: ${name}}
stringData: {password: "${value}"}
`

const repo = tree('repo', {
  '.github/workflows/ci.yaml': 'on: push\njobs: {test: {runs-on: ubuntu-latest}}\n',
  'base/kustomization.yaml': 'resources: [rs.yaml, svc.yaml, secret.yaml]\nconfigMapGenerator:\n- name: settings\n  files: [settings.json]\n',
  'base/rs.yaml': rs('web', 2),
  'base/svc.yaml': service('web'),
  'base/secret.yaml': secret('creds', 'base'),
  'base/settings.json': '{"feature": true}\n',
  'overlays/prod/kustomization.yaml': 'resources: [../../base, secret.yaml]\npatches:\n- path: replicas.yaml\n',
  'overlays/prod/replicas.yaml': 'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec: {replicas: 5}\n',
  'overlays/prod/secret.yaml': secret('creds-prod', 'prod'),
  'overlays/staging/kustomization.yaml': 'resources: [rs.yaml, secret.yaml]\npatchesStrategicMerge: [scale.yaml]\n',
  'overlays/staging/secret.yaml': secret('creds', 'staging'),
  'overlays/staging/rs.yaml': rs('web', 1),
  'overlays/staging/scale.yaml': 'apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web}\nspec: {replicas: 3}\n',
  'all-in-one.yaml': [rs('api', 2), service('api'), secret('creds2', 'x')].join('---\n'),
  'split/api-rs.yaml': rs('api', 2),
  'split/api-svc.yaml': service('api'),
  'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'charts/web/values.yaml': 'replicas: 2\n',
  'charts/web/templates/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n',
})

// Neither kustomize nor kubectl on PATH: kustomize roots are read by kctl itself (repo-layouts.test.ts renders them too).
const NO_RENDERER = {PATH: ''}

const planOf = (args: string[], env: Record<string, string> = NO_RENDERER) => {
  const run = kctl(['plan', '--now', NOW, '-o', 'json', ...args], {env})
  return {...run, plan: run.status === 0 ? JSON.parse(run.stdout) : undefined}
}

describe('a repository read with -f', () => {
  it('plan: each folder apart (the files of the folder -f names go with the files -f names); kustomize roots kctl cannot read without kustomize are skipped in one line; exit 0', () => {
    const {status, stderr, plan} = planOf(['-f', repo])
    expect(stderr).toBe(
      `warning: skipped 3 files a kustomization reads as patches or generator inputs, 3 kustomize roots that need kustomize (${repo}/base: configMapGenerator; …), 1 Helm chart (${repo}/charts/web): put kustomize or kubectl on PATH to render them; render a chart with \`helm template ${repo}/charts/web | kctl plan -f -\`\n`,
    )
    expect(status).toBe(0)
    const workloads = plan.controllers.filter((c: {kind: string}) => c.kind !== 'Service')
    expect(workloads.map((c: {name: string; applySet: string; desired: number}) => [c.name, c.applySet, c.desired])).toEqual([
      ['api', '', 2],
      ['api', `${repo}/split`, 2],
    ])
    // The two Services are planned too, each in its own apply set.
    expect(plan.controllers.filter((c: {kind: string}) => c.kind === 'Service').map((c: {applySet: string}) => c.applySet)).toHaveLength(2)
    expect(plan.ignored).toEqual({Secret: 1})
  })

  it('list: a row per controller and apply set, in the table and in JSON', () => {
    const table = kctl(['list', '-f', repo, '--now', NOW, '-o', 'table'], {env: NO_RENDERER})
    expect(table.status).toBe(0)
    // The controllers' table, then the Services' (planned too, each in its apply set).
    const [controllers] = table.stdout.trim().split('\n\n')
    const rows = controllers.split('\n').map((l) => l.split(/\s{2,}/))
    expect(rows[0].at(-1)).toBe('APPLY SET')
    expect(rows.slice(1).map((r) => [r[2], r.at(-1)])).toEqual([
      ['api', '-'],
      ['api', `${repo}/split`],
    ])
    const items = JSON.parse(kctl(['list', '-f', repo, '--now', NOW, '-o', 'json'], {env: NO_RENDERER}).stdout).items.filter((i: {kind: string}) => i.kind !== 'Service')
    expect(items.map((i: {name: string; applySet: string}) => [i.name, i.applySet])).toEqual([
      ['api', ''],
      ['api', `${repo}/split`],
    ])
  })

  it('check: no duplicate or overlap between alternatives, and no parse error for kustomizations or charts', () => {
    const run = kctl(['check', '-f', repo, '-o', 'json'])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).findings).toEqual([])
  })

  it('--apply-set=all reads everything as one: copies are one object; check finds the two different ReplicaSets web', () => {
    const plan = planOf(['-f', repo, '--apply-set', 'all'])
    expect(plan.status).toBe(0)
    expect(plan.plan.controllers.map((c: {kind: string; name: string}) => `${c.kind} ${c.name}`)).toEqual(['ReplicaSet api', 'Service api'])
    const check = kctl(['check', '-f', repo, '-o', 'json', '--apply-set', 'all'])
    expect(check.status).toBe(3)
    const found = JSON.parse(check.stdout).findings.map((f: {rule: string; file: string; name: string}) => `${f.rule} ${f.file.slice(repo.length + 1)} ${f.name}`)
    expect(found).toEqual(['duplicate-object overlays/staging/rs.yaml web', 'duplicate-object overlays/staging/secret.yaml creds'])
  })

  it('--apply-set=file: every file apart, but a Service still finds its pods in another file (references look anywhere)', () => {
    const run = kctl(['check', '-f', repo, '-o', 'json', '--apply-set', 'file'])
    expect(run.status).toBe(0)
    expect(JSON.parse(run.stdout).findings).toEqual([])
  })
})

describe('inputs that are not manifests', () => {
  it('a kustomization named with -f: one line, exit 1, pointing at -k', () => {
    const run = kctl(['plan', '-f', join(repo, 'base', 'kustomization.yaml')])
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(`error: ${repo}/base/kustomization.yaml:1:1: is a kustomization, not a manifest (render it with -k ${repo}/base)\n`)
  })

  it('a Helm template named with -f: one line, exit 1, telling to render it', () => {
    const run = kctl(['check', '-f', join(repo, 'charts/web/templates/deploy.yaml'), '-o', 'json'])
    expect(run.status).toBe(1)
    const [finding] = JSON.parse(run.stdout).findings
    expect(finding.rule).toBe('parse-error')
    expect(finding).toMatchObject({line: 4, column: 9})
    expect(finding.message).toBe('Helm template syntax ({{ … }}), not a manifest (render it first, e.g. helm template CHART | kctl plan -f -)')
    const plan = kctl(['plan', '-f', join(repo, 'charts/web/templates/deploy.yaml')])
    expect(plan.status).toBe(1)
    expect(plan.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('an empty or misspelt directory is an error unless --allow-empty', () => {
    const empty = tree('empty', {'README.md': 'nothing here\n'})
    for (const cmd of ['plan', 'check', 'list']) {
      const run = kctl([cmd, '-f', empty, '-o', 'json'])
      expect(run.status, cmd).toBe(1)
      expect(run.stderr).toBe(`error: -f ${empty}: no YAML or JSON file (check the path; pass --allow-empty if an empty input is expected)\n`)
      expect(kctl([cmd, '-f', empty, '-o', 'json', '--allow-empty']).status, cmd).toBe(0)
    }
    const blank = tree('blank', {'only-comments.yaml': '# nothing yet\n---\n'})
    expect(kctl(['plan', '-f', blank]).stderr).toBe(`error: -f ${blank}: no object in 1 file (check the path; pass --allow-empty if an empty input is expected)\n`)
  })
})

const hasKubectl = spawnSync('kubectl', ['version', '--client'], {stdio: 'ignore'}).status === 0

describe('-k DIR', () => {
  it.skipIf(!hasKubectl)('renders the overlay as kubectl kustomize does (skipped only when kubectl is not installed)', () => {
    const {status, plan} = planOf(['-k', join(repo, 'overlays/prod')], {})
    expect(status).toBe(0)
    expect(plan.controllers.map((c: {kind: string; name: string; desired: number}) => [c.kind, c.name, c.kind === 'Service' ? 0 : c.desired])).toEqual([
      ['ReplicaSet', 'web', 5],
      ['Service', 'web', 0],
    ])
  })

  it('names both renderers when neither is on PATH', () => {
    const run = kctl(['plan', '-k', join(repo, 'overlays/prod')], {env: {PATH: tmp}})
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(`error: -k ${repo}/overlays/prod: neither kustomize nor kubectl is on PATH (install one of them, or render elsewhere and pipe the result in with -f -)\n`)
  })
})
