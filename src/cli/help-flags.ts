// Whether a run asks for help, as oclif decides it (helpAddition): a help flag before any `--`,
// after which every word is the command's own. Kept free of oclif so that start.ts can ask it
// before oclif is loaded.

/** The flags that ask for help: `--help` and the package's `oclif.additionalHelpFlags`. */
export function helpFlagsOf(additional: readonly string[] | undefined): string[] {
  return ['--help', ...(additional ?? [])]
}

/** True when a help flag comes before the first `--` of `argv`. */
export function asksForHelp(argv: readonly string[], helpFlags: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false
    if (helpFlags.includes(arg)) return true
  }
  return false
}
