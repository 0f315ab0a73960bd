// Everything the installed CLI runs, as one script (scripts/bundle.mjs): the entry point, and each
// command and hook loaded the first time oclif asks for it. Only the Kubernetes client and the
// `yaml` package stay outside, loaded when a run needs them.
export {run} from './main.js'

export const commands = {
  check: () => import('../commands/check.js'),
  list: () => import('../commands/list.js'),
  plan: () => import('../commands/plan.js'),
  reconcile: () => import('../commands/reconcile.js'),
  simulate: () => import('../commands/simulate.js'),
  version: () => import('../commands/version.js'),
  watch: () => import('../commands/watch.js'),
}

export const hooks = {
  init: () => import('../hooks/init.js'),
  'command-not-found': () => import('../hooks/command-not-found.js'),
}
