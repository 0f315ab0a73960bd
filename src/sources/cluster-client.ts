// A small raw client for the API server: JSON in, plain JSON out (no typed deserialization, so
// objects read live are byte-for-byte what `kubectl get -o json` exports), with kubeconfig auth
// (kubeconfig-auth.ts), a timeout on every request, and errors turned into one clear line.
import http from 'node:http'
import https from 'node:https'

import {UserError} from '../errors.js'
import type {ResolvedConfig} from './cluster-config.js'

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT'
  query?: Record<string, string | number | boolean | undefined>
  body?: unknown
  /** A body already serialized (sent byte for byte instead of `body`). */
  rawBody?: string
  contentType?: string
  /** Verb and resource in words, for error lines: "list pods in namespace default". */
  what: string
  /** Given the bytes of a 2xx answer once they are parsed (to parse them again if ever needed). */
  onBytes?: (bytes: Buffer) => void
}

export interface ApiStatus {
  code: number
  reason?: string
  message?: string
  details?: unknown
}

/** A non-2xx answer from the API server, kept whole so callers can branch on code and reason. */
export class ApiError extends UserError {
  readonly status: ApiStatus
  constructor(status: ApiStatus, line: string, hint?: string) {
    super(line, {hint})
    this.name = 'ApiError'
    this.status = status
  }
}

export interface ListResult {
  items: Record<string, unknown>[]
  resourceVersion: string
  pages: number
}

export interface ListOptions {
  what: string
  labelSelector?: string
  fieldSelector?: string
  limit?: number
  /** Each page's items (and bytes) as it arrives, instead of all of them at the end (`items` is then empty). */
  onPage?: (items: Record<string, unknown>[], bytes: Buffer) => void
  /** The list starts over (an expired continue token): the pages given so far are not part of it. */
  onRestart?: () => void
}

export class ClusterClient {
  /** One connection pool per client (see request()). */
  private agent?: http.Agent

  constructor(
    readonly config: ResolvedConfig,
    private readonly timeoutMs = 30_000,
  ) {}

  get server(): string {
    return this.config.server
  }

  async request<T = unknown>(path: string, opts: RequestOptions): Promise<T> {
    const url = new URL(path, this.config.server.endsWith('/') ? this.config.server : `${this.config.server}/`)
    url.pathname = joinPath(new URL(this.config.server).pathname, path)
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v))
    const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body))
    const options: https.RequestOptions = {
      method: opts.method ?? 'GET',
      headers: {
        Accept: 'application/json',
        'User-Agent': 'kctl',
        ...(body === undefined ? {} : {'Content-Type': opts.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(body)}),
      },
    }
    try {
      await this.config.credentials.apply(options)
    } catch (error) {
      throw new UserError(`cannot get credentials for context "${this.config.context}": ${firstLine(error)}`, {cause: error})
    }
    // Credentials.apply builds a new Agent on every call, so every call would open (and TLS-handshake) its
    // own connection; keep the first one, kept alive, for the client's life (reconcile sends
    // hundreds of calls). Free sockets are unref'd by Node, so they never hold the process open.
    if (options.agent instanceof http.Agent) {
      this.agent ??= Object.assign(options.agent, {keepAlive: true})
      options.agent = this.agent
    }
    const {status, bytes} = await this.send(url, options, body)
    const text = bytes.toString('utf8')
    if (status >= 200 && status < 300) {
      const value = (text ? JSON.parse(text) : undefined) as T
      opts.onBytes?.(bytes)
      return value
    }
    throw this.failure(status, text, opts.what)
  }

  /** Every item of a collection, page by page; restarts once per expired continue token. */
  async list(path: string, opts: ListOptions): Promise<ListResult> {
    const limit = opts.limit ?? 500
    type Page = {items?: Record<string, unknown>[]; metadata?: {continue?: string; resourceVersion?: string}}
    const fetch = (token: string | undefined) => {
      let bytes: Buffer | undefined
      const page = this.request<Page>(path, {
        what: opts.what,
        query: {limit, continue: token, labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector},
        onBytes: (b) => (bytes = b),
      }).then((value) => ({value, bytes: bytes!}))
      page.catch(() => {}) // awaited below, unless a page before it failed
      return page
    }
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) opts.onRestart?.()
      const items: Record<string, unknown>[] = []
      let token: string | undefined
      let resourceVersion = ''
      let pages = 0
      try {
        let next = fetch(undefined)
        do {
          const {value: page, bytes} = await next
          pages++
          token = page.metadata?.continue || undefined
          if (pages === 1) resourceVersion = page.metadata?.resourceVersion ?? ''
          // The server prepares the next page while this one is handed over.
          if (token) next = fetch(token)
          if (opts.onPage) opts.onPage(page.items ?? [], bytes)
          else for (const item of page.items ?? []) items.push(item)
        } while (token)
        return {items, resourceVersion, pages}
      } catch (error) {
        // 410 Expired on a continue token: a consistent plan needs one snapshot, so list again.
        const expired = error instanceof ApiError && error.status.code === 410 && token !== undefined
        if (!expired || attempt >= 2) throw error
      }
    }
  }

  private send(url: URL, options: https.RequestOptions, body: string | undefined): Promise<{status: number; bytes: Buffer}> {
    const transport = url.protocol === 'http:' ? http : https
    return new Promise((resolve, reject) => {
      const req = transport.request(url, options, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({status: res.statusCode ?? 0, bytes: Buffer.concat(chunks)}))
        res.on('error', (e) => reject(this.unreachable(e)))
      })
      req.setTimeout(this.timeoutMs, () => {
        req.destroy(
          new UserError(`the API server at ${this.server} did not answer within ${Math.round(this.timeoutMs / 1000)} s`, {
            hint: `is context "${this.config.context}" the right cluster?`,
          }),
        )
      })
      req.on('error', (e) => reject(e instanceof UserError ? e : this.unreachable(e)))
      if (body !== undefined) req.write(body)
      req.end()
    })
  }

  /** A connection failure as the one line users see. */
  unreachable(error: Error & {code?: string}): UserError {
    const why = error.code ? `${error.code}${error.message.includes(error.code) ? '' : `: ${error.message}`}` : error.message
    return new UserError(`cannot reach the API server at ${this.server} (context "${this.config.context}"): ${firstLine(why)}`, {
      hint: 'is the cluster running? check --context and --kubeconfig',
      cause: error,
    })
  }

  /** A non-2xx answer as the one line users see (an ApiError keeping code and reason). */
  failure(code: number, text: string, what: string): ApiError {
    let status: ApiStatus = {code}
    try {
      const parsed = JSON.parse(text)
      if (parsed && typeof parsed === 'object' && parsed.kind === 'Status') status = {code, reason: parsed.reason, message: parsed.message, details: parsed.details}
    } catch {
      status = {code, message: text.slice(0, 200)}
    }
    const message = status.message ?? text.slice(0, 200)
    switch (code) {
      case 401:
        return new ApiError(status, `the API server at ${this.server} rejected the credentials of context "${this.config.context}" (401 Unauthorized) while trying to ${what}`, 'refresh the credentials in your kubeconfig')
      case 403:
        return new ApiError(status, `forbidden (403) to ${what}: ${message}`, 'ask for RBAC access to this verb and resource, or use another --context')
      default:
        return new ApiError(status, `the API server refused to ${what}: ${code}${status.reason ? ` ${status.reason}` : ''}: ${message}`)
    }
  }
}

function joinPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}

function firstLine(value: unknown): string {
  return (value instanceof Error ? value.message : String(value)).split('\n')[0]
}
