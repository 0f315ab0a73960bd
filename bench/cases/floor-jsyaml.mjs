// Reference: js-yaml 4 loadAll with its default schema (reading the file is not timed).
import {readFileSync} from 'node:fs'
import {loadAll} from 'js-yaml'

const text = readFileSync(process.argv[2], 'utf8')
const t0 = performance.now()
let docs = 0
loadAll(text, () => docs++)
const ms = performance.now() - t0
console.log(JSON.stringify({ms, docs}))
