// Floor: the `yaml` package's streaming Parser + Composer over the whole stream, each document
// turned into plain JS (toJS) and dropped (reading the file is not timed). parseAllDocuments is
// slower still and needs several GB here.
import {readFileSync} from 'node:fs'
import {Composer, Parser} from 'yaml'

const text = readFileSync(process.argv[2], 'utf8')
const t0 = performance.now()
let docs = 0
const composer = new Composer()
for (const doc of composer.compose(new Parser().parse(text))) {
  doc.toJS()
  docs++
}
for (const doc of composer.end()) {
  doc.toJS()
  docs++
}
const ms = performance.now() - t0
console.log(JSON.stringify({ms, docs}))
