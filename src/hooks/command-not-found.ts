import type {Hook} from '@oclif/core'

import {closest} from '../closest.js'
import {UserError} from '../errors.js'

// `kctl plna`: one line naming the command meant, instead of oclif's bare "not found".
const hook: Hook.CommandNotFound = async function (opts) {
  const near = closest(opts.id, opts.config.commandIDs)
  throw new UserError(`unknown command "${opts.id}"`, {hint: near ? `did you mean kctl ${near}? kctl --help lists the commands` : 'kctl --help lists the commands'})
}

export default hook
