// One controller, one folder: everything about a controller lives in src/controllers/<name>/, and
// the shared layers ask the registry instead of naming a workload kind. These tests keep it so.
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {join, relative} from 'node:path'

import {describe, expect, it} from 'vitest'

import {CONTROLLERS} from '../../src/controllers/registry.js'

const ROOT = join(import.meta.dirname, '../..')
const SRC = join(ROOT, 'src')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return name.endsWith('.ts') ? [path] : []
  })
}

/** The parts every controller must have (simulate is optional: Services are not simulated). */
const REQUIRED_PARTS = ['read', 'plan', 'render', 'apply', 'watch', 'check'] as const
/** The parts a planOnly controller may lack: `kctl reconcile` and `kctl watch` leave it out. */
const CARRIED_OUT_PARTS: readonly string[] = ['apply', 'watch']

/**
 * A controller's folder: its kube-controller-manager name, but the Service family's (named for the
 * endpointslice controller) and the horizontal pod autoscaler's (`hpa`).
 */
const FOLDERS: Readonly<Record<string, string>> = {endpointslice: 'service', horizontalpodautoscaling: 'hpa'}
const folderOf = (name: string) => FOLDERS[name] ?? name

const ALL = sources(SRC).map((path) => ({file: relative(ROOT, path), text: readFileSync(path, 'utf8')}))
const KINDS = 'Deployment|StatefulSet|DaemonSet|Job|CronJob|Service|ReplicaSet|ReplicationController|EndpointSlice|HorizontalPodAutoscaler'
// `case 'Job'`, `kind === 'Job'`, `kind !== 'Job'`, `'Job' === x.kind`: a branch on a workload kind.
const KIND_BRANCH = new RegExp(`case '(${KINDS})'|kind (===|!==) '(${KINDS})'|'(${KINDS})' (===|!==) [a-z.]*kind`)

/** The places outside src/controllers/ that may branch on a workload kind, and why. */
const ALLOWED: Record<string, string> = {}

/** Imports from a layer into a controller folder that stay, and why. */
const LAYER_IMPORTS: readonly RegExp[] = [
  // The wire types (ReconcilePlan, Snapshot, Simulation) name each controller's views, actions and
  // timelines: type-only imports of its model.ts and timeline.ts.
  /^src\/model\/[a-z-]+\.ts -> src\/controllers\/[a-z]+\/(model|timeline)\.js$/,
  // The cloud-provider interface speaks of Services and their load balancers (the service
  // controller is its only user; it is shared with the executor and the sources that ask the cloud).
  /^src\/cloud\/[a-z-]+\.ts -> src\/controllers\/service\/model\.js$/,
  // The Service writes (EndpointSlices, Endpoints, Service status) go through their own writer,
  // handed to the executor beside the pod writer; `kctl reconcile` makes the live one.
  /^src\/(apply\/sync|services\/reconcile)\.ts -> src\/controllers\/service\/control\.js$/,
]

describe('one controller, one folder', () => {
  it('no code outside src/controllers/ branches on a workload kind, but the few places listed here', () => {
    const found: string[] = []
    for (const {file, text} of ALL) {
      if (file.startsWith('src/controllers/')) continue
      text.split('\n').forEach((line, i) => {
        if (KIND_BRANCH.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`)
      })
    }
    const unexpected = found.filter((f) => !Object.keys(ALLOWED).some((allowed) => f.startsWith(`${allowed}:`)))
    expect(unexpected).toEqual([])
    expect(found.length).toBeLessThanOrEqual(5)
  })

  it('the shared layers reach a controller only through the registry, but the few imports listed here', () => {
    const found: string[] = []
    for (const {file, text} of ALL) {
      if (file.startsWith('src/controllers/')) continue
      for (const m of text.matchAll(/(?:from |import\()'([^']*controllers\/([a-z]+)\/[^']*)'/g)) found.push(`${file} -> ${m[1].replace(/^(\.\.\/)+/, 'src/')}`)
    }
    const unexpected = found.filter((f) => !LAYER_IMPORTS.some((allowed) => allowed.test(f)))
    expect(unexpected).toEqual([])
  })

  it('a controller folder imports another only where the real controllers chain', () => {
    const chains = new Set(['deployment->replicaset', 'cronjob->job'])
    const bad: string[] = []
    for (const {file, text} of ALL) {
      const own = /^src\/controllers\/([a-z]+)\//.exec(file)?.[1]
      if (!own) continue
      for (const m of text.matchAll(/from '\.\.\/([a-z]+)\/[^']*'/g)) {
        if (m[1] !== own && !chains.has(`${own}->${m[1]}`)) bad.push(`${file}: ${m[0]}`)
      }
    }
    expect(bad).toEqual([])
  })

  it('every controller in the registry has a folder, a name and kinds, and the parts every controller must have', () => {
    const names = CONTROLLERS.map((c) => c.name)
    expect(new Set(names).size).toBe(names.length)
    for (const c of CONTROLLERS) {
      expect(c.kinds.length, c.name).toBeGreaterThan(0)
      for (const part of REQUIRED_PARTS) {
        if (c.planOnly && CARRIED_OUT_PARTS.includes(part)) continue
        expect(c[part], `${c.name} lacks its ${part} part`).toBeDefined()
      }
      expect(existsSync(join(SRC, 'controllers', folderOf(c.name), 'index.ts')), c.name).toBe(true)
    }
  })
})
