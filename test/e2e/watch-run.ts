// A running `kctl watch -o json` for the e2e tests: its NDJSON lines as they come, and its exit.
import {spawn, type ChildProcess} from 'node:child_process'
import {fileURLToPath} from 'node:url'

import {waitUntil} from './setup/cluster.js'

const BIN = fileURLToPath(new URL('../../bin/run.js', import.meta.url))

/** A running `kctl watch -o json`: its NDJSON lines as they come, stderr, and its exit. */
export class WatchRun {
  readonly lines: any[] = []
  stderr = ''
  readonly exited: Promise<{code: number | null; signal: NodeJS.Signals | null}>
  private readonly child: ChildProcess
  private partial = ''

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [BIN, 'watch', '-o', 'json', ...args], {env: {...process.env, NO_COLOR: '1', KCTL_DEBUG: '', ...env}, stdio: ['ignore', 'pipe', 'pipe']})
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.partial += chunk
      let nl: number
      while ((nl = this.partial.indexOf('\n')) >= 0) {
        const line = this.partial.slice(0, nl)
        this.partial = this.partial.slice(nl + 1)
        this.lines.push(JSON.parse(line))
      }
    })
    this.child.stderr!.setEncoding('utf8').on('data', (c: string) => (this.stderr += c))
    this.exited = new Promise((resolve) => this.child.on('close', (code, signal) => resolve({code, signal})))
  }

  /** The first line from `from` on that satisfies `pred`. */
  async next(what: string, pred: (line: any) => boolean, from = 0, timeoutMs = 60_000): Promise<any> {
    return waitUntil(() => this.lines.slice(from).find(pred), {timeoutMs, intervalMs: 50, what: `${what}; stderr so far: ${this.stderr}`})
  }

  changes(name: string, from = 0): any[] {
    return this.lines.slice(from).filter((l) => l.kind === 'PlanChange' && l.controller.name === name)
  }

  async interrupt(): Promise<{code: number | null; signal: NodeJS.Signals | null}> {
    this.child.kill('SIGINT')
    return this.exited
  }

  kill(): void {
    this.child.kill('SIGKILL')
  }
}

