// CronJobs as the API server stores them: defaulted as SetDefaults_CronJob does
// (pkg/apis/batch/v1/defaults.go); the jobTemplate is read as a Job would be (../job/read.ts).
import type {CronJobStatusView, CronJobView} from './model.js'
import {type Ctx, EMPTY_RAW as EMPTY, INT32_MAX} from '../../sources/context.js'
import type {RawObject} from '../../sources/documents.js'
import type {FieldReaders} from '../../sources/fields.js'
import type {KindReader, Meta} from '../../sources/part.js'
import {list, oneOf, readJob} from '../job/read.js'

/** What the CronJob controller reads: its CronJobs (after -n and -l); their Jobs are the Job controller's reading. */
export const CRONJOB_READS: readonly KindReader[] = [
  {
    kind: 'CronJob',
    group: 'batch',
    version: 'v1',
    read({ctx, fields, apiVersion, meta, raw, planned, located, collect}) {
      const cj = readCronJob(ctx, fields, apiVersion, meta, raw)
      if (cj && planned()) collect('cronJobs', located(cj))
    },
  },
]

/** SetDefaults_CronJob: Allow, not suspended, 3 successful and 1 failed Jobs kept. */
export function readCronJob(ctx: Ctx, r: FieldReaders, apiVersion: string, meta: Meta, raw: RawObject): CronJobView | undefined {
  const spec = ctx.mapping(raw.spec, ['spec']) ?? EMPTY
  const status = ctx.mapping(raw.status, ['status']) ?? EMPTY
  const schedule = ctx.string(spec.schedule, ['spec', 'schedule']) ?? ''
  if (schedule === '') ctx.fail(['spec', 'schedule'], 'a CronJob needs a schedule')
  const jt = ctx.mapping(spec.jobTemplate, ['spec', 'jobTemplate'])
  if (!jt) ctx.fail(['spec', 'jobTemplate'], 'a CronJob needs a jobTemplate')
  const jtMeta = ctx.mapping(jt?.metadata, ['spec', 'jobTemplate', 'metadata']) ?? EMPTY
  const jobSpec = ctx.mapping(jt?.spec, ['spec', 'jobTemplate', 'spec']) ?? EMPTY
  // The template is read as a Job would be, so that mistakes in it are found where they are written.
  const job = readJob(ctx, r, 'batch/v1', {...meta, uid: '', labels: {}, annotations: {}, ownerReferences: [], resourceVersion: ''}, jobSpec, EMPTY, ['spec', 'jobTemplate'])
  const int = (field: string) => ctx.int(spec[field], ['spec', field], 0, INT32_MAX)
  const activeRefs = list(ctx, status.active, ['status', 'active']).map((a, i) => {
    const m = ctx.mapping(a, ['status', 'active', i]) ?? EMPTY
    const ref: CronJobStatusView['active'][number] = {name: ctx.string(m.name, ['status', 'active', i, 'name']) ?? '', uid: ctx.string(m.uid, ['status', 'active', i, 'uid']) ?? ''}
    for (const f of ['apiVersion', 'kind', 'namespace', 'resourceVersion'] as const) {
      const s = ctx.string(m[f], ['status', 'active', i, f])
      if (s !== undefined) ref[f] = s
    }
    return ref
  })
  const statusView: CronJobStatusView = {active: activeRefs}
  for (const f of ['lastScheduleTime', 'lastSuccessfulTime'] as const) {
    const t = ctx.time(status[f], ['status', f])
    if (t !== undefined) statusView[f] = t
  }
  const cj: CronJobView = {
    kind: 'CronJob',
    apiVersion,
    ...meta,
    schedule,
    concurrencyPolicy: oneOf(ctx, spec.concurrencyPolicy, ['spec', 'concurrencyPolicy'], ['Allow', 'Forbid', 'Replace'], 'Allow'),
    suspend: ctx.bool(spec.suspend, ['spec', 'suspend']) ?? false,
    successfulJobsHistoryLimit: int('successfulJobsHistoryLimit') ?? 3,
    failedJobsHistoryLimit: int('failedJobsHistoryLimit') ?? 1,
    jobTemplate: {labels: ctx.labels(jtMeta.labels, ['spec', 'jobTemplate', 'metadata', 'labels']), annotations: ctx.stringMap(jtMeta.annotations, ['spec', 'jobTemplate', 'metadata', 'annotations']), job},
    status: statusView,
  }
  const tz = ctx.string(spec.timeZone, ['spec', 'timeZone'])
  if (tz !== undefined) cj.timeZone = tz
  const sds = ctx.int(spec.startingDeadlineSeconds, ['spec', 'startingDeadlineSeconds'], 0, Number.MAX_SAFE_INTEGER)
  if (sds !== undefined) cj.startingDeadlineSeconds = sds
  return cj
}
