// Runs the BUILT command line (`node bin/run.js`, after `npm run build`) the way a user or a CI
// job does: a child process, pipes for stdout/stderr (so "not a terminal"), the exit status.
import {spawnSync} from 'node:child_process'
import {fileURLToPath} from 'node:url'

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
export const NOW = '2026-11-22T10:00:00Z'

export interface CliResult {
  status: number | null
  stdout: string
  stderr: string
}

export function kctl(args: string[], opts: {input?: string; env?: Record<string, string | undefined>} = {}): CliResult {
  // GITHUB_ACTIONS too: a test run inside GitHub Actions must see what any other shell sees.
  const env: NodeJS.ProcessEnv = {...process.env, NODE_ENV: undefined, KCTL_DEBUG: undefined, NO_COLOR: undefined, FORCE_COLOR: undefined, GITHUB_ACTIONS: undefined}
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k]
  const result = spawnSync(process.execPath, ['bin/run.js', ...args], {cwd: ROOT, env, input: opts.input ?? '', encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024})
  if (result.error) throw result.error
  return {status: result.status, stdout: result.stdout, stderr: result.stderr}
}

/** A ReplicaSet `calm` with one Ready pod and a status that says so: in sync at 1 replica. */
export const calm = (replicas: number) => `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: calm, namespace: default, uid: 11111111-0000-4000-8000-000000000001, resourceVersion: "5", generation: 1}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: calm}}
  template:
    metadata: {labels: {app: calm}}
    spec: {containers: [{name: c, image: busybox}]}
status: {replicas: 1, fullyLabeledReplicas: 1, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 0, observedGeneration: 1}
---
apiVersion: v1
kind: Pod
metadata:
  name: calm-b4x7z
  namespace: default
  uid: 11111111-0000-4000-8000-000000000002
  resourceVersion: "4"
  creationTimestamp: "2026-11-22T09:00:00Z"
  labels: {app: calm}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: calm, uid: 11111111-0000-4000-8000-000000000001, controller: true, blockOwnerDeletion: true}]
spec: {nodeName: node-a, containers: [{name: c, image: busybox}]}
status:
  phase: Running
  conditions: [{type: Ready, status: "True", lastTransitionTime: "2026-11-22T09:00:10Z"}]
`
