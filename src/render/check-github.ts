// `kctl check -o github`: GitHub Actions workflow commands, one per finding, which the runner turns
// into annotations on the pull request's files: `::error file=…,line=…,col=…,title=…::message`
// (info findings become notices).
import {objectTitle, type CheckReport, type Severity} from '../model/check.js'

const COMMAND: Record<Severity, string> = {error: 'error', warning: 'warning', info: 'notice'}

/** Escaping of the message part of a workflow command. */
function data(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** Escaping of a property value (also `:` and `,`, which separate properties). */
function property(s: string): string {
  return data(s).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

export function renderCheckGithub(report: CheckReport): string {
  return report.findings
    .map((f) => {
      const props = `file=${property(f.file)},line=${f.line},col=${f.column},title=${property(`kctl ${f.rule}`)}`
      const object = f.kind ? `${objectTitle(f)}: ` : ''
      return `::${COMMAND[f.severity]} ${props}::${data(`${object}${f.message}`)}\n`
    })
    .join('')
}
