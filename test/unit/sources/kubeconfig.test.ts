// Reading kubeconfig without @kubernetes/client-node: files merged as kubectl merges them, one clear
// line for each thing that can be wrong, and, for every file and context below, the same entries,
// the same error messages and the same request options (TLS, headers, agent) as client-node's own
// KubeConfig, which kctl used before and still uses for auth-providers and proxies.
import {chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type {AddressInfo} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {KubeConfig} from '@kubernetes/client-node'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {connect, listClusterObjects} from '../../../src/sources/cluster.js'
import {loadKubeconfig, readKubeconfigFile, type KubeconfigRequest} from '../../../src/sources/cluster-config.js'
import {userErrorLine as errorLine} from '../../helpers/user-error.js'

const dir = mkdtempSync(join(tmpdir(), 'kctl-kubeconfig-'))
const CA = Buffer.from('not a real CA').toString('base64')

/** Writes `text` to `name` in the test's directory; its path. */
function file(name: string, text: string): string {
  const path = join(dir, name)
  mkdirSync(join(path, '..'), {recursive: true})
  writeFileSync(path, text)
  return path
}

/** A kubeconfig of one cluster, one user and one context, all called `name`. */
function single(name: string, o: {server?: string; namespace?: string; current?: boolean; user?: string} = {}): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    ...(o.current === false ? [] : [`current-context: ${name}`]),
    `clusters: [{name: ${name}, cluster: {server: "${o.server ?? `https://${name}.example:6443`}", insecure-skip-tls-verify: true}}]`,
    `users: [{name: ${name}, user: ${o.user ?? `{token: token-${name}}`}}]`,
    `contexts: [{name: ${name}, context: {cluster: ${name}, user: ${name}${o.namespace ? `, namespace: ${o.namespace}` : ''}}}]`,
  ].join('\n')
}

const load = (req: KubeconfigRequest) => loadKubeconfig({env: {}, ...req})

afterAll(() => {
  rmSync(dir, {recursive: true, force: true})
})

describe('which files, merged how', () => {
  it('KUBECONFIG a:b: the first file to set a value wins, current-context included; missing files are skipped', async () => {
    const a = file('merge/a', single('a', {namespace: 'team-a'}))
    const b = file('merge/b', `${single('b')}\n`.replace('clusters: [', 'clusters: [{name: a, cluster: {server: "https://other.example"}}, '))
    const env = {KUBECONFIG: [a, join(dir, 'merge/missing'), b].join(':')}
    const first = await load({env})
    expect(first).toMatchObject({context: 'a', server: 'https://a.example:6443', namespace: 'team-a', files: [a, b]})
    // b's context, by --context; b's cluster "a" lost to a's (no "duplicate" error).
    const second = await load({env, context: 'b'})
    expect(second).toMatchObject({context: 'b', server: 'https://b.example:6443', namespace: 'default'})
  })

  it('KUBECONFIG: a later file gives the current context when the earlier ones do not', async () => {
    const a = file('later/a', single('a', {current: false}))
    const b = file('later/b', single('b'))
    expect((await load({env: {KUBECONFIG: `${a}:${b}`}})).context).toBe('b')
  })

  it('a file listed twice is read once', async () => {
    const a = file('twice/a', single('a'))
    expect((await load({env: {KUBECONFIG: `${a}:${a}`}})).files).toEqual([a])
  })

  it('--kubeconfig wins over KUBECONFIG, and ~/.kube/config is read when neither is set', async () => {
    const a = file('flag/a', single('a'))
    const b = file('flag/b', single('b'))
    expect((await load({kubeconfig: b, env: {KUBECONFIG: a}})).context).toBe('b')
    const home = join(dir, 'home')
    file('home/.kube/config', single('h'))
    expect((await load({env: {HOME: home}})).context).toBe('h')
  })

  it('a trailing slash of the server is dropped', async () => {
    const a = file('slash', single('s', {server: 'https://s.example/prefix/'}))
    expect((await load({kubeconfig: a})).server).toBe('https://s.example/prefix')
  })
})

describe('one line for each thing that can be wrong', () => {
  it.each<[string, () => KubeconfigRequest, string]>([
    ['--kubeconfig names no file', () => ({kubeconfig: join(dir, 'nope')}), `kubeconfig ${join(dir, 'nope')} does not exist (check --kubeconfig)`],
    [
      'no file of KUBECONFIG exists',
      () => ({env: {KUBECONFIG: `${join(dir, 'x')}:${join(dir, 'y')}`}}),
      `none of the files in KUBECONFIG exist (${join(dir, 'x')}:${join(dir, 'y')}) (set KUBECONFIG, pass --kubeconfig, or read fixtures with -f)`,
    ],
    [
      'no KUBECONFIG and no ~/.kube/config',
      () => ({env: {HOME: join(dir, 'empty-home')}}),
      'no kubeconfig found (KUBECONFIG is unset and ~/.kube/config does not exist) (pass --kubeconfig, set KUBECONFIG, or read fixtures with -f)',
    ],
    ['no current context', () => ({kubeconfig: file('e/nocurrent', single('a', {current: false}))}), `no current context in ${join(dir, 'e/nocurrent')} (pass --context NAME or run kubectl config use-context)`],
    ['an unknown --context', () => ({kubeconfig: file('e/unknown', single('a')), context: 'zz'}), `context "zz" not found in ${join(dir, 'e/unknown')} (known contexts: a)`],
    [
      'a context naming a missing cluster',
      () => ({kubeconfig: file('e/nocluster', single('a').replace('context: {cluster: a', 'context: {cluster: gone'))}),
      'context "a" names cluster "gone", which is not in the kubeconfig',
    ],
    [
      'a context naming a missing user',
      () => ({kubeconfig: file('e/nouser', single('a').replace('cluster: a, user: a', 'cluster: a, user: gone'))}),
      'context "a" names user "gone", which is not in the kubeconfig',
    ],
    [
      'a cluster without a server',
      () => ({kubeconfig: file('e/noserver', single('a').replace('server: "https://a.example:6443", ', ''))}),
      `cannot read kubeconfig ${join(dir, 'e/noserver')}: clusters[0].cluster.server is missing (fix the file or point --kubeconfig elsewhere)`,
    ],
    [
      'YAML that does not parse',
      () => ({kubeconfig: file('e/yaml', 'clusters: [\n')}),
      `cannot read kubeconfig ${join(dir, 'e/yaml')}: unexpected end of the stream within a flow collection (2:1) (fix the file or point --kubeconfig elsewhere)`,
    ],
    [
      'a token-file that is missing',
      () => ({kubeconfig: file('e/tokenfile', single('a', {user: `{token-file: ${join(dir, 'e/no-token')}}`}))}),
      `cannot read kubeconfig ${join(dir, 'e/tokenfile')}: ENOENT: no such file or directory, open '${join(dir, 'e/no-token')}' (fix the file or point --kubeconfig elsewhere)`,
    ],
  ])('%s', async (_, req, line) => {
    expect(await errorLine(() => load(req()))).toBe(line)
  })

  it('a file of KUBECONFIG that does not parse is named, even after good ones', async () => {
    const good = file('e2/good', single('a'))
    const bad = file('e2/bad', 'users:\n- name: u\n  user: {token: [}\n')
    expect(await errorLine(() => load({env: {KUBECONFIG: `${good}:${bad}`}}))).toMatch(new RegExp(`^cannot read kubeconfig ${bad}: `))
  })
})

/** Kubeconfig files, good and bad: ours must read each exactly as client-node's KubeConfig.loadFromFile. */
const FILES: Record<string, string> = {
  full: [
    'current-context: one',
    'clusters:',
    '- name: one',
    '  cluster: {server: "https://one.example:6443/", certificate-authority: ca.crt, tls-server-name: api.one, insecure-skip-tls-verify: false}',
    `- name: two`,
    `  cluster: {server: "http://two.example", certificate-authority-data: ${CA}, insecure-skip-tls-verify: true}`,
    '- name: three',
    '  cluster: {server: "https://three.example", certificate-authority: /abs/ca.crt, proxy-url: "http://proxy.example:3128"}',
    'users:',
    '- name: certs',
    '  user: {client-certificate: certs/c.crt, client-key: certs/c.key, as: someone}',
    '- name: inline',
    `  user: {client-certificate-data: ${CA}, client-key-data: ${CA}, token: abc}`,
    '- name: basic',
    '  user: {username: ann, password: secret}',
    '- name: exec',
    '  user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: plugin, args: [a, b], env: [{name: X, value: "1"}]}}',
    '- name: provider',
    '  user: {auth-provider: {name: oidc, config: {id-token: x}}}',
    '- name: bare',
    'contexts:',
    '- name: one',
    '  context: {cluster: one, user: certs, namespace: ns1}',
    '- name: two',
    '  context: {cluster: two, user: "", namespace: ""}',
    '- name: three',
    '  context: {cluster: three}',
  ].join('\n'),
  'not a list': 'clusters: {a: b}\nusers: 3\ncontexts: "x"\n',
  scalar: 'hello\n',
  empty: '',
  'null entry': 'clusters:\n- \n',
  'unnamed cluster': 'clusters: [{cluster: {server: x}}]\n',
  'cluster without cluster': 'clusters: [{name: a}]\n',
  'server not a string': 'clusters: [{name: a, cluster: {server: 5}}]\n',
  'unnamed user': 'users: [{user: {token: t}}]\n',
  'unnamed context': 'contexts: [{context: {cluster: a}}]\n',
  'context without cluster': 'contexts: [{name: a, context: {user: u}}]\n',
  'context without context': 'contexts: [{name: a}]\n',
  'bad YAML': 'clusters: [{name: a\n',
  'duplicate key': 'clusters: []\nclusters: []\n',
  'numbers for names': 'current-context: 5\nclusters: [{name: 7, cluster: {server: "https://x"}}]\ncontexts: [{name: 5, context: {cluster: 7}}]\n',
}

/** What reading `path` gives: the entries, or the first line of the error thrown. */
function outcome(read: () => unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(read()))
  } catch (error) {
    return {error: (error as Error).message.split('\n')[0]}
  }
}

describe('the same entries and errors as client-node', () => {
  it.each(Object.keys(FILES))('%s', (name) => {
    const path = file(`same/${name.replaceAll(' ', '-')}/config`, FILES[name])
    const ours = outcome(() => readKubeconfigFile(path))
    const theirs = outcome(() => {
      const kc = new KubeConfig()
      kc.loadFromFile(path)
      return {clusters: kc.clusters, users: kc.users, contexts: kc.contexts, currentContext: kc.currentContext}
    })
    expect(ours).toEqual(theirs)
  })
})

describe('the same request options as client-node', () => {
  let plugin: string
  beforeAll(() => {
    file('opts/ca.crt', 'CA FILE')
    file('opts/certs/c.crt', 'CERT FILE')
    file('opts/certs/c.key', 'KEY FILE')
    plugin = file(
      'opts/plugin',
      `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin-'"$X"'","clientCertificateData":"PEM"}}'\n`,
    )
    chmodSync(plugin, 0o755)
  })

  /** The options a request gets, with the agent reduced to its class and TLS options. */
  function seen(opts: https.RequestOptions): unknown {
    const agent = opts.agent as http.Agent & {options: Record<string, unknown>}
    const pick = (o: Record<string, unknown>) => Object.fromEntries(['ca', 'cert', 'key', 'rejectUnauthorized', 'servername'].filter((k) => o[k] !== undefined).map((k) => [k, String(o[k])]))
    const {agent: _, ...rest} = opts
    return {...JSON.parse(JSON.stringify({...rest, ...pick(rest as Record<string, unknown>)})), agent: agent.constructor.name, agentOptions: pick(agent.options)}
  }

  it.each([
    ['one', 'certificate files relative to the kubeconfig, tls-server-name, Impersonate-User'],
    ['two', 'inline CA, plain http with insecure-skip-tls-verify, a context without a user'],
    ['inline', 'inline certificate and key, a token'],
    ['basic', 'basic auth'],
    ['exec', 'an exec plugin: its token and certificate, its env'],
    ['bare', 'a user with nothing'],
    ['http-strict', 'plain http without insecure-skip-tls-verify: refused'],
    ['missing-ca', 'a certificate-authority file that is missing'],
    ['exec-fails', 'an exec plugin that fails'],
  ])('%s: %s', async (context) => {
    const text = [
      FILES.full.replace('command: plugin', `command: ${plugin}`),
      '- name: inline',
      '  context: {cluster: one, user: inline}',
      '- name: basic',
      '  context: {cluster: one, user: basic}',
      '- name: exec',
      '  context: {cluster: two, user: exec}',
      '- name: bare',
      '  context: {cluster: one, user: bare}',
      '- name: http-strict',
      '  context: {cluster: plain, user: bare}',
      '- name: missing-ca',
      '  context: {cluster: noca, user: bare}',
      '- name: exec-fails',
      '  context: {cluster: one, user: broken}',
    ]
      .join('\n')
      .replace('clusters:\n', 'clusters:\n- {name: plain, cluster: {server: "http://plain.example"}}\n- {name: noca, cluster: {server: "https://x", certificate-authority: gone.crt}}\n')
      .replace('users:\n', `users:\n- {name: broken, user: {exec: {command: ${join(dir, 'opts/no-such-plugin')}}}}\n`)
    const path = file('opts/config', text)
    const run = async (apply: (o: https.RequestOptions) => Promise<void>) => {
      const opts: https.RequestOptions = {method: 'GET', headers: {Accept: 'application/json'}}
      try {
        await apply(opts)
        return seen(opts)
      } catch (error) {
        return {error: (error as Error).message.split('\n')[0]}
      }
    }
    const ours = await load({kubeconfig: path, context})
    const kc = new KubeConfig()
    kc.loadFromFile(path)
    kc.setCurrentContext(context)
    const theirs = await run((o) => kc.applyToHTTPSOptions(o))
    expect(await run((o) => ours.credentials.apply(o))).toEqual(theirs)
  })
})

describe('requests carry the credentials', () => {
  let server: http.Server
  const seen: http.IncomingHttpHeaders[] = []
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.headers)
      res.writeHead(200, {'Content-Type': 'application/json'})
      res.end(JSON.stringify({kind: 'List', apiVersion: 'v1', metadata: {resourceVersion: '1'}, items: []}))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
  afterAll(() => server.close())

  it('a token from a token-file, basic auth and impersonation reach the server', async () => {
    const {port} = server.address() as AddressInfo
    const token = file('req/token', 'from-file')
    const kubeconfig = file(
      'req/config',
      [
        'current-context: t',
        `clusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]`,
        `users: [{name: t, user: {token-file: ${token}, as: alice}}, {name: b, user: {username: bob, password: pw}}]`,
        'contexts: [{name: t, context: {cluster: c, user: t}}, {name: b, context: {cluster: c, user: b}}]',
      ].join('\n'),
    )
    seen.length = 0
    await listClusterObjects(await connect({kubeconfig}), {kubeconfig, allNamespaces: true})
    expect(seen[0]).toMatchObject({authorization: 'Bearer from-file', 'impersonate-user': 'alice'})
    seen.length = 0
    await listClusterObjects(await connect({kubeconfig, context: 'b'}), {kubeconfig, context: 'b', allNamespaces: true})
    expect(seen[0].authorization).toBe(`Basic ${Buffer.from('bob:pw').toString('base64')}`)
  })

  it('a failing exec plugin is one line naming the context', async () => {
    const kubeconfig = file(
      'req/exec',
      [
        'current-context: x',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
        `users: [{name: u, user: {exec: {command: ${join(dir, 'req/missing-plugin')}}}}]`,
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
      ].join('\n'),
    )
    expect(await errorLine(async () => listClusterObjects(await connect({kubeconfig}), {kubeconfig}))).toBe(
      `cannot get credentials for context "x": spawn ${join(dir, 'req/missing-plugin')} ENOENT`,
    )
  })
})
