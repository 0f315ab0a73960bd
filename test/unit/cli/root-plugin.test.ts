// A run of one of kctl's own commands hands oclif its root plugin with that command only; anything
// oclif would read otherwise (help, a topic's subcommand, an alias) goes through oclif's discovery.
import {readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'

import type {Interfaces} from '@oclif/core'
import {describe, expect, it} from 'vitest'

import {ownCommand, ownCommandOptions} from '../../../src/cli/root-plugin.js'
import {ROOT} from './run-cli.js'

const pjson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Interfaces.PJSON
const manifest = JSON.parse(readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8')) as Interfaces.Manifest
const id = (argv: string[], m = manifest, p = pjson) => ownCommand(argv, p, m)?.id

describe('ownCommand', () => {
  it('names the command a run of kctl <command> [flags] runs', () => {
    expect(id(['plan'])).toBe('plan')
    expect(id(['plan', '-f', 'examples/adoption', '-o', 'json'])).toBe('plan')
    expect(id(['check', '--output=json'])).toBe('check')
    expect(id(['plan', '--', '-h'])).toBe('plan')
  })

  it('leaves help, no command and unknown commands to oclif', () => {
    for (const argv of [[], ['--help'], ['plan', '--help'], ['plan', '-f', 'x', '-h'], ['help', 'plan'], ['plna'], ['constructor'], ['__proto__'], ['--version'], ['autocomplete']]) {
      expect(ownCommand(argv, pjson, manifest), argv.join(' ')).toBeUndefined()
    }
  })

  it('leaves to oclif a word it would read as a subcommand of a command that takes no arguments', () => {
    expect(id(['plan', 'extra'])).toBeUndefined()
    const withArgs = {...manifest, commands: {...manifest.commands, plan: {...manifest.commands.plan, args: {file: {name: 'file'}}}}} as Interfaces.Manifest
    expect(id(['plan', 'extra'], withArgs)).toBe('plan')
  })

  it('leaves to oclif a command whose name another command shares (topic, alias), and a manifest of another version', () => {
    const topic = {...manifest, commands: {...manifest.commands, 'plan:sub': {...manifest.commands.plan, id: 'plan:sub'}}} as Interfaces.Manifest
    expect(id(['plan'], topic)).toBeUndefined()
    const alias = {...manifest, commands: {...manifest.commands, list: {...manifest.commands.list, aliases: ['plan']}}} as Interfaces.Manifest
    expect(id(['plan'], alias)).toBeUndefined()
    expect(id(['plan'], {...manifest, version: '9.9.9'})).toBeUndefined()
    expect(id(['plan'], manifest, {...pjson, oclif: {...pjson.oclif, flexibleTaxonomy: true}})).toBeUndefined()
  })
})

describe('ownCommandOptions', () => {
  it('hands oclif the root plugin loaded from package.json, with the one command and the hooks', async () => {
    const root = resolve(ROOT)
    const options = (await ownCommandOptions(['plan', '-o', 'json'], root)) as Interfaces.Options
    const plugins = [...(options.plugins as Map<string, Interfaces.Plugin>).values()]
    expect(plugins.map((p) => [p.name, p.root, p.isRoot])).toEqual([[pjson.name, root, true]])
    expect(plugins[0].commands.map((c) => c.id)).toEqual(['plan'])
    expect(Object.keys(plugins[0].hooks).sort()).toEqual(['command_not_found', 'init'])
  })

  it('is undefined where there is no manifest (oclif globs the commands)', async () => {
    expect(await ownCommandOptions(['plan'], join(ROOT, 'test'))).toBeUndefined()
  })
})
