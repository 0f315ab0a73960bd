// Watch mode for CronJobs. A CronJob's sync reads the Jobs of its namespace, so CronJobs are
// planned with the Jobs (controllers/job/watch.ts): an event of a CronJob, a Job or a Job's pod
// marks the namespace, and the next batch plans its Jobs and CronJobs again (namespace-watch.ts).
// Their plans' `requeue` — a CronJob's next schedule time — marks it again when the watch's clock
// gets there.
import type {CronJobView} from './model.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {wholeObjects} from '../../watch/objects.js'
import type {NamespaceWatchPart} from '../../watch/part.js'

export const cronJobWatch: NamespaceWatchPart = {
  by: 'namespace',
  plannedWith: 'job',
  resources: [wholeObjects<CronJobView>('cronjobs', 'CronJob', 'batch/v1', (s) => s.cronJobs)],
  reads: [],
  namespaces: (caches) => caches.namespaces('cronjobs'),
  holds: (caches, ns) => {
    for (const _ of caches.list('cronjobs', ns)) return true
    return false
  },
  // Its Jobs' pods matter to the Jobs (planned with it), not to its own sync.
  podMatters: () => false,
  snapshot: (caches, ns, selector) => ({
    cronJobs: [...caches.list<CronJobView>('cronjobs', ns)].filter((c) => !selector || selectorMatches(selector, c.labels)),
  }),
  planned: (s) => s.cronJobs?.length ?? 0,
}
