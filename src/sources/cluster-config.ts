// Kubeconfig as kubectl reads it (clientcmd's loading rules), on top of client-node's parser:
//   --kubeconfig FILE           exactly that file (it must exist);
//   KUBECONFIG=a:b:c            every listed file that exists, merged: the first file to set a
//                               value wins (current-context included), duplicates are not errors;
//   otherwise ~/.kube/config.
// client-node's own loadFromDefault differs on each of these points (last context wins,
// duplicates throw, missing files throw, silent fallback to localhost:8080).
import {existsSync} from 'node:fs'
import {homedir} from 'node:os'
import {delimiter, join} from 'node:path'

import type {KubeConfig} from '@kubernetes/client-node'

import {UserError} from '../errors.js'

export interface KubeconfigRequest {
  kubeconfig?: string
  context?: string
  env?: NodeJS.ProcessEnv
}

export interface ResolvedConfig {
  kc: KubeConfig
  context: string
  server: string
  /** The context's namespace, or "default". */
  namespace: string
  files: string[]
}

export async function loadKubeconfig(req: KubeconfigRequest): Promise<ResolvedConfig> {
  const env = req.env ?? process.env
  const files = kubeconfigFiles(req.kubeconfig, env)
  const {KubeConfig} = await import('@kubernetes/client-node')
  const merged = {clusters: [] as any[], users: [] as any[], contexts: [] as any[], currentContext: ''}
  for (const file of files) {
    const one = new KubeConfig()
    try {
      one.loadFromFile(file)
    } catch (error) {
      throw new UserError(`cannot read kubeconfig ${file}: ${firstLine(error)}`, {hint: 'fix the file or point --kubeconfig elsewhere', cause: error})
    }
    addMissing(merged.clusters, one.clusters)
    addMissing(merged.users, one.users)
    addMissing(merged.contexts, one.contexts)
    if (!merged.currentContext && one.currentContext) merged.currentContext = one.currentContext
  }
  const context = req.context ?? merged.currentContext
  if (!context) {
    throw new UserError(`no current context in ${files.join(', ')}`, {hint: 'pass --context NAME or run kubectl config use-context'})
  }
  const ctx = merged.contexts.find((c) => c.name === context)
  if (!ctx) {
    const known = merged.contexts.map((c) => c.name).join(', ') || 'none'
    throw new UserError(`context "${context}" not found in ${files.join(', ')}`, {hint: `known contexts: ${known}`})
  }
  const cluster = merged.clusters.find((c) => c.name === ctx.cluster)
  if (!cluster) throw new UserError(`context "${context}" names cluster "${ctx.cluster}", which is not in the kubeconfig`)
  if (!merged.users.find((u) => u.name === ctx.user) && ctx.user) {
    throw new UserError(`context "${context}" names user "${ctx.user}", which is not in the kubeconfig`)
  }
  const kc = new KubeConfig()
  kc.loadFromOptions({...merged, currentContext: context})
  return {kc, context, server: cluster.server, namespace: ctx.namespace || 'default', files}
}

function kubeconfigFiles(flag: string | undefined, env: NodeJS.ProcessEnv): string[] {
  if (flag) {
    if (!existsSync(flag)) throw new UserError(`kubeconfig ${flag} does not exist`, {hint: 'check --kubeconfig'})
    return [flag]
  }
  if (env.KUBECONFIG) {
    const files = env.KUBECONFIG.split(delimiter).filter((f) => f !== '' && existsSync(f))
    if (files.length === 0) {
      throw new UserError(`none of the files in KUBECONFIG exist (${env.KUBECONFIG})`, {hint: 'set KUBECONFIG, pass --kubeconfig, or read fixtures with -f'})
    }
    return [...new Set(files)]
  }
  const home = env.HOME ?? homedir()
  const file = join(home, '.kube', 'config')
  if (!existsSync(file)) {
    throw new UserError('no kubeconfig found (KUBECONFIG is unset and ~/.kube/config does not exist)', {
      hint: 'pass --kubeconfig, set KUBECONFIG, or read fixtures with -f',
    })
  }
  return [file]
}

function addMissing(into: {name: string}[], from: readonly {name: string}[]): void {
  for (const entry of from) if (!into.some((e) => e.name === entry.name)) into.push(entry)
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]
}
