// slowStartBatch (pkg/controller/replicaset/replica_set.go) and SlowStartInitialBatchSize
// (controller_utils.go): creates go out in batches of 1, 2, 4, 8, … capped by what remains; every
// call of a batch runs at once, and after a batch with any failure no further batch is tried.
export const SLOW_START_INITIAL_BATCH_SIZE = 1

/** The batch sizes for n creates when every call succeeds. */
export function slowStartBatches(n: number, initial = SLOW_START_INITIAL_BATCH_SIZE): number[] {
  const batches: number[] = []
  let remaining = n
  for (let size = Math.min(remaining, initial); size > 0; size = Math.min(2 * size, remaining)) {
    batches.push(size)
    remaining -= size
  }
  return batches
}

export interface SlowStartOutcome {
  /** Calls that succeeded. */
  successes: number
  /** The batches actually sent. */
  batches: number[]
  /** n − successes: never attempted plus failed; the controller lowers its expectations by this. */
  skipped: number
}

/** Runs `call` (told its 1-based batch) in slow-start batches; stops after the first batch with a failure. */
export async function slowStart(n: number, call: (batch: number) => Promise<boolean>, initial = SLOW_START_INITIAL_BATCH_SIZE): Promise<SlowStartOutcome> {
  let successes = 0
  const batches: number[] = []
  for (const size of slowStartBatches(n, initial)) {
    batches.push(size)
    const batch = batches.length
    const results = await Promise.all(Array.from({length: size}, () => call(batch)))
    const ok = results.filter(Boolean).length
    successes += ok
    if (ok < size) break
  }
  return {successes, batches, skipped: n - successes}
}
