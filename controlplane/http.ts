// A minimal HTTPS/HTTP client for talking to the local kube-apiserver and etcd: node:https/node:http only, so the
// harness has no dependency beyond Node itself.
import http from 'node:http'
import https from 'node:https'

export interface HttpResponse {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
  /** `body` parsed as JSON, or undefined if it isn't JSON. */
  json: any
}

export interface RequestOptions {
  method?: string
  /** Object bodies are sent as JSON. */
  body?: unknown
  contentType?: string
  token?: string
  /** PEM CA bundle to verify the server with; without it TLS verification is off (readiness probes only). */
  ca?: string | Buffer
  timeoutMs?: number
  headers?: Record<string, string>
}

export function request(url: string, opts: RequestOptions = {}): Promise<HttpResponse> {
  const u = new URL(url)
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)
  const headers: Record<string, string> = {accept: 'application/json', ...opts.headers}
  if (body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json'
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  const mod = u.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = mod.request(
      u,
      {
        method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        // A fresh connection per request: the harness makes few calls, and pooled sockets would outlive
        // restartApiServer() and keep short-lived scripts alive.
        agent: false,
        ...(u.protocol === 'https:' ? (opts.ca ? {ca: opts.ca} : {rejectUnauthorized: false}) : {}),
        timeout: opts.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: any
          try {
            json = text ? JSON.parse(text) : undefined
          } catch {
            json = undefined
          }
          resolve({status: res.statusCode ?? 0, headers: res.headers, body: text, json})
        })
      },
    )
    req.on('timeout', () => req.destroy(new Error(`${req.method} ${url}: no response in ${opts.timeoutMs ?? 10_000} ms`)))
    req.on('error', reject)
    if (body !== undefined) req.write(body)
    req.end()
  })
}
