// Lines the controllers that keep ControllerRevisions share (StatefulSet, DaemonSet): a revision's
// create, update, delete, adoption and release, and a pod's adoption and release. No registry here:
// their render.ts import this.
import type {ChalkInstance} from 'chalk'
import type {Action} from '../model/plan.js'

/** The line of a revision write or a pod's adoption or release; undefined for any other action. */
export function revisionActionLine(a: Action, c: ChalkInstance): string | undefined {
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
    case 'adopt':
      return c.yellow(`  ~ adopt pod ${a.pod}  (an orphan whose labels match the selector)`)
    case 'release':
      return c.yellow(`  ~ release pod ${a.pod}  (owned, but no longer matching)`)
    default:
      return undefined
  }
}
