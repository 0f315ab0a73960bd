// The ways into a pipeline the README lists beyond the clone and `npm pack` (pack.test.ts): the
// LICENSE, the GitHub Action (action.yml: its steps' commands run here as the runner runs them,
// from a copy of the repository's files) and the pre-commit hook (.pre-commit-hooks.yaml: with
// `pre-commit try-repo` when pre-commit is installed, else the command the hook runs).
import {execFileSync, spawnSync} from 'node:child_process'
import {chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'

import {afterAll, describe, expect, it} from 'vitest'
import {parse} from 'yaml'

import {ROOT} from './run-cli.js'

const tmp = mkdtempSync(join(tmpdir(), 'kctl-install-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

/** The environment of a user's shell or a runner: none of vitest's, nor a GitHub run's. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {...process.env, ...extra}
  for (const k of ['NODE_ENV', 'KCTL_DEBUG', 'FORCE_COLOR', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']) delete env[k]
  return env
}

/** A workspace with manifests: one StatefulSet whose Service is missing (a warning). */
function workspace(name: string): string {
  const dir = join(tmp, name)
  mkdirSync(join(dir, 'deploy'), {recursive: true})
  cpSync(join(ROOT, 'examples', 'statefulset', 'statefulset.yaml'), join(dir, 'deploy', 'statefulset.yaml'))
  return dir
}

describe('LICENSE', () => {
  it('is the Apache License 2.0, as package.json says', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).license).toBe('Apache-2.0')
    const text = readFileSync(join(ROOT, 'LICENSE'), 'utf8')
    expect(text).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n/)
    expect(text).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION')
    expect(text).toContain('END OF TERMS AND CONDITIONS')
  })
})

interface Step {
  uses?: string
  with?: Record<string, string>
  name?: string
  id?: string
  shell?: string
  env?: Record<string, string>
  run?: string
}

describe('action.yml, the GitHub Action', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {runs: {using: string; steps: Step[]}; inputs: Record<string, {default: string}>}

  it('is a composite action that sets up Node first', () => {
    expect(action.runs.using).toBe('composite')
    expect(action.runs.steps[0]).toEqual({uses: 'actions/setup-node@v4', with: {'node-version': '${{ inputs.node-version }}'}})
    expect(Object.keys(action.inputs).sort()).toEqual(['fail-on', 'kustomize', 'node-version', 'paths', 'sarif'])
  })

  it('installs kctl from its own checkout, then runs kctl check with its inputs', {timeout: 600_000}, () => {
    // The action's checkout: the repository's files, as actions/checkout leaves them.
    const checkout = join(tmp, 'action')
    const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {cwd: ROOT, encoding: 'utf8'}).split('\0')
    for (const f of files) {
      if (f === '' || f === 'node_modules' || !existsSync(join(ROOT, f))) continue
      mkdirSync(dirname(join(checkout, f)), {recursive: true})
      cpSync(join(ROOT, f), join(checkout, f))
    }
    const runner = join(tmp, 'runner')
    mkdirSync(runner, {recursive: true})
    const githubPath = join(runner, 'path')
    const githubOutput = join(runner, 'output')
    writeFileSync(githubPath, '')
    writeFileSync(githubOutput, '')

    /** One `run` step as the runner runs it: its expressions filled in, its env, bash, in the workspace. */
    const runStep = (step: Step, inputs: Record<string, string>, cwd: string) => {
      const fill = (s: string) =>
        s.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, expr: string) => {
          if (expr === 'github.action_path') return checkout
          const input = /^inputs\.([\w-]+)$/.exec(expr)?.[1]
          if (input !== undefined) return inputs[input] ?? action.inputs[input].default
          throw new Error(`unknown expression ${expr}`)
        })
      expect(step.shell).toBe('bash')
      const env = cleanEnv({RUNNER_TEMP: runner, GITHUB_PATH: githubPath, GITHUB_OUTPUT: githubOutput, GITHUB_ACTIONS: 'true'})
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = fill(v)
      // Directories the earlier steps added to GITHUB_PATH come first, as on a runner.
      const added = readFileSync(githubPath, 'utf8').split('\n').filter(Boolean)
      env.PATH = [...added.reverse(), env.PATH].join(':')
      return spawnSync('bash', ['-e', '-c', fill(step.run!)], {cwd, env, encoding: 'utf8', timeout: 400_000})
    }

    const [, install, check] = action.runs.steps
    const installed = runStep(install, {}, runner)
    expect(installed.status, installed.stderr).toBe(0)
    expect(existsSync(join(checkout, 'dist', 'cli', 'main.js'))).toBe(true)

    const ws = workspace('ws')
    // A warning fails the step with fail-on: warning: exit 3, the annotation on stdout, the text on
    // stderr, the SARIF file written and named as the step's output.
    const failing = runStep(check, {paths: 'deploy/', 'fail-on': 'warning', sarif: 'kctl.sarif'}, ws)
    expect(failing.status, failing.stderr + failing.stdout).toBe(3)
    expect(failing.stdout).toMatch(/^::warning file=deploy\/statefulset\.yaml,line=23,col=16,title=kctl statefulset-service-missing::StatefulSet data\/db: /)
    expect(failing.stderr).toContain('! 1 finding (1 warning) in ')
    const sarif = JSON.parse(readFileSync(join(ws, 'kctl.sarif'), 'utf8'))
    expect(sarif.runs[0].results.map((r: {ruleId: string}) => r.ruleId)).toEqual(['statefulset-service-missing'])
    expect(readFileSync(githubOutput, 'utf8')).toContain('sarif=kctl.sarif\n')
    // With the default fail-on (error) the same warning passes; no SARIF asked, none written.
    rmSync(join(ws, 'kctl.sarif'))
    const passing = runStep(check, {paths: 'deploy/'}, ws)
    expect(passing.status).toBe(0)
    expect(passing.stdout).toContain('::warning file=deploy/statefulset.yaml')
    expect(existsSync(join(ws, 'kctl.sarif'))).toBe(false)
    // Several paths, space-separated: each is a -f.
    cpSync(join(ROOT, 'examples', 'scale-down', 'replicaset.yaml'), join(ws, 'rs.yaml'))
    const two = runStep(check, {paths: 'deploy/statefulset.yaml rs.yaml'}, ws)
    expect(two.status).toBe(0)
    expect(two.stderr).toMatch(/in \d+ objects from 2 files\n$/)
  })
})

describe('.pre-commit-hooks.yaml, the pre-commit hook', () => {
  const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Array<{id: string; entry: string; args?: string[]; language: string; pass_filenames: boolean; files: string}>
  const [hook] = hooks

  it('is kctl-check, over YAML and JSON files, checking the whole tree', () => {
    expect(hooks.map((h) => h.id)).toEqual(['kctl-check'])
    expect(hook.pass_filenames).toBe(false)
    const files = new RegExp(hook.files)
    for (const f of ['deploy/a.yaml', 'b.yml', 'c.json']) expect(files.test(f), f).toBe(true)
    expect(files.test('README.md')).toBe(false)
  })

  it('fails a commit on what kctl check fails, and passes otherwise', {timeout: 120_000}, () => {
    // kctl on PATH, as the hook's `language: system` needs: a shim to the built CLI.
    const bin = join(tmp, 'hook-bin')
    mkdirSync(bin, {recursive: true})
    writeFileSync(join(bin, 'kctl'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'run.js')}" "$@"\n`)
    chmodSync(join(bin, 'kctl'), 0o755)
    const env = cleanEnv({PATH: `${bin}:${process.env.PATH}`})
    const repo = workspace('hook-repo')
    const preCommit = spawnSync('pre-commit', ['--version'], {encoding: 'utf8'})
    const run = (args: string[]) => {
      if (preCommit.status === 0) {
        execFileSync('git', ['init', '-q'], {cwd: repo})
        execFileSync('git', ['add', '-A'], {cwd: repo})
        return spawnSync('pre-commit', ['try-repo', ROOT, 'kctl-check', '--all-files', '--verbose'], {cwd: repo, env, encoding: 'utf8'})
      }
      // Without pre-commit: what it runs, entry then args, in the repository's root.
      return spawnSync('sh', ['-c', `${hook.entry} "$@"`, 'hook', ...args], {cwd: repo, env, encoding: 'utf8'})
    }
    const ok = run(hook.args ?? [])
    expect(ok.status, ok.stderr).toBe(0)
    expect(ok.stdout).toContain('statefulset-service-missing')
    writeFileSync(join(repo, 'deploy', 'broken.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: -1\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: y}}\n    spec: {containers: [{name: c, image: i}]}\n')
    const bad = run(hook.args ?? [])
    expect(bad.status).not.toBe(0)
    expect(bad.stdout).toContain('selector-template-mismatch')
  })
})
