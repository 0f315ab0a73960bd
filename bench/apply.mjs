// Closing figures for `kctl reconcile`: 500 creates applied by kctl next to the same scale-up done
// by kube-controller-manager's replicaset controller, on one real control plane, in one run.
// The measurement lives in the e2e suite (it needs the control plane harness); this runs just that
// test and prints its [bench] lines. Not a timed test: nothing is asserted about time.
//
//   npm run build && node bench/apply.mjs
import {spawnSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const run = spawnSync('npx', ['vitest', 'run', '--project', 'e2e', 'test/e2e/reconcile.e2e.test.ts', '-t', 'closing figures'], {
  cwd: root,
  encoding: 'utf8',
  env: {...process.env, NO_COLOR: '1'},
})
const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => l.startsWith('[bench]'))
process.stdout.write(lines.length > 0 ? `${lines.map((l) => l.replace(/^\[bench\] ?/, '')).join('\n')}\n` : `${run.stdout}\n${run.stderr}\n`)
process.exitCode = run.status ?? 1
