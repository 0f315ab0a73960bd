// Repositories as they are laid out in the wild, built in test/fixtures/repo-layouts/: two
// tutorials defining the same Deployment in sibling folders, an all-in-one file beside its split
// files, two alternative files defining one Service, a Job with only generateName, one invalid
// YAML file among valid ones, a kustomize base and overlay with commonLabels. `kctl plan -f` reads
// them as `kubectl apply -f DIR -R` would: per folder, later definitions winning, bad files
// reported while the rest is planned. Exit codes and what is planned are asserted, with and
// without a kustomize renderer on PATH.
import {spawnSync} from 'node:child_process'
import {chmodSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'

import {kctl, NOW} from './run-cli.js'

const ROOT = 'test/fixtures/repo-layouts'
const NO_RENDERER = {PATH: ''}
const hasKubectl = spawnSync('kubectl', ['version', '--client'], {encoding: 'utf8'}).status === 0
const tmp = mkdtempSync(join(tmpdir(), 'kctl-repo-layouts-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

interface Controller {
  kind: string
  namespace: string
  name: string
  applySet?: string
  desired: number
  status: {type?: string}
}

function plan(args: string[], env: Record<string, string> = NO_RENDERER) {
  const run = kctl(['plan', '--now', NOW, '-o', 'json', ...args], {env})
  const doc = run.stdout === '' ? undefined : JSON.parse(run.stdout)
  return {...run, doc, rows: (doc?.controllers ?? []).map((c: Controller) => `${c.kind} ${c.namespace}/${c.name} ${c.applySet ?? '-'} ${c.desired}`)}
}

describe('kctl plan -f on repository layouts', () => {
  it('two tutorials defining Deployment nodeapp in sibling folders: each folder is its own apply set; exit 0, no warning', () => {
    const run = plan(['-f', `${ROOT}/tutorials`])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.rows).toEqual([`Deployment default/nodeapp ${ROOT}/tutorials/first-app 1`, `Deployment default/nodeapp ${ROOT}/tutorials/second-app 3`])
  })

  it('an all-in-one file beside its split files: the later file (lexical order) wins, one warning naming both places; an identical copy is silent', () => {
    const run = plan(['-f', `${ROOT}/all-in-one`])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe(
      `warning: Deployment default/web at ${ROOT}/all-in-one/deployment.yaml:1 replaces the one at ${ROOT}/all-in-one/all-in-one.yaml:1 (the later definition wins, as with kubectl apply)\n`,
    )
    expect(run.rows).toEqual(['Deployment default/web - 4', 'Service default/web - 0'])
  })

  it('two alternative files defining one Service in one folder: the later one is planned', () => {
    const run = plan(['-f', `${ROOT}/alternatives`])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe(
      `warning: Service default/front at ${ROOT}/alternatives/service-nodeport.yaml:1 replaces the one at ${ROOT}/alternatives/service-clusterip.yaml:1 (the later definition wins, as with kubectl apply)\n`,
    )
    expect(run.doc.controllers.find((c: Controller) => c.kind === 'Service').service.type).toBe('NodePort')
  })

  it('a Job with only generateName: planned under a stable placeholder, one warning, exit 0', () => {
    const first = plan(['-f', `${ROOT}/jobs`])
    const again = plan(['-f', `${ROOT}/jobs`])
    expect(first.status).toBe(0)
    const [row] = first.rows
    expect(row).toMatch(/^Job default\/migrate-[bcdfghjklmnpqrstvwxz2456789]{5} - 1$/)
    expect(again.rows).toEqual(first.rows)
    const name = row.split(' ')[1]
    expect(first.stderr).toBe(`warning: 1 object has only metadata.generateName: planned as Job ${name} (the API server would add a random suffix)\n`)
  })

  it('one invalid YAML file among valid ones: named on stderr, listed under errors, the rest planned; exit 1', () => {
    const run = plan(['-f', `${ROOT}/broken`])
    expect(run.status).toBe(1)
    expect(run.stderr).toBe(`error: ${ROOT}/broken/config.yaml:7:9: invalid YAML: bad indentation of a mapping entry\n`)
    expect(run.rows).toEqual(['Deployment default/api - 2', 'Deployment default/worker - 1'])
    expect(run.doc.errors).toEqual([{file: `${ROOT}/broken/config.yaml`, line: 7, column: 9, message: 'invalid YAML: bad indentation of a mapping entry'}])
  })

  const KUSTOMIZED = [`Deployment default/cart ${ROOT}/kustomize/base 2`, `Deployment prod/prod-cart ${ROOT}/kustomize/overlays/prod 2`]

  it('a kustomize base and overlay without a renderer on PATH: each root read with its namespace, namePrefix and commonLabels', () => {
    const run = plan(['-f', `${ROOT}/kustomize`])
    expect(run.status).toBe(0)
    expect(run.stderr).toBe('')
    expect(run.rows).toEqual(KUSTOMIZED)
    const prod = run.doc.controllers[1]
    expect(prod.status.labelSelector ?? null).toBeNull() // Deployments carry no selector in status: the selector is checked through its pods below
    const table = kctl(['plan', '--now', NOW, '-o', 'table', '-f', `${ROOT}/kustomize/overlays/prod`], {env: NO_RENDERER})
    expect(table.status).toBe(0)
    expect(table.stdout).toContain('Deployment prod/prod-cart')
  })

  it.skipIf(!hasKubectl)('with kubectl on PATH the roots are rendered by it, and the plans agree with kctl\'s own reading', () => {
    const rendered = plan(['-f', `${ROOT}/kustomize`], {})
    const own = plan(['-f', `${ROOT}/kustomize`])
    expect(rendered.status).toBe(0)
    expect(rendered.rows).toEqual(KUSTOMIZED)
    expect(rendered.doc.controllers).toEqual(own.doc.controllers)
  })

  it('a kustomize on PATH renders each root, as -k does (its output is what is planned)', () => {
    const bin = join(tmp, 'bin')
    spawnSync('mkdir', ['-p', bin])
    const fake = join(bin, 'kustomize')
    // Renders every root as one ReplicaSet named after the directory it was asked to build.
    writeFileSync(
      fake,
      `#!/bin/sh\nname=$(basename "$2")\nprintf 'apiVersion: apps/v1\\nkind: ReplicaSet\\nmetadata: {name: rendered-%s}\\nspec:\\n  replicas: 1\\n  selector: {matchLabels: {a: b}}\\n  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}\\n' "$name"\n`,
    )
    chmodSync(fake, 0o755)
    const run = plan(['-f', `${ROOT}/kustomize`], {PATH: `${bin}:/usr/bin:/bin`})
    expect(run.status).toBe(0)
    expect(run.rows).toEqual([`ReplicaSet default/rendered-base ${ROOT}/kustomize/base 1`, `ReplicaSet default/rendered-prod ${ROOT}/kustomize/overlays/prod 1`])
  })

  it('the whole tree: every case at once; exit 1 for the one invalid file, everything else planned', () => {
    const run = plan(['-f', ROOT])
    expect(run.status).toBe(1)
    expect(run.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([`error: ${ROOT}/broken/config.yaml:7:9: invalid YAML: bad indentation of a mapping entry`])
    expect(run.rows.filter((r: string) => !r.startsWith('Job'))).toEqual([
      `Deployment default/api ${ROOT}/broken 2`,
      `Deployment default/cart ${ROOT}/kustomize/base 2`,
      `Deployment default/front ${ROOT}/alternatives 1`,
      `Deployment default/nodeapp ${ROOT}/tutorials/first-app 1`,
      `Deployment default/nodeapp ${ROOT}/tutorials/second-app 3`,
      `Deployment default/web ${ROOT}/all-in-one 4`,
      `Deployment default/worker ${ROOT}/broken 1`,
      `Deployment prod/prod-cart ${ROOT}/kustomize/overlays/prod 2`,
      `Service default/front ${ROOT}/alternatives 0`,
      `Service default/web ${ROOT}/all-in-one 0`,
    ])
  })
})

describe('-n/-l that leave everything out', () => {
  it('says how many controllers in which namespaces were left out; --detailed-exitcode does not call an empty plan in sync', () => {
    // The overlay puts its Deployment in namespace prod; -n staging names another.
    const overlay = `${ROOT}/kustomize/overlays/prod`
    const plain = plan(['-f', overlay, '-n', 'staging'])
    expect(plain.status).toBe(0)
    expect(plain.stderr).toBe('warning: nothing planned: -n staging left out all 1 controller read (1 in prod)\n')
    expect(plain.doc.controllers).toEqual([])
    expect(plain.doc.ignoredByFilter).toEqual({controllers: 1, namespaces: {prod: 1}})
    const ci = plan(['-f', overlay, '-n', 'staging', '--detailed-exitcode'])
    expect(ci.status).toBe(1)
    expect(ci.stderr).toBe(
      'error: nothing planned: -n staging left out all 1 controller read (1 in prod); --detailed-exitcode does not report an empty plan as in sync (pass --allow-empty to accept one)\n',
    )
    const allowed = plan(['-f', overlay, '-n', 'staging', '--detailed-exitcode', '--allow-empty'])
    expect(allowed.status).toBe(0)
    const selector = plan(['-f', `${ROOT}/tutorials`, '-l', 'app=nothing', '--detailed-exitcode'])
    expect(selector.status).toBe(1)
    expect(selector.stderr).toContain('nothing planned: -l app=nothing left out all 2 controllers read (2 in default)')
    // Something planned: no such line, and the usual exit codes.
    expect(plan(['-f', overlay, '-n', 'prod', '--detailed-exitcode']).status).toBe(2)
  })
})
