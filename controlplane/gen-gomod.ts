/**
 * Regenerates controlplane/k8s/go.mod, controlplane/kubectl/go.mod, controlplane/etcd/go.mod and
 * controlplane/fakecloud/go.mod (and their go.sum files) from the pins in controlplane/versions.json.
 *
 *   npx tsx controlplane/gen-gomod.ts            # regenerate, then `go mod tidy`
 *   npx tsx controlplane/gen-gomod.ts fakecloud  # only the named module(s)
 *   npx tsx controlplane/gen-gomod.ts --check    # exit 1 if the committed go.mod files don't match the pins
 *
 * Why generated: `k8s.io/kubernetes` requires each of its staging modules at `v0.0.0` and maps them to
 * `./staging/src/k8s.io/<x>` with `replace`. Replace directives only apply in the main module, so any module that
 * builds cmd/kube-apiserver must restate every one of them, pointing at the published `v0.<minor>.<patch>` tag
 * instead (kubernetes/kubernetes#79384, golang/go#32776). The set changes between releases (1.36 added
 * k8s.io/cri-streaming and k8s.io/streaming), so it is read from upstream's own go.mod, never hand-copied.
 * `go.etcd.io/etcd/server/v3` has the same shape (`go.etcd.io/etcd/api/v3 => ../api`, …): each sibling module is
 * pinned to the same tag.
 *
 * The tidied go.mod/go.sum files are committed; build.ts builds with the default `-mod=readonly`, so a build never
 * silently resolves anything other than what is in the repo.
 */
import {execFileSync} from 'node:child_process'
import {existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

export const CONTROLPLANE_DIR = dirname(fileURLToPath(import.meta.url))

export interface Versions {
  kubernetes: string
  etcd: string
}

export function readVersions(): Versions {
  const v = JSON.parse(readFileSync(join(CONTROLPLANE_DIR, 'versions.json'), 'utf8')) as Versions
  if (!/^v1\.\d+\.\d+$/.test(v.kubernetes)) throw new Error(`versions.json: bad kubernetes version ${v.kubernetes}`)
  if (!/^v3\.\d+\.\d+$/.test(v.etcd)) throw new Error(`versions.json: bad etcd version ${v.etcd}`)
  return v
}

/**
 * Environment for every go invocation: never download another toolchain (fail fast on a too-old Go instead),
 * static binaries as upstream releases them, and ignore any go.work a developer may have lying around.
 */
export function goEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0', GOWORK: 'off', ...extra}
}

/** `go mod download -json mod@ver` → the text of the module's upstream go.mod (from the module cache). */
function upstreamGoMod(mod: string, version: string): string {
  let out: string
  try {
    out = execFileSync('go', ['mod', 'download', '-json', `${mod}@${version}`], {
      env: goEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: CONTROLPLANE_DIR,
    })
  } catch (e) {
    // With -json, go prints the error inside the JSON on stdout and exits 1.
    out = (e as {stdout?: string}).stdout ?? ''
    if (!out) throw e
  }
  const info = JSON.parse(out) as {GoMod?: string; Error?: string}
  if (info.Error || !info.GoMod) throw new Error(`go mod download ${mod}@${version}: ${info.Error ?? 'no GoMod'}`)
  return readFileSync(info.GoMod, 'utf8')
}

/** All `replace` directives of a go.mod, single-line and block form, as [old path, new path] (versions dropped). */
export function parseReplaces(gomod: string): Array<[string, string]> {
  const out: Array<[string, string]> = []
  let inBlock = false
  for (const raw of gomod.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim()
    if (!line) continue
    let body: string
    if (inBlock) {
      if (line === ')') {
        inBlock = false
        continue
      }
      body = line
    } else if (/^replace\s*\($/.test(line)) {
      inBlock = true
      continue
    } else if (line.startsWith('replace ')) {
      body = line.slice('replace '.length).trim()
    } else {
      continue
    }
    const m = /^(\S+)(?:\s+\S+)?\s+=>\s+(\S+)(?:\s+\S+)?$/.exec(body)
    if (m) out.push([m[1]!, m[2]!])
  }
  return out
}

/** k8s.io/kubernetes v1.Y.Z: one `k8s.io/<x> => k8s.io/<x> v0.Y.Z` per `./staging/src/k8s.io/<x>` replace. */
export function kubernetesReplaces(upstream: string, k8sVersion: string): string[] {
  const stagingVersion = k8sVersion.replace(/^v1\./, 'v0.')
  const lines = parseReplaces(upstream)
    .filter(([from, to]) => to === `./staging/src/${from}`)
    .map(([from]) => `${from} => ${from} ${stagingVersion}`)
  // 31 staging modules in 1.33–1.35, 33 in 1.36; far fewer means the parse went wrong, not that upstream changed.
  if (lines.length < 25) throw new Error(`only ${lines.length} staging replaces found in k8s.io/kubernetes ${k8sVersion} go.mod`)
  return lines.sort()
}

/** go.etcd.io/etcd/server/v3: every relative (sibling-module) replace, pinned to the same tag. */
export function etcdReplaces(upstream: string, etcdVersion: string): string[] {
  const lines = parseReplaces(upstream)
    // `go.etcd.io/etcd => ./FORBIDDEN_DEPENDENCY` and friends are guard rails, not siblings: skip them.
    .filter(([from, to]) => to.startsWith('../') && from.startsWith('go.etcd.io/etcd/'))
    .map(([from]) => `${from} => ${from} ${etcdVersion}`)
  if (lines.length < 3) throw new Error(`only ${lines.length} sibling replaces found in etcd server ${etcdVersion} go.mod`)
  return lines.sort()
}

interface ModSpec {
  module: string
  goLine: string
  godebug?: string
  /** `path version` of each direct requirement this script pins (tidy adds the indirect ones). */
  require: string[]
  replaces: string[]
  tools: string[]
}

function renderGoMod(o: ModSpec): string {
  return [
    '// Code generated by controlplane/gen-gomod.ts from controlplane/versions.json; DO NOT EDIT.',
    '',
    `module ${o.module}`,
    '',
    `go ${o.goLine}`,
    '',
    ...(o.godebug ? [`godebug default=${o.godebug}`, ''] : []),
    ...block('require', o.require),
    ...block('replace', o.replaces),
    ...block('tool', o.tools),
  ].join('\n')
}

function block(keyword: string, lines: string[]): string[] {
  return lines.length === 0 ? [] : [`${keyword} (`, ...lines.map((l) => `\t${l}`), ')', '']
}

/** Upstream's `go` and `godebug default=` lines: only the main module's lines set runtime GODEBUG defaults. */
function goLines(upstream: string): {goLine: string; godebug?: string} {
  const goLine = /^go\s+(\S+)/m.exec(upstream)?.[1]
  if (!goLine) throw new Error('upstream go.mod has no go line')
  const godebug = /^godebug\s+default=(\S+)/m.exec(upstream)?.[1]
  return {goLine, godebug}
}

/**
 * The modules the fake-cloud program (controlplane/fakecloud/) builds from: k8s.io/cloud-provider and the
 * libraries it is released with, all at the staging tag of the pinned Kubernetes. cloud-provider does not
 * depend on k8s.io/kubernetes, so no replaces are needed.
 */
export const FAKECLOUD_MODULES = ['k8s.io/cloud-provider', 'k8s.io/api', 'k8s.io/apimachinery', 'k8s.io/apiserver', 'k8s.io/client-go', 'k8s.io/component-base']

export function specs(v: Versions): Record<'k8s' | 'etcd' | 'kubectl' | 'fakecloud', ModSpec> {
  const k8sUp = upstreamGoMod('k8s.io/kubernetes', v.kubernetes)
  const k8sGo = goLines(k8sUp)
  const etcdUp = upstreamGoMod('go.etcd.io/etcd/server/v3', v.etcd)
  const etcdGo = goLines(etcdUp)
  const stagingVersion = v.kubernetes.replace(/^v1\./, 'v0.')
  const cloudGo = goLines(upstreamGoMod('k8s.io/cloud-provider', stagingVersion))
  const k8s: ModSpec = {
    module: 'kctl.local/controlplane/k8s',
    goLine: k8sGo.goLine,
    // Kubernetes pins `godebug default=go1.NN` per release; without it a newer local Go would silently change
    // TLS/x509 and other runtime defaults. Fall back to the go line's minor if a release ever drops it.
    godebug: k8sGo.godebug ?? `go${k8sGo.goLine.split('.').slice(0, 2).join('.')}`,
    require: [`k8s.io/kubernetes ${v.kubernetes}`],
    replaces: kubernetesReplaces(k8sUp, v.kubernetes),
    tools: ['k8s.io/kubernetes/cmd/kube-apiserver', 'k8s.io/kubernetes/cmd/kube-controller-manager'],
  }
  return {
    k8s,
    // upstream's cmd/kubectl, so the same pins and replaces, but in a module of its own: its dependencies
    // (kustomize, cli-runtime, …) stay out of k8s/go.sum, whose hash is the control plane's cache key.
    kubectl: {...k8s, module: 'kctl.local/controlplane/kubectl', tools: ['k8s.io/kubernetes/cmd/kubectl']},
    etcd: {
      module: 'kctl.local/controlplane/etcd',
      goLine: etcdGo.goLine,
      godebug: etcdGo.godebug,
      require: [`go.etcd.io/etcd/server/v3 ${v.etcd}`],
      replaces: etcdReplaces(etcdUp, v.etcd),
      // server/v3's root package is etcd's `main` (server/main.go only calls etcdmain.Main).
      tools: ['go.etcd.io/etcd/server/v3'],
    },
    fakecloud: {
      module: 'kctl.local/controlplane/fakecloud',
      goLine: cloudGo.goLine,
      godebug: cloudGo.godebug,
      require: FAKECLOUD_MODULES.map((m) => `${m} ${stagingVersion}`),
      replaces: [],
      // The program is this module's own main package.
      tools: [],
    },
  }
}

interface ModJson {
  Go?: string
  GoDebug?: Array<{Key: string; Value: string}>
  Require?: Array<{Path: string; Version: string}>
  Replace?: Array<{Old: {Path: string}; New: {Path: string; Version?: string}}>
  Tool?: Array<{Path: string}>
}

/** The parts of a go.mod this script owns, normalized via `go mod edit -json` (tidy reformats the file). */
function owned(file: string, primary: readonly string[]): string {
  const j = JSON.parse(execFileSync('go', ['mod', 'edit', '-json', file], {env: goEnv(), encoding: 'utf8'})) as ModJson
  return JSON.stringify({
    go: j.Go,
    godebug: (j.GoDebug ?? []).map((g) => `${g.Key}=${g.Value}`),
    require: (j.Require ?? []).filter((r) => primary.includes(r.Path)).map((r) => `${r.Path} ${r.Version}`).sort(),
    replace: (j.Replace ?? []).map((r) => `${r.Old.Path} => ${r.New.Path} ${r.New.Version ?? ''}`.trim()).sort(),
    tool: (j.Tool ?? []).map((t) => t.Path).sort(),
  })
}

function main(): void {
  const check = process.argv.includes('--check')
  // Named modules only (`… gen-gomod.ts fakecloud`), or all of them.
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'))
  const all = specs(readVersions())
  let stale = false
  for (const [name, spec] of Object.entries(all)) {
    if (only.length > 0 && !only.includes(name)) continue
    const dir = join(CONTROLPLANE_DIR, name)
    const file = join(dir, 'go.mod')
    const text = renderGoMod(spec)
    const primary = spec.require.map((r) => r.split(' ')[0]!)
    if (check) {
      const tmp = mkdtempSync(join(tmpdir(), 'kctl-gomod-'))
      try {
        writeFileSync(join(tmp, 'go.mod'), text)
        if (!existsSync(file) || !existsSync(join(dir, 'go.sum')) || owned(file, primary) !== owned(join(tmp, 'go.mod'), primary)) {
          process.stderr.write(`${file} does not match controlplane/versions.json: run npx tsx controlplane/gen-gomod.ts\n`)
          stale = true
        }
      } finally {
        rmSync(tmp, {recursive: true, force: true})
      }
      continue
    }
    writeFileSync(file, text)
    process.stderr.write(`wrote ${file} (${spec.replaces.length} replaces); go mod tidy …\n`)
    // tidy adds the (hundreds of) indirect requires and writes go.sum; the `tool` lines keep the cmd packages live.
    execFileSync('go', ['mod', 'tidy'], {cwd: dir, env: goEnv(), stdio: 'inherit'})
  }
  if (stale) process.exit(1)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main()
