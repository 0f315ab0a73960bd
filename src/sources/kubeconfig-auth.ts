// A context's TLS material and credentials, set on each request's options as client-node's
// KubeConfig.applyToHTTPSOptions sets them: CA, client certificate and key (files read on each
// request, or inline data), insecure-skip-tls-verify, tls-server-name, Impersonate-User, a bearer
// token, basic auth, and exec credential plugins (client.authentication.k8s.io: the command run,
// its answer kept until its expirationTimestamp). The rarer cases client-node also handles, an
// auth-provider (gcp, azure, oidc, a token file) or a proxy-url, are handed to client-node itself,
// imported only then.
import {spawn} from 'node:child_process'
import {readFileSync} from 'node:fs'
import http from 'node:http'
import https from 'node:https'

import type {KubeConfig} from '@kubernetes/client-node'

import type {ClusterEntry, KubeconfigEntries, UserEntry} from './cluster-config.js'

/** What an exec plugin answers (an ExecCredential); only `status` is read. */
interface ExecCredential {
  status: {token?: string; clientCertificateData?: string; clientKeyData?: string; expirationTimestamp?: string}
}

export class Credentials {
  /** client-node, for an auth-provider or a proxy-url. */
  private delegate?: Promise<KubeConfig>
  /** Exec plugins' answers, by user name (client-node's ExecAuth.tokenCache). */
  private readonly execCache: Record<string, ExecCredential | null> = {}

  constructor(
    private readonly entries: KubeconfigEntries,
    private readonly cluster: ClusterEntry,
    private readonly user: UserEntry | undefined,
  ) {}

  /** Sets TLS options, headers and a new agent on `opts`; throws client-node's messages. */
  async apply(opts: https.RequestOptions): Promise<void> {
    const {cluster, user} = this
    if ((user && user.authProvider) || cluster.proxyUrl) {
      this.delegate ??= import('@kubernetes/client-node').then(({KubeConfig}) => {
        const kc = new KubeConfig()
        kc.loadFromOptions(this.entries)
        return kc
      })
      return (await this.delegate).applyToHTTPSOptions(opts)
    }
    if (user) {
      // KubeConfig.applyHTTPSOptions: nothing of the cluster's applies to a context without a user.
      if (cluster.skipTLSVerify) opts.rejectUnauthorized = false
      if (cluster.tlsServerName) opts.servername = cluster.tlsServerName
      const ca = bufferFromFileOrString(cluster.caFile, cluster.caData)
      if (ca) opts.ca = ca
      const cert = bufferFromFileOrString(user.certFile, user.certData)
      if (cert) opts.cert = cert
      const key = bufferFromFileOrString(user.keyFile, user.keyData)
      if (key) opts.key = key
      const headers = (opts.headers ??= {}) as http.OutgoingHttpHeaders
      if (user.impersonateUser != null) headers['Impersonate-User'] = user.impersonateUser
      // applyAuthorizationHeader: the exec plugin's answer, then the kubeconfig's token over it.
      if (user.exec) await this.applyExec(user, opts, headers)
      if (user.token) headers.Authorization = `Bearer ${user.token}`
      if (user.username) opts.auth = `${user.username}:${user.password}`
    }
    const agentOptions: https.AgentOptions = {ca: opts.ca, cert: opts.cert, key: opts.key, servername: opts.servername}
    if (opts.rejectUnauthorized !== undefined) agentOptions.rejectUnauthorized = opts.rejectUnauthorized
    // KubeConfig.createAgent
    if (cluster.server.startsWith('http:')) {
      if (!cluster.skipTLSVerify) throw new Error('HTTP protocol is not allowed when skipTLSVerify is not set or false')
      opts.agent = new http.Agent(agentOptions)
    } else {
      opts.agent = new https.Agent(agentOptions)
    }
  }

  // client-node's ExecAuth.applyAuthentication
  private async applyExec(user: UserEntry, opts: https.RequestOptions, headers: http.OutgoingHttpHeaders): Promise<void> {
    const credential = await this.execCredential(user)
    if (!credential) return
    if (credential.status.clientCertificateData) opts.cert = credential.status.clientCertificateData
    if (credential.status.clientKeyData) opts.key = credential.status.clientKeyData
    const token = credential.status.token
    if (token) headers.Authorization = `Bearer ${token}`
  }

  // client-node's ExecAuth.getCredential: the property reads are its own, so a bad plugin or
  // answer fails with the same message.
  private execCredential(user: UserEntry): Promise<ExecCredential | null> {
    const cached = this.execCache[user.name]
    if (cached) {
      if (Date.parse(cached.status.expirationTimestamp!) > Date.now()) return Promise.resolve(cached)
      this.execCache[user.name] = null
    }
    const exec = user.exec
    if (!exec) return Promise.resolve(null)
    if (!exec.command) return Promise.reject(new Error('No command was specified for exec authProvider!'))
    let env: NodeJS.ProcessEnv | undefined
    if (exec.env) {
      env = {...process.env}
      exec.env.forEach((elt: {name: string; value: string}) => (env![elt.name] = elt.value))
    }
    return new Promise((resolve, reject) => {
      let stdout = ''
      let stderr = ''
      let failed: Error | undefined
      const child = spawn(exec.command, exec.args, env ? {env} : {})
      child.stdout.setEncoding('utf8')
      child.stderr.setEncoding('utf8')
      child.stdout.on('data', (data: string) => (stdout += data))
      child.stderr.on('data', (data: string) => (stderr += data))
      child.on('error', (error) => (failed = error))
      child.on('close', (code) => {
        if (failed) return reject(failed)
        if (code !== 0) return reject(new Error(stderr))
        try {
          const credential = JSON.parse(stdout) as ExecCredential
          this.execCache[user.name] = credential
          resolve(credential)
        } catch (error) {
          reject(error)
        }
      })
    })
  }
}

/** The file's bytes, else the base64 data decoded, else null (client-node's bufferFromFileOrString). */
function bufferFromFileOrString(file?: string | null, data?: string | null): Buffer | null {
  if (file) return readFileSync(file)
  if (data) return Buffer.from(data, 'base64')
  return null
}
