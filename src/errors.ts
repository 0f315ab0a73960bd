// Three kinds of error. Each maps to one exit code (cli/exit-codes.ts) and prints as one line;
// KCTL_DEBUG=1 adds the stack.
import type {Origin} from './model/objects.js'

/** Something the user can fix: bad input, a missing context, a 403. One line, a place, a hint. */
export class UserError extends Error {
  readonly origin?: Origin
  readonly hint?: string
  /** The error is about the file as a whole (it is missing, unreadable): name it without a position. */
  readonly wholeFile: boolean
  constructor(message: string, opts: {origin?: Origin; hint?: string; cause?: unknown; wholeFile?: boolean} = {}) {
    super(message, {cause: opts.cause})
    this.name = 'UserError'
    this.origin = opts.origin
    this.hint = opts.hint
    this.wholeFile = opts.wholeFile ?? false
  }

  /** `file:line:col: message (hint)` — the one line the user sees. */
  get line(): string {
    const where = this.origin ? `${this.wholeFile ? this.origin.file : formatOrigin(this.origin)}: ` : ''
    const hint = this.hint ? ` (${this.hint})` : ''
    return `${where}${this.message}${hint}`
  }
}

/** A saved plan no longer matches the world; nothing was done. */
export class StalePlanError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StalePlanError'
  }
}

/** A bug in kctl: says so, rather than blaming the input. */
export class InternalError extends Error {
  constructor(message: string, opts: {cause?: unknown} = {}) {
    super(message, {cause: opts.cause})
    this.name = 'InternalError'
  }
}

export function formatOrigin(origin: Origin): string {
  return `${origin.file}:${origin.line}:${origin.column}`
}
