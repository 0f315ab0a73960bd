// V8's optimising compiler, told to inline less. A kctl run is short (a second or two) and its hot
// code is a few large loops over every object read, which V8 optimises while they run (on-stack
// replacement), inlining what they call: with V8's default limits, compiling those loops on a
// second thread took about a third of `kctl check`'s CPU on 50,000 objects. Smaller inlining limits
// cut `check`'s CPU by 10–12% and `plan`'s by 4–6%, and neither's wall time grew
// (bench/check.mjs, bench/workloads.mjs). Results never depend on what V8 inlines.
//
// When: as a command starts (cli/base.ts), once its modules are loaded. Node's built-in modules
// carry compiled code that V8 refuses once any flag differs, and a start loads some eighty of them
// (oclif's, node:crypto, node:zlib): tuned before them, every start compiled them again (about
// 7 ms). V8 keys kctl's own code cache to its flags too, so the cache is written with the defaults
// put back (script-cache.ts), as they are when the next run reads it.
import {createRequire} from 'node:module'

const require = createRequire(import.meta.url)

/** Each flag tuned: its value for kctl, and V8's default (`node --v8-options`). */
export const COMPILER_FLAGS = [
  {flag: '--max-inlined-bytecode-size', tuned: 60, v8Default: 460},
  {flag: '--max-inlined-bytecode-size-cumulative', tuned: 200, v8Default: 920},
] as const

export function tuneCompiler(): void {
  setFlags('tuned')
}

/** V8's defaults again, for a code cache that the next run, not yet tuned, takes. */
export function restoreCompilerDefaults(): void {
  setFlags('v8Default')
}

function setFlags(value: 'tuned' | 'v8Default'): void {
  const {setFlagsFromString} = require('node:v8') as typeof import('node:v8')
  for (const f of COMPILER_FLAGS) setFlagsFromString(`${f.flag}=${f[value]}`)
}
