// When a controller syncs again by itself, and why: the line a Job's, CronJob's or Service's block
// ends with. Shared by those controllers' render.ts (no registry here).
import type {ChalkInstance} from 'chalk'
import type {Requeue} from '../model/plan.js'

const REQUEUE_WORDS: Record<Requeue['reason'], string> = {
  backoff: 'when the pod-failure backoff ends',
  'backoff-per-index': "when an index's backoff ends",
  'active-deadline': 'at the active deadline',
  'next-schedule': 'at the next schedule time',
  'sync-error': 'retried after the error that ends this sync (the queue backs off 1 s, 2 s, 4 s … to 1000 s; a Node event does not re-sync it)',
  'retries-until-next-schedule': "at the first of the queue's retries after the next schedule time (the sync ends in an error; retries come 5 ms, 10 ms, 20 ms … at most 1000 s apart, and each one before then ends in the same error)",
  'ttl-after-finished': 'when its ttlSecondsAfterFinished has passed (the ttl-after-finished controller deletes it then)',
  'sync-period': 'one sync period later (--horizontal-pod-autoscaler-sync-period)',
}

function seconds(s: number): string {
  const whole = Math.floor(s)
  const h = Math.floor(whole / 3600)
  const m = Math.floor((whole % 3600) / 60)
  const rest = s - h * 3600 - m * 60
  const sec = Number.isInteger(rest) ? String(rest) : rest.toFixed(1)
  return [h > 0 ? `${h}h` : '', m > 0 ? `${m}m` : '', rest > 0 || (h === 0 && m === 0) ? `${sec}s` : ''].join('')
}

/** When the controller syncs again by itself, and why. */
export function requeueLine(r: Requeue, c: ChalkInstance): string {
  return c.dim(`  … syncs again in ${seconds(r.seconds)} (${r.at}), ${REQUEUE_WORDS[r.reason]}`)
}
