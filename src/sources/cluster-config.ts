// Kubeconfig as kubectl reads it (clientcmd's loading rules):
//   --kubeconfig FILE           exactly that file (it must exist);
//   KUBECONFIG=a:b:c            every listed file that exists, merged: the first file to set a
//                               value wins (current-context included), duplicates are not errors;
//   otherwise ~/.kube/config.
// Each file is read here, without @kubernetes/client-node (importing it costs ~0.5 s of CPU, most
// of a small live run), into the same entries client-node's KubeConfig keeps, with the same
// checks and error messages (js-yaml parses the file, as in client-node). Requests are then
// authenticated as client-node's applyToHTTPSOptions does (kubeconfig-auth.ts).
import {existsSync, readFileSync} from 'node:fs'
import {homedir} from 'node:os'
import {delimiter, dirname, isAbsolute, join} from 'node:path'

import {load} from 'js-yaml'

import {UserError} from '../errors.js'
import {Credentials} from './kubeconfig-auth.js'

export interface KubeconfigRequest {
  kubeconfig?: string
  context?: string
  env?: NodeJS.ProcessEnv
}

/** A cluster entry, as client-node's KubeConfig keeps it. */
export interface ClusterEntry {
  name: string
  server: string
  caData?: string
  caFile?: string
  skipTLSVerify: boolean
  tlsServerName?: string
  proxyUrl?: string
}

/** A user entry, as client-node's KubeConfig keeps it. */
export interface UserEntry {
  name: string
  authProvider?: any
  certData?: string | null
  certFile?: string | null
  exec?: any
  keyData?: string | null
  keyFile?: string | null
  token?: string
  password?: string | null
  username?: string | null
  impersonateUser?: string | null
}

/** A context entry, as client-node's KubeConfig keeps it. */
export interface ContextEntry {
  name: string
  cluster: string
  user?: string
  namespace?: string
}

export interface KubeconfigEntries {
  clusters: ClusterEntry[]
  users: UserEntry[]
  contexts: ContextEntry[]
  currentContext: string
}

export interface ResolvedConfig {
  /** TLS material and credentials of the context, applied to each request. */
  credentials: Credentials
  context: string
  server: string
  /** The context's namespace, or "default". */
  namespace: string
  files: string[]
}

export async function loadKubeconfig(req: KubeconfigRequest): Promise<ResolvedConfig> {
  const env = req.env ?? process.env
  const files = kubeconfigFiles(req.kubeconfig, env)
  const merged: KubeconfigEntries = {clusters: [], users: [], contexts: [], currentContext: ''}
  for (const file of files) {
    let one: KubeconfigEntries
    try {
      one = readKubeconfigFile(file)
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
  const user = merged.users.find((u) => u.name === ctx.user)
  if (!user && ctx.user) {
    throw new UserError(`context "${context}" names user "${ctx.user}", which is not in the kubeconfig`)
  }
  const credentials = new Credentials({...merged, currentContext: context}, cluster, user)
  return {credentials, context, server: cluster.server, namespace: ctx.namespace || 'default', files}
}

/**
 * One kubeconfig file's entries (client-node's KubeConfig.loadFromFile): each entry checked as it
 * checks them, a user's token-file read now, and relative certificate and key files taken from the
 * file's directory. Throws client-node's messages.
 */
export function readKubeconfigFile(file: string): KubeconfigEntries {
  const obj = load(readFileSync(file).toString('utf-8')) as any
  const clusters = entries(obj.clusters, clusterEntry)
  const contexts = entries(obj.contexts, contextEntry)
  const users = entries(obj.users, userEntry)
  const currentContext = obj['current-context']
  const root = dirname(file)
  for (const cluster of clusters) if (cluster.caFile) cluster.caFile = absolute(root, cluster.caFile)
  for (const user of users) {
    if (user.certFile) user.certFile = absolute(root, user.certFile)
    if (user.keyFile) user.keyFile = absolute(root, user.keyFile)
  }
  return {clusters, users, contexts, currentContext}
}

function entries<T>(list: unknown, entry: (elt: any, i: number) => T): T[] {
  return Array.isArray(list) ? list.map((elt, i) => entry(elt, i)) : []
}

// client-node's clusterIterator, userIterator and contextIterator (config_types.ts): the property
// reads below are theirs, so a malformed entry fails with the same message.
function clusterEntry(elt: any, i: number): ClusterEntry {
  if (!elt.name) throw new Error(`clusters[${i}].name is missing`)
  if (!elt.cluster) throw new Error(`clusters[${i}].cluster is missing`)
  if (!elt.cluster.server) throw new Error(`clusters[${i}].cluster.server is missing`)
  return {
    caData: elt.cluster['certificate-authority-data'],
    caFile: elt.cluster['certificate-authority'],
    name: elt.name,
    server: elt.cluster.server.replace(/\/$/, ''),
    skipTLSVerify: elt.cluster['insecure-skip-tls-verify'] === true,
    tlsServerName: elt.cluster['tls-server-name'],
    proxyUrl: elt.cluster['proxy-url'],
  }
}

function userEntry(elt: any, i: number): UserEntry {
  if (!elt.name) throw new Error(`users[${i}].name is missing`)
  return {
    authProvider: elt.user ? elt.user['auth-provider'] : null,
    certData: elt.user ? elt.user['client-certificate-data'] : null,
    certFile: elt.user ? elt.user['client-certificate'] : null,
    exec: elt.user ? elt.user.exec : null,
    keyData: elt.user ? elt.user['client-key-data'] : null,
    keyFile: elt.user ? elt.user['client-key'] : null,
    name: elt.name,
    token: findToken(elt.user),
    password: elt.user ? elt.user.password : null,
    username: elt.user ? elt.user.username : null,
    impersonateUser: elt.user ? elt.user.as : null,
  }
}

/** The user's token, or the text of its token-file (read from the working directory, as client-node does). */
function findToken(user: any): string | undefined {
  if (user) {
    if (user.token) return user.token
    if (user['token-file']) return readFileSync(user['token-file']).toString()
  }
  return undefined
}

function contextEntry(elt: any, i: number): ContextEntry {
  if (!elt.name) throw new Error(`contexts[${i}].name is missing`)
  if (!elt.context) throw new Error(`contexts[${i}].context is missing`)
  if (!elt.context.cluster) throw new Error(`contexts[${i}].context.cluster is missing`)
  return {
    cluster: elt.context.cluster,
    name: elt.name,
    user: elt.context.user || undefined,
    namespace: elt.context.namespace || undefined,
  }
}

function absolute(root: string, file: string): string {
  return !root || isAbsolute(file) ? file : join(root, file)
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
