// Floor: JSON.parse of the whole file (reading it is not timed).
import {readFileSync} from 'node:fs'

const text = readFileSync(process.argv[2], 'utf8')
const t0 = performance.now()
const value = JSON.parse(text)
const ms = performance.now() - t0
console.log(JSON.stringify({ms, items: value.items?.length}))
