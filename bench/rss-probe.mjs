// Loaded into every measured process with NODE_OPTIONS=--import: records the process's peak RSS
// (getrusage ru_maxrss, in KiB) into the file named by KCTL_BENCH_RSS_FILE when it exits, and its
// CPU time (user and system, in seconds) into KCTL_BENCH_CPU_FILE when that is set.
import {writeFileSync} from 'node:fs'

const file = process.env.KCTL_BENCH_RSS_FILE
const cpuFile = process.env.KCTL_BENCH_CPU_FILE
if (file || cpuFile) {
  process.on('exit', () => {
    try {
      const usage = process.resourceUsage()
      if (file) writeFileSync(file, String(usage.maxRSS))
      if (cpuFile) writeFileSync(cpuFile, String((usage.userCPUTime + usage.systemCPUTime) / 1e6))
    } catch {
      // the measurement is lost, not the run
    }
  })
}
