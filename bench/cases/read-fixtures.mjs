// kctl's fixture reader alone (read, parse, validate, default → Snapshot), from the built dist/.
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

const root = process.env.KCTL_BENCH_ROOT ?? new URL('../..', import.meta.url).pathname
const {readFixtures} = await import(pathToFileURL(join(root, 'dist/sources/fixtures.js')).href)
const t0 = performance.now()
const snapshot = await readFixtures({paths: [process.argv[2]], allNamespaces: true})
const ms = performance.now() - t0
console.log(JSON.stringify({ms, workloads: snapshot.workloads.length, pods: snapshot.pods.length}))
