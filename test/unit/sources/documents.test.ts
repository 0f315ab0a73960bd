import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {dump, load} from 'js-yaml'
import {afterAll, describe, expect, it} from 'vitest'

import {UserError} from '../../../src/errors.js'
import {blankManagedFields, openSources, readAllDocuments, readDocuments, splitYamlDocuments, type SourceObject} from '../../../src/sources/documents.js'
import {WINDOW} from '../../../src/sources/json-documents.js'
import {KUBE_YAML_SCHEMA} from '../../../src/sources/yaml11.js'

const FX = 'test/fixtures/sources'
const at = (o: {file: string; line: number; column: number}) => `${o.file}:${o.line}:${o.column}`
const names = (objs: SourceObject[]) => objs.map((o) => (o.raw.metadata as {name: string}).name)

async function readError(paths: string[], opts = {}): Promise<UserError> {
  try {
    await readAllDocuments(paths, opts)
  } catch (error) {
    if (error instanceof UserError) return error
    throw error
  }
  throw new Error('expected an error')
}

const tmp = mkdtempSync(join(tmpdir(), 'kctl-sources-'))
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

function write(name: string, text: string): string {
  const file = join(tmp, name)
  writeFileSync(file, text)
  return file
}

describe('multi-document YAML', () => {
  it('reads every object in order, skipping empty and comment-only documents', async () => {
    const objs = await readAllDocuments([`${FX}/multi.yaml`])
    expect(objs.map((o) => `${o.kind}/${(o.raw.metadata as {name: string}).name}`)).toEqual(['ReplicaSet/web', 'Pod/web-a', 'ConfigMap/settings'])
    expect(objs.map((o) => o.ordinal)).toEqual([0, 1, 2])
  })

  it('knows where each object starts (its first key)', async () => {
    const objs = await readAllDocuments([`${FX}/multi.yaml`])
    expect(objs.map((o) => at(o.origin))).toEqual([`${FX}/multi.yaml:3:1`, `${FX}/multi.yaml:26:1`, `${FX}/multi.yaml:34:1`])
  })

  it('finds any field, its value or its key', async () => {
    const [rs, pod, cm] = await readAllDocuments([`${FX}/multi.yaml`])
    expect(at(rs.locate(['spec', 'replicas']))).toBe(`${FX}/multi.yaml:11:13`)
    expect(at(rs.locate(['spec', 'selector']))).toBe(`${FX}/multi.yaml:13:5`)
    expect(at(rs.locate(['spec', 'selector'], {key: true}))).toBe(`${FX}/multi.yaml:12:3`)
    expect(at(rs.locate(['spec', 'template', 'spec', 'containers', 0, 'image']))).toBe(`${FX}/multi.yaml:22:16`)
    expect(at(rs.locate(['spec', 'template', 'spec', 'containers', 0]))).toBe(`${FX}/multi.yaml:21:9`)
    expect(at(pod.locate(['metadata', 'labels', 'app']))).toBe(`${FX}/multi.yaml:31:17`)
    expect(at(cm.locate(['data', 'enabled']))).toBe(`${FX}/multi.yaml:39:12`)
  })

  it('points at the deepest existing key for a missing field', async () => {
    const [rs] = await readAllDocuments([`${FX}/multi.yaml`])
    expect(at(rs.locate(['spec', 'minReadySeconds']))).toBe(`${FX}/multi.yaml:10:1`)
    expect(at(rs.locate(['spec', 'selector', 'matchExpressions', 0]))).toBe(`${FX}/multi.yaml:12:3`)
    expect(at(rs.locate(['nothing', 'here']))).toBe(`${FX}/multi.yaml:3:1`)
  })

  it('cuts a stream at --- and ... lines only (not inside words, not after indentation)', () => {
    const text = 'a: 1\n---\nb: |\n  ---not a marker\n  x\n--- # c\nc: 3\n...\n%YAML 1.1\n---\nd: 4\n----\n'
    const buf = Buffer.from(text)
    const docs = splitYamlDocuments(buf).map(([s, e]) => buf.toString('utf8', s, e))
    expect(docs).toEqual(['a: 1\n', '---\nb: |\n  ---not a marker\n  x\n', '--- # c\nc: 3\n...\n', '%YAML 1.1\n', '---\nd: 4\n----\n'])
  })

  it('ends a document at a ... line only (not after other dots, not indented), from where the stream starts', () => {
    const split = (text: string, from = 0) => {
      const buf = Buffer.from(text)
      return splitYamlDocuments(buf, from).map(([s, e]) => buf.toString('utf8', s, e))
    }
    expect(split('x: a...b\n....\n  ...\n...\ny: 1\n... # end\nz: 2\n...')).toEqual(['x: a...b\n....\n  ...\n...\n', 'y: 1\n... # end\n', 'z: 2\n...'])
    expect(split('...\na: 1\n')).toEqual(['...\n', 'a: 1\n'])
    expect(split('\uFEFF...\na: 1\n...\n', 3)).toEqual(['...\n', 'a: 1\n...\n'])
  })

  it('reads directives, a document on the marker line and CRLF line ends', async () => {
    const file = join(tmp, 'crlf.yaml')
    writeFileSync(file, '%YAML 1.1\r\n---\r\napiVersion: v1\r\nkind: Pod\r\nmetadata: {name: a}\r\n--- {apiVersion: v1, kind: Pod, metadata: {name: b}}\r\n')
    const objs = await readAllDocuments([file])
    expect(names(objs)).toEqual(['a', 'b'])
    expect(at(objs[0].origin)).toBe(`${file}:3:1`)
    expect(at(objs[1].origin)).toBe(`${file}:6:5`)
  })

  it('reads a UTF-8 file with a byte order mark and non-ASCII text, with columns in characters', async () => {
    const file = join(tmp, 'bom.yaml')
    writeFileSync(file, '\uFEFFapiVersion: v1\nkind: ConfigMap\nmetadata: {name: é, annotations: {note: "ünïcode"}}\ndata: {k: v}\n')
    const [obj] = await readAllDocuments([file])
    expect((obj.raw.metadata as {annotations: object}).annotations).toEqual({note: 'ünïcode'})
    expect(at(obj.origin)).toBe(`${file}:1:1`)
    expect(at(obj.locate(['data', 'k']))).toBe(`${file}:4:11`)
  })
})

describe('lists', () => {
  it('unpacks List and *List, recursively, filling kind/apiVersion of typed list items', async () => {
    const objs = await readAllDocuments([`${FX}/list.yaml`])
    expect(objs.map((o) => [o.apiVersion, o.kind, (o.raw.metadata as {name: string}).name])).toEqual([
      ['v1', 'Pod', 'p1'],
      ['apps/v1', 'ReplicaSet', 'nested-rs'],
    ])
    expect(at(objs[0].origin)).toBe(`${FX}/list.yaml:4:3`)
    expect(at(objs[1].origin)).toBe(`${FX}/list.yaml:11:5`)
    expect(at(objs[1].locate(['metadata', 'name']))).toBe(`${FX}/list.yaml:12:13`)
  })

  it('reads a JSON *List (kubectl get -o json)', async () => {
    const objs = await readAllDocuments([`${FX}/rslist.json`])
    expect(objs.map((o) => [o.apiVersion, o.kind])).toEqual([['apps/v1', 'ReplicaSet']])
    expect(at(objs[0].origin)).toBe(`${FX}/rslist.json:5:9`)
    expect(at(objs[0].locate(['spec', 'replicas']))).toBe(`${FX}/rslist.json:11:29`)
    expect(at(objs[0].locate(['spec', 'replicas'], {key: true}))).toBe(`${FX}/rslist.json:11:17`)
  })

  it('reads JSON streams (several values in a row)', async () => {
    const objs = await readAllDocuments([`${FX}/stream.json`])
    expect(names(objs)).toEqual(['s1', 's2'])
    expect(objs.map((o) => at(o.origin))).toEqual([`${FX}/stream.json:1:1`, `${FX}/stream.json:2:1`])
    expect(at(objs[1].locate(['metadata', 'labels', 'app']))).toBe(`${FX}/stream.json:3:47`)
  })
})

describe('large pretty-printed JSON lists (read item by item)', () => {
  const pods = Array.from({length: 400}, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `pod-${i}`,
      labels: {app: 'web', n: String(i)},
      managedFields: [{manager: 'kubelet', operation: 'Update', fieldsV1: {'f:status': {'.': {}, 'f:phase': {}}}}],
      ownerReferences: [{apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u', controller: true}],
    },
    spec: {containers: [{name: 'c', image: 'nginx', args: ['}', '],', '{"a": [1]}']}]},
    status: {phase: 'Running', conditions: [{type: 'Ready', status: 'True'}]},
  }))
  const list = {apiVersion: 'v1', items: pods, kind: 'List', metadata: {resourceVersion: ''}}
  const strip = (p: (typeof pods)[number]) => {
    const {managedFields: _, ...metadata} = p.metadata
    return {...p, metadata}
  }

  it('reads every item exactly, without managedFields, with positions', async () => {
    const text = JSON.stringify(list, null, 4)
    expect(text.length).toBeGreaterThan(1 << 16)
    const file = join(tmp, 'big.json')
    writeFileSync(file, text)
    const objs = await readAllDocuments([file])
    expect(objs.map((o) => o.raw)).toEqual(pods.map(strip))
    const lines = text.split('\n')
    const line = objs[123].origin.line
    expect(lines[line - 1]).toBe('        {')
    expect(objs[123].origin.column).toBe(9)
    const name = objs[123].locate(['metadata', 'name'])
    expect(lines[name.line - 1].slice(name.column - 1)).toBe('"pod-123",')
  })

  it('reads the list a window at a time, whatever the window (an item larger than it grows it)', async () => {
    const utf = {...list, items: pods.map((p, i) => (i % 50 === 7 ? {...p, metadata: {...p.metadata, annotations: {note: 'ünïcödé ✓'.repeat(i)}}} : p))}
    const text = JSON.stringify(utf, null, 4)
    const file = join(tmp, 'windows.json')
    writeFileSync(file, text)
    const whole = await readAllDocuments([file])
    expect(whole.map((o) => o.raw)).toEqual(utf.items.map(strip))
    for (const jsonWindowBytes of [300, 1000, 4096, 65_537]) {
      const files = await openSources([file])
      const objs = [...readDocuments(files, {jsonWindowBytes})]
      expect(files[0].chunkStarts).toHaveLength(utf.items.length) // item by item, never parsed whole
      expect(objs.map((o) => o.raw)).toEqual(utf.items.map(strip))
      expect(objs.map((o) => at(o.origin))).toEqual(whole.map((o) => at(o.origin)))
      expect(at(objs[357].locate(['metadata', 'annotations', 'note']))).toBe(at(whole[357].locate(['metadata', 'annotations', 'note'])))
    }
  })

  it('reads a list larger than the default window item by item, pretty or minified (the window slides on)', async () => {
    const many = {...list, items: Array.from({length: 6}, (_, k) => pods.map((p) => ({...p, metadata: {...p.metadata, name: `${p.metadata.name}-${k}`}}))).flat()}
    for (const [name, text] of [['slide-pretty.json', JSON.stringify(many, null, 4)], ['slide-min.json', JSON.stringify(many)]]) {
      expect(text.length).toBeGreaterThan(WINDOW)
      const file = join(tmp, name)
      writeFileSync(file, text)
      const files = await openSources([file])
      const objs = [...readDocuments(files, {})]
      expect(files[0].chunkStarts).toHaveLength(many.items.length) // item by item, never parsed whole
      expect(objs.map((o) => o.raw)).toEqual(many.items.map(strip))
    }
  })

  it('falls back to parsing the whole file when the layout changes midway, losing nothing', async () => {
    const text = JSON.stringify(list, null, 4).replace('"name": "pod-200"', '"name":\n"pod-200"').replace(/\n {8}\},\n {8}\{\n {12}"apiVersion": "v1",\n {12}"kind": "Pod",\n {12}"metadata": \{\n {16}"labels": \{\n {20}"app": "web",\n {20}"n": "300"/, (m) => m.replace('\n        },', '},'))
    const file = join(tmp, 'broken-layout.json')
    writeFileSync(file, text)
    for (const jsonWindowBytes of [undefined, 2000]) {
      const objs = await readAllDocuments([file], {jsonWindowBytes})
      expect(names(objs)).toEqual(pods.map((p) => p.metadata.name))
      expect(objs.map((o) => o.raw)).toEqual(pods.map(strip))
    }
  })

  it('reads a UTF-8 file item by item too, with columns in characters', async () => {
    const utf = {...list, items: pods.map((p, i) => (i === 7 ? {...p, metadata: {...p.metadata, annotations: {note: 'ünïcödé ✓'}}} : p))}
    const text = JSON.stringify(utf, null, 4)
    const file = join(tmp, 'big-utf8.json')
    writeFileSync(file, text)
    const objs = await readAllDocuments([file])
    expect(objs.map((o) => o.raw)).toEqual(utf.items.map(strip))
    const at = objs[7].locate(['metadata', 'name'])
    expect(text.split('\n')[at.line - 1].slice(at.column - 1)).toBe('"pod-7",')
  })

  it('reads minified JSON item by item, with positions on its one line', async () => {
    const text = JSON.stringify(list)
    const file = join(tmp, 'min.json')
    writeFileSync(file, text)
    for (const jsonWindowBytes of [undefined, 300, 4096]) {
      const files = await openSources([file])
      const objs = [...readDocuments(files, {jsonWindowBytes})]
      expect(files[0].chunkStarts).toHaveLength(pods.length) // never parsed whole
      expect(objs.map((o) => o.raw)).toEqual(pods.map(strip))
      expect(at(objs[2].origin)).toBe(`${file}:1:${text.indexOf('{"apiVersion":"v1","kind":"Pod","metadata":{"name":"pod-2"') + 1}`)
      expect(at(objs[301].locate(['metadata', 'name']))).toBe(`${file}:1:${text.indexOf('"pod-301"') + 1}`)
    }
  })

  it('reads minified JSON item by item when items are larger than the text decoded at once, or lie across two decodings', async () => {
    // An ASCII window's text is decoded a block at a time (32 KiB) and each item parsed from a slice
    // of it: an item past the block's end, or larger than a block, is decoded anew from its start.
    const sized = pods.map((p, i) => (i % 97 === 5 ? {...p, metadata: {...p.metadata, annotations: {note: 'x'.repeat(i * 400)}}} : p))
    const text = JSON.stringify({...list, items: sized})
    const file = join(tmp, 'min-blocks.json')
    writeFileSync(file, text)
    for (const jsonWindowBytes of [undefined, 100_000]) {
      const files = await openSources([file])
      const objs = [...readDocuments(files, {jsonWindowBytes})]
      expect(files[0].chunkStarts).toHaveLength(sized.length) // never parsed whole
      expect(objs.map((o) => o.raw)).toEqual(sized.map(strip))
    }
  })

  it('reads minified JSON item by item when items hold objects that open like an item, or the items are laid out unevenly', async () => {
    // Where an item ends is found by searching for the bytes between two items (`},{"apiVersion":`);
    // a match inside an item (owner references, managedFields entries) must not cut it short.
    const nested = pods.map((p, i) => ({
      apiVersion: p.apiVersion,
      kind: p.kind,
      metadata: {
        ...p.metadata,
        ownerReferences: i % 3 === 0 ? [p.metadata.ownerReferences[0], {...p.metadata.ownerReferences[0], name: 'other', uid: 'o', controller: false}] : p.metadata.ownerReferences,
        ...(i % 5 === 0 ? {annotations: {note: '},{"apiVersion":"v1"'}} : {}),
      },
      spec: i % 7 === 0 ? {...p.spec, volumes: [{apiVersion: 'x'}, {apiVersion: 'y'}]} : p.spec,
      status: p.status,
    }))
    const separators = [',', ', ', ',\n', ',', ',']
    const text = `{"apiVersion":"v1","items":[${nested.map((p, i) => (i === 0 ? '' : separators[i % separators.length]) + JSON.stringify(p)).join('')}],"kind":"List"}`
    const file = join(tmp, 'min-nested.json')
    writeFileSync(file, text)
    const whole = JSON.parse(text).items.map(strip)
    const lines = text.split('\n')
    for (const jsonWindowBytes of [undefined, 300, 1000, 4096]) {
      const files = await openSources([file])
      const objs = [...readDocuments(files, {jsonWindowBytes})]
      expect(files[0].chunkStarts).toHaveLength(nested.length) // never parsed whole
      expect(objs.map((o) => o.raw)).toEqual(whole)
      for (const k of [0, 1, 3, 5, 7, 298, 299, 300, nested.length - 1]) {
        const name = objs[k].locate(['metadata', 'name'])
        expect(lines[name.line - 1].slice(name.column - 1)).toMatch(new RegExp(`^"pod-${k}"`))
      }
    }
  })

  it('reads a list with members on both sides of the items, line breaks and UTF-8 between them', async () => {
    const utf = pods.map((p, i) => (i === 7 ? {...p, metadata: {...p.metadata, annotations: {note: 'ünïcödé ✓ ]}'}}} : p))
    const text = `\ufeff{"kind":"PodList","apiVersion":"v1","items":[\n${utf.map((p) => JSON.stringify({...p, kind: undefined})).join(',\n')}\n],"metadata":{"resourceVersion":"9","x":[1,[2]]}}\n`
    const file = join(tmp, 'lines.json')
    writeFileSync(file, text)
    const files = await openSources([file])
    const objs = [...readDocuments(files, {jsonWindowBytes: 1000})]
    expect(files[0].chunkStarts).toHaveLength(pods.length)
    expect(objs.map((o) => o.raw)).toEqual(utf.map(strip))
    const lines = text.split('\n')
    const name = objs[9].locate(['metadata', 'name'])
    expect(lines[name.line - 1].slice(name.column - 1)).toMatch(/^"pod-9",/)
    const note = objs[7].locate(['metadata', 'annotations', 'note'])
    expect(lines[note.line - 1].slice(note.column - 1)).toMatch(/^"ünïcödé ✓ \]\}"/)
  })

  it('gives items of a stream of lists their own list\'s kind when kind and apiVersion come after the items', async () => {
    // Each list's items lack kind and apiVersion; the first list names them only after its items,
    // so the members read from the file's tail belong to the last list, not to the first.
    const bare = pods.map(({kind: _k, apiVersion: _a, ...rest}) => rest)
    const maps = Array.from({length: 3}, (_, i) => ({metadata: {name: `settings-${i}`}, data: {n: String(i)}}))
    const first = {items: bare, apiVersion: 'v1', kind: 'PodList'}
    const second = {items: maps, apiVersion: 'v1', kind: 'ConfigMapList'}
    for (const [name, text] of [
      ['stream-min.json', `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`],
      ['stream-pretty.json', `${JSON.stringify(first, null, 4)}\n${JSON.stringify(second, null, 4)}\n`],
    ]) {
      const file = join(tmp, name)
      writeFileSync(file, text)
      expect(text.length).toBeGreaterThan(1 << 16)
      for (const jsonWindowBytes of [undefined, 4096]) {
        const objs = [...readDocuments(await openSources([file]), {jsonWindowBytes})]
        expect(objs.map((o) => `${o.apiVersion} ${o.kind} ${(o.raw.metadata as {name: string}).name}`)).toEqual([
          ...pods.map((p) => `v1 Pod ${p.metadata.name}`),
          ...maps.map((m) => `v1 ConfigMap ${m.metadata.name}`),
        ])
      }
    }
  })

  it('falls back to parsing the whole file when an item does not parse, reporting where', async () => {
    const text = JSON.stringify(list).replace('"name":"pod-250"', '"name":pod-250')
    const file = join(tmp, 'min-broken.json')
    writeFileSync(file, text)
    const read: SourceObject[] = []
    const errors: UserError[] = []
    for (const o of readDocuments(await openSources([file]), {onError: (e) => errors.push(e)})) read.push(o)
    expect(names(read)).toEqual(pods.slice(0, 250).map((p) => p.metadata.name)) // the items before it, as a pretty-printed list gives them
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^invalid JSON: Unexpected token/)])
    const fixed = JSON.stringify({...list, items: [...pods, 'x']})
    writeFileSync(file, fixed)
    const objs: SourceObject[] = []
    const problems: UserError[] = []
    for (const o of readDocuments(await openSources([file]), {onError: (e) => problems.push(e)})) objs.push(o)
    expect(objs.map((o) => o.raw)).toEqual(pods.map(strip))
    expect(problems.map((e) => e.message)).toEqual(['expected a Kubernetes object (a mapping with apiVersion and kind), got string "x"'])
  })
})

describe('large YAML lists (kubectl get -o yaml, read item by item)', () => {
  const pods = Array.from({length: 600}, (_, i) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      labels: {app: 'web', n: String(i)},
      managedFields: [{apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {'f:metadata': {'f:labels': {}}}, manager: 'kubelet', operation: 'Update'}],
      name: `pod-${i}`,
      namespace: 'default',
    },
    spec: {containers: [{args: ['- not an item', 'items:'], command: ['sh', '-c', 'echo "- x"\n- y\n'], image: 'nginx', name: 'c'}], nodeName: `n${i % 7}`},
    status: {conditions: [{status: 'True', type: 'Ready'}], phase: 'Running'},
  }))
  const list = {apiVersion: 'v1', items: pods, kind: 'List', metadata: {resourceVersion: ''}}
  const strip = (p: (typeof pods)[number]) => {
    const {managedFields: _, ...metadata} = p.metadata
    return {...p, metadata}
  }

  it.each([
    ['at column 0 (kubectl)', true],
    ['indented', false],
  ])('reads every item exactly, items %s, with positions', async (_, compact) => {
    const text = dump(list, {sortKeys: true, noArrayIndent: compact, lineWidth: -1})
    expect(text.length).toBeGreaterThan(1 << 18)
    const file = join(tmp, `list-${compact}.yaml`)
    writeFileSync(file, text)
    const objs = await readAllDocuments([file])
    expect(objs.map((o) => o.raw)).toEqual(pods.map(strip))
    const lines = text.split('\n')
    const o = objs[321]
    expect(lines[o.origin.line - 1].slice(o.origin.column - 1)).toBe('apiVersion: v1')
    const name = o.locate(['metadata', 'name'])
    expect(lines[name.line - 1].slice(name.column - 1)).toBe('pod-321')
  })

  it('falls back to the whole document when items are not independent (an alias), losing nothing', async () => {
    const text = dump(list, {sortKeys: true, noArrayIndent: true, lineWidth: -1})
      .replace('name: pod-3\n', 'name: &third pod-3\n')
      .replace('      nodeName: n3\n', '      nodeName: *third\n')
    const file = join(tmp, 'list-alias.yaml')
    writeFileSync(file, text)
    const objs = await readAllDocuments([file])
    expect(objs).toHaveLength(pods.length)
    expect(names(objs)).toEqual(pods.map((p) => p.metadata.name))
  })

  it('reports an error inside an item at its place in the file', async () => {
    const text = dump(list, {sortKeys: true, noArrayIndent: true, lineWidth: -1}).replace('  name: pod-500\n', '  name: pod-500\n   bad: indent\n')
    const file = join(tmp, 'list-bad.yaml')
    writeFileSync(file, text)
    const line = text.split('\n').indexOf('   bad: indent') + 1
    expect((await readError([file])).line).toMatch(new RegExp(`^${file}:${line}:\\d+: invalid YAML: bad indentation of a mapping entry$`))
  })
})

describe('managedFields', () => {
  const doc = `apiVersion: v1
kind: Pod
metadata:
  labels:
    app: web
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:labels: {}
    manager: kubectl
    operation: Update
    time: "2026-11-22T10:00:00Z"
  # a comment in between
  name: web
spec:
  nodeName: n1
`
  it('are blanked before parsing a block-style document, giving the same object otherwise', () => {
    const blanked = blankManagedFields(doc)
    expect(blanked).not.toContain('fieldsV1')
    const full = load(doc, {schema: KUBE_YAML_SCHEMA}) as {metadata: Record<string, unknown>}
    expect(load(blanked, {schema: KUBE_YAML_SCHEMA})).toEqual({...full, metadata: {...full.metadata, managedFields: []}})
  })

  it('are found after other keys ending in Fields and deeper managedFields keys', () => {
    const text = 'metadata:\n  annotations:\n    managedFields: x\n  labelFields: z\n  managedFields:\n  - manager: a\n  name: a\n'
    expect(load(blankManagedFields(text), {schema: KUBE_YAML_SCHEMA})).toEqual({metadata: {annotations: {managedFields: 'x'}, labelFields: 'z', managedFields: [], name: 'a'}})
    expect(blankManagedFields(text)).not.toContain('manager')
  })

  it('leave any other layout alone', () => {
    const deeper = doc.replace(/\n {2}/g, '\n    ')
    expect(blankManagedFields(deeper)).toBe(deeper)
    const flow = 'metadata:\n  managedFields: [{manager: x}]\n  name: a\n'
    expect(blankManagedFields(flow)).toBe(flow)
    const asLabel = 'metadata:\n name: a\n labels:\n  managedFields:\n   x\nspec: {}\n'
    expect(blankManagedFields(asLabel)).toBe(asLabel)
    const elsewhere = 'spec:\n  managedFields:\n  - a\nmetadata:\n  name: a\n'
    expect(blankManagedFields(elsewhere)).toBe(elsewhere)
  })

  it('are blanked inside list items too (metadata under a `- `)', () => {
    const item = doc.replace(/^/gm, '  ').replace(/^  /, '- ')
    const blanked = blankManagedFields(item, 2)
    expect(blanked).not.toContain('fieldsV1')
    const full = load(item, {schema: KUBE_YAML_SCHEMA}) as Array<{metadata: Record<string, unknown>}>
    expect(load(blanked, {schema: KUBE_YAML_SCHEMA})).toEqual([{...full[0], metadata: {...full[0].metadata, managedFields: []}}])
    const dashed = '- metadata:\n    managedFields:\n    - a: 1\n    name: x\n  kind: Pod\n'
    expect(load(blankManagedFields(dashed, 2), {schema: KUBE_YAML_SCHEMA})).toEqual([{metadata: {managedFields: [], name: 'x'}, kind: 'Pod'}])
  })

  it('are dropped from every object read', async () => {
    const file = join(tmp, 'mf.yaml')
    writeFileSync(file, doc)
    const [obj] = await readAllDocuments([file])
    expect(obj.raw.metadata).toEqual({labels: {app: 'web'}, name: 'web'})
  })
})

describe('inputs', () => {
  it('walks directories recursively, sorted, keeping only *.yaml, *.yml and *.json', async () => {
    const objs = await readAllDocuments([`${FX}/tree`])
    expect(names(objs)).toEqual(['a-deeper-x', 'a-y', 'b-z', 'top'])
    expect(objs.map((o) => o.file)).toEqual([`${FX}/tree/a/deeper/x.yml`, `${FX}/tree/a/y.json`, `${FX}/tree/b/z.yaml`, `${FX}/tree/top.yaml`])
  })

  it('reads -f values in the order given', async () => {
    const objs = await readAllDocuments([`${FX}/tree/top.yaml`, `${FX}/tree/b`])
    expect(names(objs)).toEqual(['top', 'b-z'])
  })

  it('reads stdin for "-", YAML or JSON', async () => {
    const yaml = await readAllDocuments(['-'], {readStdin: async () => '# piped\napiVersion: v1\nkind: Pod\nmetadata:\n  name: from-stdin\n'})
    expect(names(yaml)).toEqual(['from-stdin'])
    expect(at(yaml[0].origin)).toBe('<stdin>:2:1')
    expect(at(yaml[0].locate(['metadata', 'name']))).toBe('<stdin>:5:9')
    const json = await readAllDocuments(['-'], {readStdin: async () => '\n  {"apiVersion": "v1", "kind": "PodList", "items": [{"metadata": {"name": "j"}}]}'})
    expect(json.map((o) => [o.kind, (o.raw.metadata as {name: string}).name])).toEqual([['Pod', 'j']])
    expect(at(json[0].origin)).toBe('<stdin>:2:53')
  })

  it("applies each file's transform to every object read from it, and only its own", async () => {
    const pods = Array.from({length: 1500}, (_, i) => ({apiVersion: 'v1', kind: 'Pod', metadata: {name: `pod-${i}`, namespace: 'default'}}))
    const big = write('t-big.json', JSON.stringify({apiVersion: 'v1', kind: 'List', items: pods}))
    const sources = await openSources([big, write('t-plain.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: plain}\n'), write('t-two.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n')])
    const mark = (from: string) => (raw: Record<string, unknown>) => ((raw.metadata as {labels?: object}).labels = {from})
    sources[0].transform = mark('big')
    sources[2].transform = mark('two')
    const objs = [...readDocuments(sources, {jsonWindowBytes: 4096})]
    expect(objs.map((o) => (o.raw.metadata as {labels?: {from: string}}).labels?.from ?? '-')).toEqual([...pods.map(() => 'big'), '-', 'two', 'two'])
    expect(sources[0].chunkStarts).toHaveLength(pods.length) // item by item
  })

  it('refuses stdin twice, or without a reader', async () => {
    expect((await readError(['-', '-'], {readStdin: async () => ''})).message).toMatch(/only once/)
    expect((await readError(['-'])).message).toMatch(/standard input/)
  })
})

describe('errors name the file, line and column', () => {
  it.each([
    ['missing.yaml', 'test/fixtures/sources/missing.yaml: no such file or directory (check the -f path)'],
    ['errors/malformed.yaml', 'test/fixtures/sources/errors/malformed.yaml:9:10: invalid YAML: bad indentation of a mapping entry'],
    ['errors/not-mapping.yaml', 'test/fixtures/sources/errors/not-mapping.yaml:5:1: expected a Kubernetes object (a mapping with apiVersion and kind), got a list'],
    ['errors/no-kind.yaml', 'test/fixtures/sources/errors/no-kind.yaml:2:1: object has no kind (every object needs apiVersion and kind, e.g. apiVersion: apps/v1, kind: ReplicaSet)'],
    ['errors/bad.json', 'test/fixtures/sources/errors/bad.json:4:28: invalid JSON: Expected double-quoted property name'],
  ])('%s', async (file, line) => {
    const error = await readError([`${FX}/${file}`])
    expect(error.line).toBe(line)
  })

  it('reports apiVersion before kind, each at its value when it is there but not a non-empty string', async () => {
    const cases: [string, string][] = [
      ['metadata: {name: a}\n', ':1:1: object has no apiVersion'],
      ['kind: Pod\napiVersion: 5\n', ':2:13: apiVersion: expected a non-empty string, got number 5'],
      ['apiVersion: v1\nkind: ""\n', ':2:7: kind: expected a non-empty string, got string ""'],
      ['kind: [Pod]\n', ':1:1: object has no apiVersion'],
    ]
    for (const [i, [text, line]] of cases.entries()) {
      const file = write(`type-fields-${i}.yaml`, text)
      expect((await readError([file])).line.split(' (')[0]).toBe(`${file}${line}`)
    }
  })

  it('reports a duplicate key where the second one is', async () => {
    const file = join(tmp, 'dup-key.yaml')
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n')
    expect((await readError([file])).line).toBe(`${file}:5:3: invalid YAML: duplicated mapping key`)
  })

  it('reports an unterminated JSON document at its end', async () => {
    const file = join(tmp, 'cut.json')
    writeFileSync(file, '{"apiVersion": "v1",\n "kind": "Pod"')
    expect((await readError([file])).line).toBe(`${file}:2:15: invalid JSON: Expected ',' or '}' after property value`)
  })

  it('reads a YAML file named .json as YAML', async () => {
    const file = join(tmp, 'yaml.json')
    writeFileSync(file, 'apiVersion: v1\nkind: Pod\nmetadata: {name: yaml-in-json}\n')
    expect(names(await readAllDocuments([file]))).toEqual(['yaml-in-json'])
  })

  it('with onError, reports each bad input and goes on', async () => {
    const errors: string[] = []
    const files = await openSources([`${FX}/errors/malformed.yaml`, `${FX}/missing.yaml`, `${FX}/errors/not-mapping.yaml`, `${FX}/tree/top.yaml`])
    const objs = [...readDocuments(files, {onError: (e) => errors.push(e.line)})]
    expect(names(objs)).toEqual(['fine', 'ok', 'top'])
    expect(errors).toEqual([
      `${FX}/errors/malformed.yaml:9:10: invalid YAML: bad indentation of a mapping entry`,
      `${FX}/missing.yaml: no such file or directory (check the -f path)`,
      `${FX}/errors/not-mapping.yaml:5:1: expected a Kubernetes object (a mapping with apiVersion and kind), got a list`,
    ])
  })
})
