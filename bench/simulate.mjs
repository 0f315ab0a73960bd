// The simulation benchmark: `kctl simulate` rolls out 1,000 Deployments × 10 replicas in one
// namespace (each on revision 1 with 10 Ready pods, its template already at v2) to completion, with
// the default model (Ready 10 s after creation). Next to it, in the same run on the same machine:
// `kctl plan` of the same file (one sync of every controller), the baseline. Reported: wall time,
// controller syncs per second, and the simulation's cost in plans (simulate ÷ plan).
//
//   npm run bench:simulate             (builds first)
//   node bench/simulate.mjs [--deployments N] [--replicas N] [--repeat N]
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join, resolve} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'

import {deploymentUid, podTemplate, replicaSetWithPods} from './deployment-world.mjs'
import {numberArgs} from './generate.mjs'
import {fastest, timed} from './measure.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '..')
const out = join(here, 'out')
const NOW = '2026-11-22T10:00:00Z'

const template = (app, version) => podTemplate(app, version, {ports: [{containerPort: 8080}]})

/** Deployments complete at revision 1, their templates changed to v2: every one has a rollout ahead. */
function world({deployments, replicas}, podTemplateHash) {
  const items = []
  for (let d = 0; d < deployments; d++) {
    const app = `app-${d}`
    items.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {name: app, namespace: 'bench', uid: deploymentUid(d), generation: 2, resourceVersion: String(d + 1), creationTimestamp: '2026-11-20T00:00:00Z', annotations: {'deployment.kubernetes.io/revision': '1'}},
      spec: {replicas, selector: {matchLabels: {app}}, template: template(app, 2)},
      status: {
        observedGeneration: 1,
        replicas,
        updatedReplicas: replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        conditions: [
          {type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', lastUpdateTime: '2026-11-20T00:01:00Z', lastTransitionTime: '2026-11-20T00:01:00Z'},
          {type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', lastUpdateTime: '2026-11-20T00:01:00Z', lastTransitionTime: '2026-11-20T00:00:00Z'},
        ],
      },
    })
    items.push(...replicaSetWithPods({app, index: d, namespace: 'bench', revision: 1, template: template(app, 1), size: replicas, replicas, created: '2026-11-20T00:00:00Z', resourceVersion: String(d + 1), podTemplateHash}))
  }
  return items
}

async function main() {
  const o = numberArgs({deployments: 1000, replicas: 10, repeat: 1})
  const {podTemplateHash} = await import(pathToFileURL(join(root, 'dist/reconcile/hash/index.js')).href)
  mkdirSync(out, {recursive: true})
  const file = join(out, 'simulate-world.json')
  const items = world(o, podTemplateHash)
  writeFileSync(file, JSON.stringify({apiVersion: 'v1', kind: 'List', items}))
  process.stderr.write(`world: ${o.deployments} Deployments × ${o.replicas} replicas, ${items.length} objects\n`)

  const plan = fastest(o.repeat, () => timed([join(root, 'bin/run.js'), 'plan', '-o', 'json', '--now', NOW, '-f', file]))
  const simFile = join(out, 'simulate-result.json')
  const sim = fastest(o.repeat, () => timed([join(root, 'bin/run.js'), 'simulate', '-o', 'json', '--now', NOW, '-f', file], simFile))
  const doc = JSON.parse(readFileSync(simFile, 'utf8'))
  const complete = doc.deployments.filter((d) => d.final.rollout === 'complete').length
  if (complete !== o.deployments) throw new Error(`only ${complete} of ${o.deployments} rollouts completed`)

  const results = {
    deployments: o.deployments,
    replicas: o.replicas,
    planSeconds: plan,
    simulateSeconds: sim,
    simulateVsPlan: sim / plan,
    ...doc.summary,
    syncsPerSecond: doc.summary.syncs / sim,
    roundsPerSecond: doc.summary.rounds / sim,
  }
  writeFileSync(join(out, 'simulate-results.json'), `${JSON.stringify(results, null, 2)}\n`)
  console.log(`kctl simulate, ${o.deployments} Deployments × ${o.replicas} replicas rolled out to completion (${complete} complete):`)
  console.log(`  kctl plan of the same file (baseline)  ${plan.toFixed(2)} s`)
  console.log(`  kctl simulate -o json                  ${sim.toFixed(2)} s   ${(sim / plan).toFixed(1)}× one plan`)
  console.log(`  ${doc.summary.syncs} controller syncs in ${doc.summary.rounds} rounds, ${doc.summary.steps} steps, ${doc.summary.durationSeconds} s of virtual time`)
  console.log(`  ${(doc.summary.syncs / sim).toFixed(0)} syncs per second, ${(doc.summary.rounds / sim).toFixed(2)} rounds per second`)
}

await main()
