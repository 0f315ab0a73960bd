// A small repository laid out as public ones are (test/fixtures/check-corpus): two tutorials that
// define the same Deployment in sibling folders, an all-in-one file beside its split manifests,
// an operator's custom resource beside a Service, Jobs without manualSelector, generateName Jobs,
// an envsubst template, a kustomize base and overlay whose patch sits in a folder walked before
// it. Each of these once gave false findings; the exact findings are asserted here, and
// `kctl check -f examples` keeps to the findings its examples are there to show.
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {check} from './helpers.js'

const CORPUS = 'test/fixtures/check-corpus'
const ROOT = join(import.meta.dirname, '..', '..', '..')

describe('a repository of alternatives, templates and patches', () => {
  it('gives only the true findings', async () => {
    const notes: string[] = []
    const r = await check([CORPUS], {onNote: (n) => notes.push(n)})
    expect(r.findings.map((f) => `${f.rule} ${f.severity} ${f.file}:${f.line}:${f.column} ${f.kind}/${f.name}`)).toEqual([
      `service-selects-nothing info ${CORPUS}/operator/redis.yaml:11:3 Service/cache`,
    ])
    expect(r.findings[0].message).toContain('the pods may be created by an operator (custom resources are applied with it: RedisCluster cache)')
    expect(notes).toContain(
      `skipped 1 template with \${VAR} placeholders (${CORPUS}/templates/inference.yaml): not validated field by field; render it first, e.g. envsubst < ${CORPUS}/templates/inference.yaml | kctl check -f -`,
    )
    // The patch in a-patches/ is not an object: nothing is said about it, and it is no duplicate of the base's Deployment.
    expect(r.summary.objects).toBe(19)
  })

  it('with --apply-set all, the alternatives are applied together and conflict', async () => {
    const r = await check([CORPUS], {applySet: 'all'})
    expect(r.findings.filter((f) => f.rule === 'duplicate-object').map((f) => `${f.file}:${f.line} ${f.kind}/${f.name}`)).toEqual([
      `${CORPUS}/all-in-one/manifests/api-deployment.yaml:3 Deployment/api`,
      `${CORPUS}/all-in-one/manifests/api-service.yaml:4 Service/api`,
      `${CORPUS}/all-in-one/manifests/api-service.yaml:11 Ingress/api`,
      `${CORPUS}/tutorials/scaling-web/web.yaml:3 Deployment/web`,
    ])
    // Jobs (generated selectors) and generateName objects still never collide.
    expect(r.findings.filter((f) => f.kind === 'Job')).toEqual([])
  })

  it('without the custom resource beside it, the Service that selects nothing is a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kctl-corpus-'))
    writeFileSync(join(dir, 'service.yaml'), readFileSync(join(CORPUS, 'operator', 'redis.yaml'), 'utf8').split('---\n')[1])
    const r = await check([dir])
    expect(r.findings.map((f) => `${f.rule} ${f.severity}`)).toEqual(['service-selects-nothing warning'])
    expect(r.findings[0].message).toMatch(/the Service would have no endpoints$/)
  })
})

describe('kctl check -f examples', () => {
  it('exits 0 and shows only the findings the examples are there to show', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'run.js'), 'check', '-f', 'examples', '-o', 'json'], {cwd: ROOT, encoding: 'utf8'})
    expect(run.status).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report.findings.map((f: {rule: string; file: string; line: number}) => `${f.rule} ${f.file}:${f.line}`)).toEqual([
      'overlapping-selectors examples/adoption/adoption.yaml:63',
      'service-selects-nothing examples/cloud-provider/service.yaml:43',
      'hpa-replicas-conflict examples/hpa/web.yaml:27',
      'rc-selector-defaulted examples/rc-defaulted-selector/legacy.yaml:24',
      'statefulset-service-missing examples/rollout-statefulset/queue.yaml:27',
      'publish-not-ready-without-probe examples/services/services.yaml:435',
      'deprecated-api examples/services/services.yaml:505',
      'service-selects-nothing examples/services/services.yaml:554',
      'statefulset-service-missing examples/statefulset/statefulset.yaml:23',
    ])
  })
})
