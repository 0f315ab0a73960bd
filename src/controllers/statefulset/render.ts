// The table view of a StatefulSet's or DaemonSet's plan: the header with the rollout in a few
// words, one line per write in the controller's order, then the nodes a DaemonSet leaves out.
import type {ChalkInstance} from 'chalk'
import type {Action, BlockReason, ControllerPlan} from '../../model/plan.js'
import type {DaemonNode, NodeExclusion} from '../daemonset/model.js'

/** Nodes a DaemonSet leaves out are listed one per line up to this many. */
const MAX_NODE_LINES = 10

const BLOCK_WORDS: Record<BlockReason, string> = {
  'not-running-and-ready': 'is not Running and Ready',
  'not-available': 'is not yet available (minReadySeconds)',
  terminating: 'is terminating',
  failed: 'failed and is deleted first',
  created: 'is created in this sync (OrderedReady: one at a time)',
  'stale-claim': "has a claim still owned by an earlier pod of that name",
  'claim-deleting': 'has a claim being deleted',
}

const DELETE_WORDS: Record<string, string> = {
  failed: 'Failed: replaced in a later sync',
  succeeded: 'Succeeded: replaced in a later sync',
  condemned: 'its ordinal is beyond replicas',
  update: 'not at the update revision',
  duplicate: 'a second pod on its node',
  'not-eligible': 'its node no longer runs the daemon',
  'no-node': 'its node no longer exists',
  'surge-replaced': 'replaced by the new pod on its node',
}

const EXCLUSION_WORDS: Record<NodeExclusion, string> = {
  'node-name': 'the template names another node',
  'node-selector': 'nodeSelector does not match its labels',
  'node-affinity': 'required node affinity does not match',
  taint: 'untolerated taint',
}

export function renderWorkload(cp: ControllerPlan, head: string, c: ChalkInstance, statusLine: (a: Action) => string): string {
  const lines = [cp.inSync ? `${head}  ${c.green('(in sync)')}` : head]
  for (const a of cp.actions) lines.push(actionLine(a, c) ?? statusLine(a))
  if (cp.blockedBy) lines.push(c.dim(`  … then waits: ${cp.blockedBy.pod} ${BLOCK_WORDS[cp.blockedBy.reason]}`))
  const excluded = (cp.nodes ?? []).filter((n) => !n.shouldRun)
  for (const n of excluded.slice(0, MAX_NODE_LINES)) lines.push(c.dim(`  · node ${n.node}: ${nodeWords(n)}`))
  if (excluded.length > MAX_NODE_LINES) lines.push(c.dim(`  · and ${excluded.length - MAX_NODE_LINES} more nodes without the daemon pod (see nodes[] in -o json)`))
  for (const w of cp.warnings) lines.push(c.yellow(`  ! ${w}`))
  return lines.join('\n')
}

function nodeWords(n: DaemonNode): string {
  const why = n.excludedBy ? EXCLUSION_WORDS[n.excludedBy] : 'not eligible'
  const taint = n.taint ? ` ${n.taint.key}${n.taint.value ? `=${n.taint.value}` : ''}:${n.taint.effect}` : ''
  const keeps = n.shouldContinueRunning && n.pods.length > 0 ? `; its pod ${n.pods[0]} stays` : ''
  return `no daemon pod (${why}${taint})${keeps}`
}

export function actionLine(a: Action, c: ChalkInstance): string | undefined {
  switch (a.type) {
    case 'createControllerRevision':
      return c.green(`  + create ControllerRevision ${a.name ?? `${a.ownerReference.name}-<hash unknown here>`}  revision ${a.revision}`)
    case 'updateControllerRevision':
      return c.yellow(`  ~ update ControllerRevision ${a.name}  revision ${a.from}→${a.to} (its template is current again)`)
    case 'deleteControllerRevision':
      return c.red(`  - delete ControllerRevision ${a.name}  (revision ${a.revision}, ${a.reason === 'duplicate' ? 'a duplicate of the current one' : 'beyond revisionHistoryLimit'})`)
    case 'adoptControllerRevision':
      return c.yellow(`  ~ adopt ControllerRevision ${a.name}`)
    case 'releaseControllerRevision':
      return c.yellow(`  ~ release ControllerRevision ${a.name}`)
    case 'createClaim':
      return c.green(`  + create PersistentVolumeClaim ${a.claim}  (template ${a.template}, for ${a.pod})`)
    case 'updateClaim':
      return c.yellow(`  ~ update PersistentVolumeClaim ${a.claim}  owners ${owners(a.from)}→${owners(a.to)} (retention policy)`)
    case 'createStatefulPod':
      return c.green(`  + create pod ${a.pod}  (${a.template} revision ${a.revision ?? 'unknown here'})`)
    case 'deleteStatefulPod':
      return c.red(`  - delete pod ${a.pod}  because: ${DELETE_WORDS[a.reason]}`)
    case 'updatePod':
      return c.yellow(`  ~ update pod ${a.pod}  (${a.fixes.join(', ')})`)
    case 'createDaemonPod':
      return c.green(`  + create pod ${a.nameBase}<random> on node ${a.node}${a.reason === 'surge' ? '  (surge: beside the old pod)' : ''}`)
    case 'deleteDaemonPod':
      return c.red(`  - delete pod ${a.pod} on node ${a.node}  because: ${a.reason === 'update' ? 'an old revision, and maxUnavailable allows it' : DELETE_WORDS[a.reason]}${a.kept ? ` (keeps ${a.kept})` : ''}`)
    case 'chooseDaemonPods':
      return c.yellow(`  ~ ${a.operation === 'delete' ? 'delete' : 'create on'} ${a.count} of ${candidates(a.candidates)}  (which: the controller's map order, random)`)
    case 'adopt':
      return c.yellow(`  ~ adopt pod ${a.pod}  (an orphan whose labels match the selector)`)
    case 'release':
      return c.yellow(`  ~ release pod ${a.pod}  (owned, but no longer matching)`)
    default:
      return undefined
  }
}

/** The first few candidates, and how many in all. */
function candidates(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NODE_LINES).join(', ')
  return names.length > MAX_NODE_LINES ? `${shown}, … (${names.length} in all)` : shown
}

function owners(refs: readonly {kind: string; name: string}[]): string {
  return refs.length === 0 ? 'none' : refs.map((r) => `${r.kind}/${r.name}`).join(',')
}
