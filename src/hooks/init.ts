import type {Hook} from '@oclif/core'
import chalk from 'chalk'

// chalk ignores NO_COLOR; kctl honours it (and --no-color, which chalk reads from argv itself).
const hook: Hook.Init = async function () {
  if (process.env.NO_COLOR) chalk.level = 0
}

export default hook
