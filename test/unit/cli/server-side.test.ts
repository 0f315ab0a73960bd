// --server-side chooses how a live --apply-manifests is applied; without a cluster to ask, or
// without manifests to apply, it is refused in one line (a server-side apply cannot be computed
// from files: the API server's field ownership decides it).
import {describe, expect, it} from 'vitest'

import {kctl, NOW} from './run-cli.js'

describe('--server-side', () => {
  it.each(['plan', 'simulate'])('%s -f … --apply-manifests … --server-side is refused: it needs a live cluster', (command) => {
    const run = kctl([command, '-f', 'examples/deployment', '--apply-manifests', 'examples/deployment', '--server-side', '--now', NOW])
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/^error: --server-side needs a live cluster: with -f, --apply-manifests merges as kubectl apply \(client-side\) does \(drop --server-side, or plan against the cluster\)\n$/)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(run.stdout).toBe('')
  })

  it('without --apply-manifests it is refused', () => {
    const run = kctl(['plan', '-f', 'examples/deployment', '--server-side', '--now', NOW])
    expect(run.status).toBe(1)
    expect(run.stderr).toMatch(/^error: --server-side goes with --apply-manifests \(name the manifests to apply: --apply-manifests FILE --server-side\)\n$/)
  })
})
