#!/usr/bin/env -S node --import tsx
import {run} from '../src/cli/main.ts'

await run(process.argv.slice(2), import.meta.url, {development: true})
