// `kctl check -o junit`: JUnit XML for CI test reports. One <testsuite> per input file, one
// <testcase> per finding (a <failure> when at or above --fail-on, otherwise a passing case with the
// finding in <system-out>), and one passing case for a file without findings.
import {atOrAbove, objectTitle, type CheckReport, type Finding} from '../model/check.js'

function xml(s: string): string {
  // Characters XML 1.0 cannot hold at all are dropped; the rest escaped.
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '').replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;'})[c]!)
}

function caseName(f: Finding): string {
  return f.kind ? `${f.rule}: ${objectTitle(f)}` : f.rule
}

/** `files`: every input file, so that clean ones show up as passing suites. */
export function renderCheckJunit(report: CheckReport, files: readonly string[]): string {
  const byFile = new Map<string, Finding[]>()
  for (const file of files) byFile.set(file, [])
  for (const f of report.findings) {
    let list = byFile.get(f.file)
    if (!list) byFile.set(f.file, (list = []))
    list.push(f)
  }
  const failOn = report.options.failOn
  let tests = 0
  let failures = 0
  const suites: string[] = []
  for (const [file, findings] of byFile) {
    const cases: string[] = []
    let suiteFailures = 0
    for (const f of findings) {
      const where = `${f.file}:${f.line}:${f.column}`
      const open = `    <testcase name="${xml(caseName(f))}" classname="${xml(file)}" file="${xml(file)}" line="${f.line}">`
      if (atOrAbove(f.severity, failOn)) {
        suiteFailures++
        cases.push(`${open}\n      <failure message="${xml(f.message)}" type="${xml(f.severity)}">${xml(`${where}: ${f.severity}: ${f.message} [${f.rule}]`)}</failure>\n    </testcase>`)
      } else {
        cases.push(`${open}\n      <system-out>${xml(`${where}: ${f.severity}: ${f.message} [${f.rule}]`)}</system-out>\n    </testcase>`)
      }
    }
    if (findings.length === 0) cases.push(`    <testcase name="no findings" classname="${xml(file)}" file="${xml(file)}"/>`)
    tests += cases.length
    failures += suiteFailures
    suites.push(`  <testsuite name="${xml(file)}" tests="${cases.length}" failures="${suiteFailures}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>`)
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kctl check" tests="${tests}" failures="${failures}" errors="0">\n${suites.join('\n')}\n</testsuites>\n`
}
