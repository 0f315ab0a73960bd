// `reconcile` on fixtures, in process: the world after --apply --out is what one sync leaves, and
// planning it again finds nothing to do (unless the burst limit left work pending).
import {cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'
import {parseAllDocuments} from 'yaml'

import {SKIP} from '../../../src/apply/executor.js'
import {NAME_ALPHABET} from '../../../src/apply/names.js'
import {planToWire} from '../../../src/render/wire.js'
import {computePlan} from '../../../src/services/plan.js'
import {reconcile} from '../../../src/services/reconcile.js'

const NOW = '2026-11-22T10:00:00Z'
const EXAMPLES = ['adoption', 'burst', 'deployment', 'rc-defaulted-selector', 'scale-down', 'tie']

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), `kctl-${prefix}-`))
const docs = (file: string) => parseAllDocuments(readFileSync(file, 'utf8'), {version: '1.1'}).map((d) => d.toJS())
const allDocs = (dir: string) => readdirSync(dir, {recursive: true}).filter((f) => String(f).endsWith('.yaml')).flatMap((f) => docs(join(dir, String(f))))

describe('reconcile -f DIR --apply --out DIR2', () => {
  it.each(EXAMPLES)('%s: kctl plan -f DIR2 is empty, or only the burst limit\'s remainder', async (example) => {
    const out = join(tmp('out'), 'after')
    const report = await reconcile({filename: [`examples/${example}`], apply: true, out, now: NOW})
    expect(report.outcome).toBe('succeeded')
    expect(report.summary.failed).toBe(0)
    // Only the writes the controller's own sync loses (a second write to the Deployment) are not sent.
    for (const r of report.results.filter((x) => x.outcome === 'skipped')) expect({predicted: r.predicted, skipReason: r.skipReason}).toMatchObject({predicted: {conflict: true}, skipReason: SKIP.plannedConflict})
    const after = await computePlan({filename: [out], now: NOW})
    // A Deployment's rollout takes more syncs than one (see the Deployment tests); its ReplicaSets' work is done.
    for (const c of after.controllers.filter((x) => x.kind !== 'Deployment')) {
      if (example === 'burst') expect(c.actions.map((a) => a.type)).toEqual(Array(c.pending === 0 ? c.actions.length : 100).fill('create'))
      else expect({name: c.name, actions: c.actions.map((a) => a.type), inSync: c.inSync}).toEqual({name: c.name, actions: [], inSync: true})
    }
  })

  it('names created pods as generateName would, deterministically; removes deleted pods; records adoptions', async () => {
    const [a, b] = [join(tmp('a'), 'o'), join(tmp('b'), 'o')]
    await reconcile({filename: ['examples/burst'], apply: true, out: a, now: NOW})
    await reconcile({filename: ['examples/burst'], apply: true, out: b, now: NOW})
    expect(readFileSync(join(a, 'burst.yaml'), 'utf8')).toBe(readFileSync(join(b, 'burst.yaml'), 'utf8'))
    const pods = allDocs(a).filter((o) => o.kind === 'Pod')
    expect(pods).toHaveLength(500)
    for (const p of pods) {
      expect(p.metadata.name).toMatch(new RegExp(`^workers-[${NAME_ALPHABET}]{5}$`))
      expect(p.metadata).toMatchObject({generateName: 'workers-', namespace: 'batch', labels: {app: 'workers'}, creationTimestamp: NOW})
      expect(p.metadata.ownerReferences).toEqual([{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'workers', uid: expect.any(String), controller: true, blockOwnerDeletion: true}])
      expect(p.status).toEqual({phase: 'Pending'})
    }
    expect(new Set(pods.map((p) => p.metadata.name)).size).toBe(500)

    const down = join(tmp('down'), 'o')
    const plan = await computePlan({filename: ['examples/scale-down'], now: NOW})
    const victims = plan.controllers[0].actions.flatMap((x) => (x.type === 'delete' ? [x.pod] : []))
    await reconcile({filename: ['examples/scale-down'], apply: true, out: down, now: NOW})
    const left = allDocs(down).filter((o) => o.kind === 'Pod').map((p) => p.metadata.name)
    expect(left).toHaveLength(2)
    for (const v of victims) expect(left).not.toContain(v)
    expect(readdirSync(down).sort()).toEqual(['pods.yaml', 'replicaset.yaml'])

    const adopted = join(tmp('adopt'), 'o')
    const adoptionPlan = await computePlan({filename: ['examples/adoption'], now: NOW})
    const orphans = adoptionPlan.controllers.flatMap((c) => c.actions.flatMap((x) => (x.type === 'adopt' ? [[x.pod, c.uid]] : [])))
    expect(orphans.length).toBeGreaterThan(0)
    await reconcile({filename: ['examples/adoption'], apply: true, out: adopted, now: NOW})
    const byName = new Map(allDocs(adopted).filter((o) => o.kind === 'Pod').map((p) => [p.metadata.name, p]))
    for (const [name, uid] of orphans) {
      // Adopted, unless the same sync then deleted it.
      const p = byName.get(name)
      if (p) expect(p.metadata.ownerReferences.some((r: any) => r.uid === uid && r.controller === true)).toBe(true)
    }
  })

  it('a dry run on fixtures changes nothing and answers every call', async () => {
    const report = await reconcile({filename: ['examples/scale-down'], now: NOW})
    expect(report.mode).toBe('dry-run')
    expect(report.outcome).toBe('succeeded')
    expect(report.changesPending).toBe(true)
    expect(report.results.map((r) => [r.action, r.outcome])).toEqual([
      ['delete', 'ok'],
      ['delete', 'ok'],
      ['delete', 'ok'],
      ['updateStatus', 'ok'],
    ])
  })

  it('--until-converged repeats syncs until every controller is in sync, honouring the burst limit', async () => {
    const out = join(tmp('conv'), 'o')
    const report = await reconcile({filename: ['examples/burst'], apply: true, untilConverged: true, out, now: NOW})
    expect(report.converged).toBe(true)
    expect(report.rounds.map((r) => r.summary.create)).toEqual([500, 100, 0, 0].slice(0, report.rounds.length))
    expect(report.rounds.at(-1)!.inSync).toBe(true)
    const after = await computePlan({filename: [out], now: NOW})
    expect(after.controllers.every((c) => c.inSync)).toBe(true)
    expect(allDocs(out).filter((o) => o.kind === 'Pod')).toHaveLength(600)
  })

  it('guards refuse before anything is done', async () => {
    const report = await reconcile({filename: ['examples/scale-down'], apply: true, maxDelete: 2, now: NOW})
    expect(report.outcome).toBe('refused')
    expect(report.refusal).toMatchObject({reason: 'guard', details: ['the plan deletes 3 pods, more than --max-delete 2']})
    expect(report.results.every((r) => r.outcome === 'skipped')).toBe(true)
  })

  it('flags that cannot go together are one clear error', async () => {
    await expect(reconcile({filename: ['examples/scale-down'], out: join(tmp('x'), 'o')})).rejects.toThrow(/--out needs --apply/)
    await expect(reconcile({out: '/tmp/x', apply: true})).rejects.toThrow(/--out writes fixtures and needs -f/)
    await expect(reconcile({filename: ['examples/scale-down'], untilConverged: true})).rejects.toThrow(/--until-converged needs --apply/)
    const full = tmp('full')
    writeFileSync(join(full, 'x'), '')
    await expect(reconcile({filename: ['examples/scale-down'], apply: true, out: full})).rejects.toThrow(/is not empty/)
  })
})

describe('a saved plan on fixtures', () => {
  async function saved(dir: string): Promise<string> {
    const file = join(tmp('plan'), 'plan.json')
    writeFileSync(file, JSON.stringify(planToWire(await computePlan({filename: [dir], now: NOW}))))
    return file
  }

  it('is applied verbatim when nothing it names changed', async () => {
    const dir = join(tmp('fx'), 'in')
    cpSync('examples/scale-down', dir, {recursive: true})
    const planFile = await saved(dir)
    const out = join(tmp('o'), 'o')
    const report = await reconcile({filename: [dir], planFile, apply: true, out, now: NOW})
    expect(report.plan.origin).toBe('saved')
    expect(report.outcome).toBe('succeeded')
    expect((await computePlan({filename: [out], now: NOW})).controllers.every((c) => c.inSync)).toBe(true)
  })

  it('is refused when a pod it deletes changed, and nothing is done; --replan plans again', async () => {
    const dir = join(tmp('fx'), 'in')
    cpSync('examples/scale-down', dir, {recursive: true})
    const planFile = await saved(dir)
    const plan = JSON.parse(readFileSync(planFile, 'utf8'))
    const victim = plan.controllers[0].actions.find((a: any) => a.type === 'delete')
    const pods = readFileSync(join(dir, 'pods.yaml'), 'utf8')
    // Someone touched the pod: a new resourceVersion.
    const edited = pods.replace(new RegExp(`(name: ${victim.pod}\\n(?:.*\\n)*?\\s+resourceVersion: )"?(\\d+)"?`), '$1"999999"')
    expect(edited).not.toBe(pods)
    writeFileSync(join(dir, 'pods.yaml'), edited)

    const out = join(tmp('o'), 'o')
    const refused = await reconcile({filename: [dir], planFile, apply: true, out, now: NOW})
    expect(refused.outcome).toBe('refused')
    expect(refused.refusal?.reason).toBe('stale')
    expect(refused.refusal?.message).toMatch(/^saved plan is stale; run kctl plan again/)
    expect(refused.refusal?.details[0]).toBe(`pod default/${victim.pod} (to delete) changed (resourceVersion ${victim.resourceVersion} → 999999)`)
    expect(refused.results.every((r) => r.outcome === 'skipped')).toBe(true)
    expect(refused.out).toBeUndefined()

    const replanned = await reconcile({filename: [dir], planFile, apply: true, replan: true, now: NOW})
    expect(replanned.plan.replanned).toBe(true)
    expect(replanned.outcome).toBe('succeeded')
  })
})

describe('reconcile reports what the plan warns of', () => {
  it("a release another controller may adopt is said in the report, against the controller that may adopt", async () => {
    const report = await reconcile({filename: ['test/fixtures/sources/release-race.yaml'], now: NOW})
    const api = report.controllers.find((c) => c.controller.name === 'api')!
    expect(api.warnings).toEqual([
      'pod moved matches the selector but is controlled by ReplicaSet/other, which releases it in its next sync: this controller may adopt it once it is released (which of the two syncs first decides)',
    ])
    expect(report.controllers.find((c) => c.controller.name === 'other')!.warnings).toBeUndefined()
  })
})
