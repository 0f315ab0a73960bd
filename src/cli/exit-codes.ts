// The one exit-code table for every command (docs/output.md, "Exit codes").
export const ExitCode = {
  /** In sync, no findings, apply completed. */
  Ok: 0,
  /** Any error: bad input, unreachable cluster, 403, usage errors. Never 2 for an error. */
  Error: 1,
  /** Changes pending: `--detailed-exitcode` on `plan`, and `reconcile` without `--apply`. */
  ChangesPending: 2,
  /** `check` found something at or above `--fail-on`. */
  Findings: 3,
  /** `simulate --detailed-exitcode`: a rollout that does not complete (deadline exceeded, stalled, or a bound broken). */
  RolloutIncomplete: 3,
  /** `reconcile` refused: the saved plan is stale or a precondition failed. */
  Refused: 4,
  /** Interrupted (SIGINT); what was already done is reported. */
  Interrupted: 130,
} as const

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]
