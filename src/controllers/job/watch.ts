// Watch mode for Jobs and CronJobs. A Job's sync reads its pods and the orphans it may adopt, a
// CronJob's the Jobs of its namespace: an event of a Job, a CronJob or a pod a Job owns (or no
// controller owns) marks the namespace, and the next batch plans its Jobs and CronJobs again
// (namespace-watch.ts). Their plans' `requeue` — a backoff ending, an active deadline, a finished
// Job's TTL, a CronJob's next schedule time — marks it again when the watch's clock gets there.
import type {CronJobView} from '../cronjob/model.js'
import type {JobView} from './model.js'
import type {PodView, Snapshot} from '../../model/objects.js'
import {selectorMatches} from '../../reconcile/selector.js'
import {LIVE_SOURCE, NamespaceWatch, type NamespaceWatchOptions} from '../../watch/namespace-watch.js'

/** What the informers hold, by namespace. */
export interface BatchSources {
  jobs(namespace: string): Iterable<JobView>
  cronJobs(namespace: string): Iterable<CronJobView>
  pods(namespace: string): Iterable<PodView>
  /** Namespaces that hold a Job or a CronJob. */
  namespaces(): Iterable<string>
}

export class BatchWatch extends NamespaceWatch {
  constructor(
    private readonly sources: BatchSources,
    options: NamespaceWatchOptions,
  ) {
    super(['job', 'cronjob'], options)
  }

  protected namespaces(): Iterable<string> {
    return this.sources.namespaces()
  }

  protected holds(ns: string): boolean {
    for (const _ of this.sources.jobs(ns)) return true
    for (const _ of this.sources.cronJobs(ns)) return true
    return false
  }

  protected podMatters(pod: PodView): boolean {
    const owner = pod.ownerReferences.find((r) => r.controller === true)
    return !owner || owner.kind === 'Job'
  }

  protected snapshot(ns: string): Snapshot {
    const selector = this.options.selector
    const picked = (labels: Readonly<Record<string, string>>) => !selector || selectorMatches(selector, labels)
    return {
      // -l leaves Jobs out of the plan, not out of their CronJob's sync.
      jobs: [...this.sources.jobs(ns)].map((j) => (picked(j.labels) ? j : {...j, notPlanned: true})),
      cronJobs: [...this.sources.cronJobs(ns)].filter((c) => picked(c.labels)),
      pods: [...this.sources.pods(ns)],
      workloads: [],
      replicaSets: [],
      ignored: {},
      source: LIVE_SOURCE,
    }
  }
}
