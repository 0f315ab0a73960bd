// Plausible bugs in the planners, one small edit each, for `npm run test:mutation`. Each names the
// rule it breaks; `from` must occur exactly once in `file` (the run refuses a stale entry). A mutant
// that the unit tests do not notice is a rule no test pins. Files are relative to src/reconcile/.
//
// Left out because no input can tell them from the code (equivalent mutants), each checked by hand:
// ready time compared when only one pod is Ready (readiness decides first); a condition's message
// compared in the status write (the planner never changes a kept condition); log2 of an exact power
// of two without its shortcut (JS computes it exactly); inSync ignoring `pending` (pending work
// always comes with an action); revisionHistoryLimit MaxInt32 read as a limit (no Deployment has
// 2^31 ReplicaSets); old ReplicaSets scaled down with no room (then availability is at its minimum);
// LastRevision without its second branch (the new ReplicaSet, last in the list, always has the highest);
// unhealthy old replicas cleaned without sorting (the old ReplicaSets arrive sorted by creation).
export const MUTANTS = [
  // ---- rank.ts: ActivePodsWithRanks.Less and getPodsToDelete (§2) ----
  {id: 'R01', file: 'reconcile/rank.ts', rule: 'unassigned first only when exactly one has no node', from: "(aNode === '' || bNode === '')", to: "(aNode === '' && bNode === '')"},
  {id: 'R02', file: 'reconcile/rank.ts', rule: 'phase order Pending < Unknown < Running', from: 'less: a.phaseOrdinal < b.phaseOrdinal', to: 'less: a.phaseOrdinal > b.phaseOrdinal'},
  {id: 'R03', file: 'reconcile/rank.ts', rule: 'not ready before ready', from: "{less: !a.pod.ready, rule: 'not-ready'}", to: "{less: a.pod.ready, rule: 'not-ready'}"},
  {id: 'R04', file: 'reconcile/rank.ts', rule: 'deletion cost only behind the PodDeletionCost gate', from: 'if (ctx.gates.PodDeletionCost && a.facts.deletionCost !== b.facts.deletionCost)', to: 'if (a.facts.deletionCost !== b.facts.deletionCost)'},
  {id: 'R05', file: 'reconcile/rank.ts', rule: 'more co-located related pods first', from: 'less: a.facts.colocationRank > b.facts.colocationRank', to: 'less: a.facts.colocationRank < b.facts.colocationRank'},
  {id: 'R07', file: 'reconcile/rank.ts', rule: 'more restarts first', from: 'less: a.facts.restarts > b.facts.restarts', to: 'less: a.facts.restarts < b.facts.restarts'},
  {id: 'R08', file: 'reconcile/rank.ts', rule: 'sidecar restarts after regular restarts', from: 'if (a.facts.sidecarRestarts !== b.facts.sidecarRestarts) {', to: 'if (false) {'},
  {id: 'R09', file: 'reconcile/rank.ts', rule: 'a zero time counts as most recent', from: 'return {less: ta === undefined, rule}', to: 'return {less: tb === undefined, rule}'},
  {id: 'R10', file: 'reconcile/rank.ts', rule: 'the lower log2 bucket (more recent) first', from: 'return {less: diff < 0, rule}', to: 'return {less: diff > 0, rule}'},
  {id: 'R11', file: 'reconcile/rank.ts', rule: 'uid tie-break inside one bucket: the smaller uid first', from: "less: a.pod.uid < b.pod.uid, rule: 'uid'", to: "less: a.pod.uid > b.pod.uid, rule: 'uid'"},
  {id: 'R12', file: 'reconcile/rank.ts', rule: 'without LogarithmicScaleDown: the more recent time first', from: 'return {less: ta > tb, rule}', to: 'return {less: ta < tb, rule}'},
  {id: 'R13', file: 'reconcile/rank.ts', rule: 'tie counting: uid order only between different exact times', from: 'behind[i] += all.length - upperBound(all, uid) - (own.length - upperBound(own, uid))', to: 'behind[i] += all.length - upperBound(all, uid)'},
  {id: 'R14', file: 'reconcile/rank.ts', rule: 'tie counting: a prefix is closed only when every pair across it is decided', from: 'closed[k] = balance === k * (m - k) ? 1 : 0', to: 'closed[k] = balance >= k * (m - k) - 1 ? 1 : 0'},
  {id: 'R15', file: 'reconcile/rank.ts', rule: 'a tie with one victim is still a tie', from: 'const tie = tieStart < n ? ordered.slice(tieStart, tieEnd) : []', to: 'const tie = tieStart < n - 1 ? ordered.slice(tieStart, tieEnd) : []'},
  {id: 'R16', file: 'reconcile/rank.ts', rule: 'decidedBy compares with the first kept pod outside the tie', from: 'const against = ordered[tieEnd] ?? ordered[n]', to: 'const against = ordered[n]'},
  {id: 'R17', file: 'reconcile/rank.ts', rule: 'co-location counts only active related pods (§2.1.4)', from: 'if (isPodActive(pod)) perNode.set', to: 'perNode.set'},
  {id: 'R18', file: 'reconcile/rank.ts', rule: 'tie counting: the ready-time class is part of the first level', from: '        p.pod.ready ? timeClass(p.readyTime) : 0,\n', to: '        0,\n'},
  // ---- pods.ts ----
  {id: 'P01', file: 'reconcile/pods.ts', rule: 'IsPodActive: a pod being deleted is not active', from: " && pod.deletionTimestamp === undefined\n", to: '\n'},
  {id: 'P02', file: 'reconcile/pods.ts', rule: 'deletion cost below int32 is invalid', from: 'if (n < -2147483648 || n > 2147483647)', to: 'if (n > 2147483647)'},
  {id: 'P03', file: 'reconcile/pods.ts', rule: 'deletion cost with a leading zero is invalid', from: "value === '0' ||", to: "value[0] === '0' ||"},
  {id: 'P04', file: 'reconcile/pods.ts', rule: 'phase Unknown between Pending and Running', from: "phase === 'Unknown' ? 1 :", to: "phase === 'Unknown' ? 0 :"},
  {id: 'P05', file: 'reconcile/pods.ts', rule: 'restarts: the highest count, not the sum', from: 'regular = Math.max(regular, c.restartCount)', to: 'regular += c.restartCount'},
  {id: 'P06', file: 'reconcile/pods.ts', rule: 'a controller finds its pods by kind, name and uid', from: 'ref.kind === controller.kind && ref.name === controller.name', to: 'ref.kind === controller.kind'},
  // ---- ownership.ts: ClaimPods (§3) ----
  {id: 'O01', file: 'reconcile/ownership.ts', rule: 'a pod controlled by another owner is ignored', from: 'if (ref.uid !== controller.uid) continue', to: 'if (ref.name !== controller.name) continue'},
  {id: 'O02', file: 'reconcile/ownership.ts', rule: 'no release while the controller is being deleted', from: 'else if (!deleting) result.released.push(pod)', to: 'else result.released.push(pod)'},
  {id: 'O03', file: 'reconcile/ownership.ts', rule: 'a terminating orphan is not adopted', from: ' || pod.deletionTimestamp !== undefined', to: ''},
  {id: 'O04', file: 'reconcile/ownership.ts', rule: 'only orphans in the namespace are adopted', from: ' || pod.namespace !== controller.namespace', to: ''},
  {id: 'O05', file: 'reconcile/ownership.ts', rule: 'no adoption while the controller is being deleted', from: 'if (deleting || !matches', to: 'if (!matches'},
  // ---- slow-start.ts, create.ts ----
  {id: 'S01', file: 'reconcile/slow-start.ts', rule: 'batches double, capped by what remains', from: 'size = Math.min(2 * size, remaining)', to: 'size = Math.min(2 * size, n)'},
  {id: 'S02', file: 'reconcile/slow-start.ts', rule: 'a batch with any failure ends slow start', from: 'if (ok < size) break', to: 'if (ok === 0) break'},
  {id: 'C01', file: 'reconcile/create.ts', rule: 'generateName is cut to 58 characters', from: 'GENERATED_BASE_LENGTH = 58', to: 'GENERATED_BASE_LENGTH = 63'},
  {id: 'C02', file: 'controllers/replicaset/create.ts', rule: 'getPodsPrefix: a 253-character prefix is still valid', from: 'prefix.length <= 253', to: 'prefix.length < 253'},
  // ---- status.ts: calculateStatus, updateReplicaSetStatus (§4) ----
  {id: 'T01', file: 'reconcile/status.ts', rule: 'IsPodAvailable: ready strictly before now − minReadySeconds', from: 'since + seconds(minReadySeconds) < now', to: 'since + seconds(minReadySeconds) <= now'},
  {id: 'T02', file: 'reconcile/status.ts', rule: 'minReadySeconds 0: Ready is available', from: '  if (minReadySeconds === 0) return true\n', to: ''},
  {id: 'T03', file: 'controllers/replicaset/status.ts', rule: 'fullyLabeledReplicas counts pods with every template label', from: 'if (selectorMatches(templateSelector, pod.labels)) fullyLabeled++', to: 'fullyLabeled++'},
  {id: 'T04', file: 'controllers/replicaset/status.ts', rule: 'terminatingReplicas counts only our own pods', from: 'controllerOf(pod)?.uid === workload.uid && ', to: ''},
  {id: 'T05', file: 'controllers/replicaset/status.ts', rule: 'terminatingReplicas is a ReplicaSet field, not an RC one', from: "input.terminatingReplicasGate && workload.kind === 'ReplicaSet'", to: 'input.terminatingReplicasGate'},
  {id: 'T06', file: 'reconcile/status.ts', rule: 'an existing ReplicaFailure is kept, not added again', from: "  if (current.some((c) => c.type === 'ReplicaFailure')) return current.map((c) => ({...c}))\n", to: ''},
  {id: 'T07', file: 'reconcile/status.ts', rule: 'ReplicaFailure reason by the sign of the diff', from: "diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete'", to: "diff > 0 ? 'FailedCreate' : diff < 0 ? 'FailedDelete'"},
  {id: 'T08', file: 'controllers/replicaset/status.ts', rule: 'a new generation is written even when the counts are unchanged', from: '    workload.generation === cur.observedGeneration &&\n', to: ''},
  {id: 'T09', file: 'controllers/replicaset/status.ts', rule: 'terminatingReplicas nil vs 0 is a change', from: '    cur.terminatingReplicas === next.terminatingReplicas &&\n', to: ''},
  // ---- time.ts ----
  {id: 'L01', file: 'reconcile/time.ts', rule: 'an age of zero has bucket −1', from: 'if (age <= 0n) return -1', to: 'if (age < 0n) return -1'},
  // ---- planner.ts: syncReplicaSet, manageReplicas ----
  {id: 'N01', file: 'controllers/replicaset/sync.ts', rule: 'at most burstReplicas creates per sync', from: 'const n = Math.min(-diff, options.burstReplicas)', to: 'const n = -diff'},
  {id: 'N02', file: 'controllers/replicaset/sync.ts', rule: 'at most burstReplicas deletes per sync', from: 'const n = Math.min(diff, options.burstReplicas)', to: 'const n = diff'},
  {id: 'N03', file: 'controllers/replicaset/sync.ts', rule: 'a controller being deleted creates and deletes nothing', from: 'const deleting = workload.deletionTimestamp !== undefined', to: 'const deleting = false'},
  {id: 'N04', file: 'controllers/replicaset/sync.ts', rule: 'only active pods are claimed and counted', from: 'claimPods(workload, selector, candidates.filter(isPodActive))', to: 'claimPods(workload, selector, candidates)'},
  {id: 'N05', file: 'controllers/replicaset/sync.ts', rule: 'related pods are counted once each', from: '      if (seen.has(pod.uid)) continue\n', to: ''},
  {id: 'N06', file: 'controllers/replicaset/sync.ts', rule: 'an owner being deleted releases nothing', from: 'if (owner.deletionTimestamp !== undefined || !isControlledBy(pod, owner)) return false', to: 'if (!isControlledBy(pod, owner)) return false'},
  {id: 'N07', file: 'controllers/replicaset/sync.ts', rule: 'a contested adoption takes two adopters', from: 'if (plans.length < 2) continue', to: 'if (plans.length < 3) continue'},
  // ---- incremental.ts: which controllers an event re-plans ----
  {id: 'I01', file: 'reconcile/incremental.ts', rule: 'a changed pod re-plans the controllers of its old state', from: '      this.pods.delete(old)\n      this.podAffects(old, affected)\n', to: '      this.pods.delete(old)\n'},
  {id: 'I02', file: 'reconcile/incremental.ts', rule: 'a pod re-plans the sibling ReplicaSets that rank by it', from: 'if (entry) this.siblingsOf(entry.workload, affected, true)', to: ''},
  // ---- deployment/util.ts (D5, D7, D9) ----
  {id: 'D01', file: 'controllers/deployment/util.ts', rule: 'percentages: surge rounds up, unavailability down', from: 'return roundUp ? Math.ceil(x) : Math.floor(x)', to: 'return Math.round(x)'},
  {id: 'D02', file: 'controllers/deployment/util.ts', rule: 'surge and unavailability both 0 make unavailability 1', from: '  if (surge === 0 && unavailable === 0) unavailable = 1\n', to: ''},
  {id: 'D03', file: 'controllers/deployment/util.ts', rule: 'maxUnavailable never exceeds replicas', from: 'return Math.min(resolveFenceposts(d.strategy.maxSurge, d.strategy.maxUnavailable, d.replicas).unavailable, d.replicas)', to: 'return resolveFenceposts(d.strategy.maxSurge, d.strategy.maxUnavailable, d.replicas).unavailable'},
  {id: 'D04', file: 'controllers/deployment/util.ts', rule: 'the new ReplicaSet may grow up to replicas + surge', from: 'if (current >= maxTotal) return newRS.replicas', to: 'if (current >= d.replicas) return newRS.replicas'},
  {id: 'D05', file: 'controllers/deployment/util.ts', rule: 'the new ReplicaSet grows no further than replicas', from: 'Math.min(maxTotal - current, d.replicas - newRS.replicas)', to: '(maxTotal - current)'},
  {id: 'D06', file: 'controllers/deployment/util.ts', rule: 'ReplicaSetsBySizeNewer: equal sizes, newer first', from: '(a.replicas !== b.replicas ? b.replicas - a.replicas : byCreation(b, a))', to: '(a.replicas !== b.replicas ? b.replicas - a.replicas : byCreation(a, b))'},
  {id: 'D07', file: 'controllers/deployment/util.ts', rule: 'IsSaturated needs every replica available', from: ' && rs.status.availableReplicas === d.replicas', to: ''},
  {id: 'D08', file: 'controllers/deployment/util.ts', rule: 'proportion capped by what is left to add or remove', from: 'toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed)', to: 'toAdd > 0 ? Math.max(fraction, allowed) : Math.min(fraction, allowed)'},
  {id: 'D09', file: 'controllers/deployment/util.ts', rule: 'the fraction is rounded half away from zero', from: 'return roundHalfAway(product / before) - rs.replicas', to: 'return Math.floor(product / before) - rs.replicas'},
  {id: 'D10', file: 'controllers/deployment/util.ts', rule: 'a rollout is complete only once its generation is observed', from: ' && s.observedGeneration >= d.generation', to: ''},
  {id: 'D11', file: 'controllers/deployment/util.ts', rule: 'more ready replicas is progress', from: '    s.readyReplicas > old.readyReplicas ||\n', to: ''},
  {id: 'D12', file: 'controllers/deployment/util.ts', rule: 'the progress deadline passes strictly after lastUpdateTime + deadline', from: 'return from + seconds(d.progressDeadlineSeconds!) < now', to: 'return from + seconds(d.progressDeadlineSeconds!) <= now'},
  {id: 'D13', file: 'controllers/deployment/util.ts', rule: 'a ReplicaSet name leaves room for the dash', from: 'const room = 253 - 1 - hash.length', to: 'const room = 253 - hash.length'},
  // ---- deployment/sync.ts (D5–D10) ----
  {id: 'D16', file: 'controllers/deployment/sync.ts', rule: 'unavailable new replicas reduce what old ones may lose', from: 'const maxScaledDown = sumSpec(all) - minAvailable - newUnavailable', to: 'const maxScaledDown = sumSpec(all) - minAvailable'},
  {id: 'D18', file: 'controllers/deployment/sync.ts', rule: 'a ReplicaSet scales down no further than 0', from: 'const n = Math.min(rs.replicas, total - scaledDown)', to: 'const n = total - scaledDown'},
  {id: 'D19', file: 'controllers/deployment/sync.ts', rule: 'revisionHistoryLimit old ReplicaSets are kept', from: 'const diff = cleanable.length - d.revisionHistoryLimit!', to: 'const diff = cleanable.length - d.revisionHistoryLimit! + 1'},
  {id: 'D20', file: 'controllers/deployment/sync.ts', rule: 'a ReplicaSet whose generation is unobserved is not cleaned up', from: ' || rs.generation > rs.status.observedGeneration', to: ''},
  {id: 'D21', file: 'controllers/deployment/sync-state.ts', rule: 'unavailableReplicas is never negative', from: 'unavailableReplicas: Math.max(0, sumSpec(rss) - available)', to: 'unavailableReplicas: sumSpec(rss) - available'},
  {id: 'D22', file: 'controllers/deployment/sync-state.ts', rule: 'Available at exactly replicas − maxUnavailable', from: 'available >= d.replicas - maxUnavailable(d)', to: 'available > d.replicas - maxUnavailable(d)'},
  {id: 'D23', file: 'controllers/deployment/sync.ts', rule: 'a Deployment scaled to 0 allows no surge', from: 'const allowed = d.replicas > 0 ? d.replicas + maxSurge(d) : 0', to: 'const allowed = d.replicas + maxSurge(d)'},
  {id: 'D24', file: 'controllers/deployment/sync.ts', rule: 'the rounding leftover goes to the first (largest) ReplicaSet', from: 'if (i === 0 && toAdd !== 0)', to: 'if (i === all.length - 1 && toAdd !== 0)'},
  {id: 'D25', file: 'controllers/deployment/sync.ts', rule: 'Recreate waits for old pods that are not Failed or Succeeded', from: "p.phase !== 'Failed' && p.phase !== 'Succeeded'", to: "p.phase !== 'Failed'"},
  {id: 'D26', file: 'controllers/deployment/sync.ts', rule: 'D2.5 reconcileOldReplicaSets swallows a refused scale and the sync goes on', from: 'return this.scaleDownOld(activeOld, newRS, minAvailable, maxScaledDown)\n    } catch (e) {\n      if (!(e instanceof SyncEnded)) throw e\n', to: 'return this.scaleDownOld(activeOld, newRS, minAvailable, maxScaledDown)\n    } catch (e) {\n      throw e\n'},
  {id: 'D27', file: 'controllers/deployment/sync-state.ts', rule: 'D2.4 a status write that stores nothing keeps the resourceVersion', from: 'if (sameStatus(this.stored.status, to) && this.stored.revision === revisionNow) {', to: 'if (false) {'},
  // ---- job/: the Job controller (batch semantics J…) ----
  {id: 'J01', file: 'controllers/job/sync.ts', rule: 'J8.1 the Job fails when failed > backoffLimit, not ≥', from: 'failed > job.backoffLimit ||', to: 'failed >= job.backoffLimit ||'},
  {id: 'J02', file: 'controllers/job/sync.ts', rule: 'J14.1 the final condition waits for terminating pods', from: '&& status.terminating === 0) {', to: ') {'},
  {id: 'J03', file: 'controllers/job/sync.ts', rule: 'J5.2 a failing Job counts its running pods as failed', from: "(isPodFailed(p, job) || finished?.type === 'Failed')", to: '(isPodFailed(p, job))'},
  {id: 'J04', file: 'controllers/job/sync.ts', rule: 'J4.6 an Ignored failure is not counted', from: "&& !ignored.has(p)) {\n", to: ') {\n'},
  {id: 'J05', file: 'controllers/job/manage.ts', rule: 'J6.3 no pod is created in a sync that deletes pods', from: '    return {created: 0, deleted: batch.map((x) => x.pod)}', to: '    return {created: 0, deleted: []}'},
  {id: 'J06', file: 'controllers/job/manage.ts', rule: 'J6.4 unassigned pods are deleted first', from: "return a.nodeName === '' ? -1 : 1", to: "return a.nodeName === '' ? 1 : -1"},
  {id: 'J07', file: 'controllers/job/sync.ts', rule: 'J10.4 the latest failed pod of an open index keeps its finalizer', from: 'if (!always && (!isPodFailed(p, job) || heldBack.has(p))) continue', to: 'if (!always && !isPodFailed(p, job)) continue'},
  {id: 'J08', file: 'controllers/job/sync.ts', rule: 'J13.2 suspending clears startTime', from: 'if (clearStartTime) delete status.startTime', to: ''},
  {id: 'J09', file: 'controllers/job/sync.ts', rule: 'J12 the deadline is reached at exactly activeDeadlineSeconds', from: 'if (!finished && left <= 0n)', to: 'if (!finished && left < 0n)'},
  {id: 'J10', file: 'controllers/job/failure.ts', rule: 'J8.2 the backoff doubles from 10 s', from: 'DEFAULT_POD_FAILURE_BACKOFF_S * 2 ** (n - 1)', to: 'DEFAULT_POD_FAILURE_BACKOFF_S * 2 ** n'},
  {id: 'J11', file: 'controllers/job/failure.ts', rule: 'J4.4 with podReplacementPolicy Failed a terminating pod is not failed', from: 'if (onlyReplaceFailedPods(job)) return false', to: ''},
  {id: 'J12', file: 'controllers/job/indexes.ts', rule: 'J7.4 a run of two indexes is written a,b', from: 'if (j - i >= 2)', to: 'if (j - i >= 1)'},
  {id: 'J14', file: 'controllers/job/failure.ts', rule: 'J8.3 new failures add to the remembered ones', from: 'return {failures: stored.failures + failed.length,', to: 'return {failures: failed.length,'},
  {id: 'J13', file: 'controllers/job/sync.ts', rule: 'J11.1 a succeededIndexes rule needs every listed index unless succeededCount says otherwise', from: 'if (contains === wanted.size ||', to: 'if (contains > 0 ||'},
  {id: 'J14', file: 'controllers/job/sync.ts', rule: 'J3.8 an adopted pod counts as carrying the tracking finalizer', from: 'claim.adopted.has(p.uid) || carriesFinalizer(p)', to: 'carriesFinalizer(p)'},
  {id: 'J15', file: 'controllers/job/sync.ts', rule: 'J15.4 a finished Job is deleted at exactly finish time + TTL', from: 'if (now >= expireAt) {', to: 'if (now > expireAt) {'},
  // ---- cronjob/: the CronJob controller (CJ…) ----
  {id: 'CJ01', file: 'controllers/cronjob/sync.ts', rule: 'CJ6 Jobs without startTime sort last (kept)', from: 'if (ta === undefined && tb !== undefined) return 1', to: 'if (ta === undefined && tb !== undefined) return -1'},
  {id: 'CJ02', file: 'controllers/cronjob/sync.ts', rule: 'CJ3.10 Forbid skips a run while a Job is active', from: "cj.concurrencyPolicy === 'Forbid' && active.length > 0", to: "cj.concurrencyPolicy === 'Forbid' && active.length > 1"},
  {id: 'CJ03', file: 'controllers/cronjob/sync.ts', rule: 'CJ5 the requeue is 100 ms after the schedule time', from: 'const NEXT_SCHEDULE_DELTA = 100_000_000n', to: 'const NEXT_SCHEDULE_DELTA = 0n'},
  {id: 'CJ04', file: 'controllers/cronjob/sync.ts', rule: 'CJ4 only schedule times within startingDeadlineSeconds count', from: 'if (deadline > earliest) earliest = deadline', to: ''},
  {id: 'CJ05', file: 'controllers/cronjob/cron.ts', rule: 'day-of-month and day-of-week: either, when both are restricted', from: 's.domStar || s.dowStar ? domMatch && dowMatch : domMatch || dowMatch', to: 'domMatch && dowMatch'},
  {id: 'CJ07', file: 'controllers/cronjob/sync.ts', rule: 'CJ3.12 a Job of the due name that is not the CronJob\'s stops the create', from: 'const existing = (input.namespaceJobs ?? children).find', to: 'const existing = children.find'},
  {id: 'CJ06', file: 'controllers/cronjob/cron.ts', rule: 'N/step runs to the end of the field', from: 'if (stepText !== undefined && bounds.length === 1) hi = f.max', to: ''},
  // ---- service/: the endpoint controllers (SV…) ----
  {id: 'SV01', file: 'controllers/service/planner.ts', rule: 'E11.5 a sync that fails on a missing node is retried after 1 s', from: 'if (requeueAfterError && w.now !== undefined)', to: 'if (false)'},
  {id: 'SV02', file: 'controllers/service/endpointslices.ts', rule: 'E10.3 a ready endpoint without a zone makes the topology allocator remove every hint', from: 'if (!topology.nodesKnown || !unzonedReadyWritten(written, existing, topology.desired))', to: 'if (true)'},
  {id: 'SV03', file: 'controllers/service/planner.ts', rule: 'E12.1 a leader-election record is never a leftover', from: ' && e.annotations[LEADER_ANNOTATION] === undefined)', to: ')'},
  {id: 'SV04', file: 'controllers/service/planner.ts', rule: 'E12.1 a Service outside -l still keeps its Endpoints object', from: 'leftoverEndpoints(all, snapshot.endpoints ?? [])', to: 'leftoverEndpoints(services, snapshot.endpoints ?? [])'},
  // ---- statefulset/sync.ts ----
  {id: 'SS01', file: 'controllers/statefulset/sync.ts', rule: 'S3.4 revisions are equal by their stored bytes when those are known', from: '(exact !== undefined ? storedRevisionData(r) === exact : sameTemplate(r))', to: '(sameTemplate(r))'},
  // ---- daemonset/sync.ts ----
  {id: 'DS01', file: 'controllers/daemonset/sync.ts', rule: 'DS7.2 a revision is current only when its stored bytes are getPatch\'s', from: '(exact !== undefined ? storedRevisionData(r) === exact :', to: '(false ? storedRevisionData(r) === exact :'},
  // ---- service/loadbalancer.ts: node syncs from the hosts a provider was last sent (L5) ----
  {id: 'LB01', file: 'controllers/service/loadbalancer.ts', rule: 'L5.1 a providerID change is a node event', from: "if (!now || labelledOut(now) || (now.providerID ?? '') !== (h.providerID ?? '')) return true", to: 'if (!now || labelledOut(now)) return true'},
  {id: 'LB02', file: 'controllers/service/loadbalancer.ts', rule: 'L5.3 a taint alone re-sends nothing until a node event', from: 'const update = nodeEventSince(cloud.hosts, nodes) ? hostUpdate(svc, then, nodes) : undefined', to: 'const update = hostUpdate(svc, then, nodes)'},
  {id: 'LB03', file: 'controllers/service/loadbalancer.ts', rule: 'L5.2 only a Service already ensured (finalizer and status) gets a node sync', from: 'if (!svc.finalizers.includes(LB_FINALIZER) || svc.ingress.length === 0) return {...lb, plan}', to: 'if (!svc.finalizers.includes(LB_FINALIZER)) return {...lb, plan}'},
]
