// V8's optimising compiler, told to inline less. A kctl run is short (a second or two) and its hot
// code is a few large loops over every object read, which V8 optimises while they run (on-stack
// replacement), inlining what they call: with V8's default limits, compiling those loops on a
// second thread took about a third of `kctl check`'s CPU on 50,000 objects. Smaller inlining limits
// cut `check`'s CPU by about 10% and `plan`'s by about 4%, and neither's wall time grew
// (bench/check.mjs, bench/workloads.mjs). Results never depend on what V8 inlines.
//
// Set at every start before the bundle is compiled (start.ts): V8 keys its code cache to its flags
// (script-cache.ts), so a run that set them after loading the cache would refuse the next run's.
import {createRequire} from 'node:module'

const require = createRequire(import.meta.url)

/** The flags, as `node` takes them on its command line. */
export const COMPILER_FLAGS = ['--max-inlined-bytecode-size=60', '--max-inlined-bytecode-size-cumulative=200']

export function tuneCompiler(): void {
  const {setFlagsFromString} = require('node:v8') as typeof import('node:v8')
  for (const flag of COMPILER_FLAGS) setFlagsFromString(flag)
}
