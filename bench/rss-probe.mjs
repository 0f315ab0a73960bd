// Loaded into every measured process with NODE_OPTIONS=--import: records the process's peak RSS
// (getrusage ru_maxrss, in KiB) into the file named by KCTL_BENCH_RSS_FILE when it exits.
import {writeFileSync} from 'node:fs'

const file = process.env.KCTL_BENCH_RSS_FILE
if (file) {
  process.on('exit', () => {
    try {
      writeFileSync(file, String(process.resourceUsage().maxRSS))
    } catch {
      // the measurement is lost, not the run
    }
  })
}
