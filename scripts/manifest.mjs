// Writes oclif.manifest.json from the built commands (what `oclif manifest` does, without its
// 200-package dev CLI): `npm run manifest` after changing a command's flags, args or help. The
// build never writes it, so a unit test can fail when the committed manifest is stale.
import {Plugin} from '@oclif/core'
import {writeFileSync} from 'node:fs'

export async function buildManifest(root = process.cwd()) {
  const plugin = new Plugin({root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, respectNoCacheDefault: true})
  await plugin.load()
  return JSON.stringify(plugin.manifest, null, 2) + '\n'
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync('oclif.manifest.json', await buildManifest())
}
