import {isDeepStrictEqual} from 'node:util'

import fc from 'fast-check'
import {dump, load} from 'js-yaml'
import {describe, expect, it} from 'vitest'

import {FALLBACK, parseBlockYaml} from '../../../src/sources/fastyaml.js'
import {KUBE_YAML_SCHEMA} from '../../../src/sources/yaml11.js'

/** More with KCTL_FC_RUNS=20000 when changing the reader. */
const RUNS = Number(process.env.KCTL_FC_RUNS ?? 400)
const slow = (text: string) => load(text, {schema: KUBE_YAML_SCHEMA})

/** The fast reader either gives up, or gives exactly what js-yaml gives; it never accepts what js-yaml rejects. */
function agree(text: string): 'fast' | 'fallback' {
  const fast = parseBlockYaml(text)
  let expected: unknown
  try {
    expected = slow(text)
  } catch {
    expect(fast, `js-yaml rejects this, the fast reader must give up:\n${text}`).toBe(FALLBACK)
    return 'fallback'
  }
  if (fast === FALLBACK) return 'fallback'
  // (node's comparison: vitest's would take an own `constructor` key for the object's class)
  // An empty document is null or undefined in js-yaml depending on comments; both mean "nothing".
  expect(isDeepStrictEqual(fast, expected ?? null), `${text}\nfast: ${JSON.stringify(fast)}\njs-yaml: ${JSON.stringify(expected)}`).toBe(true)
  return 'fast'
}

/** kubectl's layout: sorted keys, compact sequences, 2 spaces, strings quoted only when needed. */
function kubectlYaml(value: unknown, indent = ''): string {
  const scalar = (v: unknown) => (typeof v === 'string' ? (/^[a-z][a-z0-9./-]*$/i.test(v) ? v : JSON.stringify(v)) : String(v))
  let out = ''
  for (const key of Object.keys(value as object).sort()) {
    const v = (value as Record<string, unknown>)[key]
    const k = /^[a-z][a-zA-Z0-9.:/-]*$/.test(key) ? key : JSON.stringify(key)
    if (Array.isArray(v)) {
      if (v.length === 0) out += `${indent}${k}: []\n`
      else {
        out += `${indent}${k}:\n`
        for (const item of v) {
          if (item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length > 0) {
            out += `${indent}- ${kubectlYaml(item, indent + '  ').slice(indent.length + 2)}`
          } else if (item !== null && typeof item === 'object') out += `${indent}- ${Array.isArray(item) ? '[]' : '{}'}\n`
          else out += `${indent}- ${scalar(item)}\n`
        }
      }
    } else if (v !== null && typeof v === 'object') {
      out += Object.keys(v).length === 0 ? `${indent}${k}: {}\n` : `${indent}${k}:\n${kubectlYaml(v, indent + '  ')}`
    } else out += `${indent}${k}: ${scalar(v)}\n`
  }
  return out
}

const interestingKeys = fc.constantFrom(
  'name', 'app', 'yes', 'on', 'n', 'y', '0755', '1.5', 'null', '~', 'f:metadata', 'f:spec', 'a b', 'a:b', '-x', 'x-', 'UPPER',
  'app.kubernetes.io/name', 'with "quote"', "it's", 'back\\slash', 'hash#tag', 'colon: space', 'trailing ', '', 'é', '<<', '__proto__', 'constructor',
)
const interestingStrings = fc.oneof(
  fc.constantFrom('', 'yes', 'No', 'on', 'OFF', 'y', '~', 'null', '0755', '0x1F', '08', '1e3', '.inf', '1:20', '2026-11-22', 'a: b', 'a #b', 'a#b', '#x', '-', '- x',
    '"q"', "'s'", 'it\'s', 'back\\slash', 'tab\there', 'multi\nline', 'trail ', ' lead', '{}', '[]', '[a]', '*alias', '&anchor', '!tag', '|', '>', '%', '@', '`', 'ünï'),
  fc.string({maxLength: 12}),
)
const scalarValue = fc.oneof(interestingStrings, fc.integer({min: -5000, max: 5000}), fc.double({noNaN: true, noDefaultInfinity: true}), fc.boolean(), fc.constant(null))
const tree = fc.letrec((tie) => ({
  value: fc.oneof({depthSize: 'small'}, scalarValue, tie('object'), tie('array')),
  object: fc.dictionary(fc.oneof(interestingKeys, fc.string({maxLength: 8})), tie('value'), {maxKeys: 5}),
  array: fc.array(tie('value'), {maxLength: 4}),
})).object

describe('the fast block-YAML reader', () => {
  it('reads kubectl-style output exactly as js-yaml does, without giving up', () => {
    const doc = `---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  annotations:
    deployment.kubernetes.io/revision: "2"
  creationTimestamp: "2026-11-20T08:00:00Z"
  labels:
    app: web
    enabled: "on"
  name: web-7d9f8b6c5d
  ownerReferences:
  - apiVersion: apps/v1
    controller: true
    kind: Deployment
    name: web
    uid: 0b1e4c52-6a3f-4f0e-9d2c-1a2b3c4d5e6f

spec:
  replicas: 3
  selector:
    matchExpressions:
    - key: tier
      operator: In
      values:
      - web
      - 'api'
  template:
    metadata:
      creationTimestamp: null
    spec:
      containers:
      -   name: web   
          image: nginx:1.27
          args:
            - --port=8080
            - "--mode=fast"
          ports:
          - containerPort: 8080
            protocol: TCP
      -
        name: sidecar
      securityContext: {}
      tolerations: []
# a comment at the end
...
`
    expect(parseBlockYaml(doc)).not.toBe(FALLBACK)
    expect(agree(doc)).toBe('fast')
  })

  it.each([
    ['a block scalar', 'a: |\n  text\n'],
    ['a folded scalar', 'a: >-\n  text\n'],
    ['a multi-line flow sequence', 'a: [1,\n  2]\n'],
    ['a flow entry left empty', 'a: [1, , 2]\n'],
    ['a trailing comma in a flow sequence', 'a: [1, 2, ]\n'],
    ['a flow value left empty', 'a: {b: }\n'],
    ['a flow key without a value', 'a: {b}\n'],
    ['a JSON-style flow key', 'a: {"b":1}\n'],
    ['a colon in a plain flow scalar', 'a: [http://x]\n'],
    ['a comment after a flow collection', 'a: [1] # one\n'],
    ['a single-pair mapping in a flow sequence', 'a: [b: 1]\n'],
    ['a duplicate flow key', 'a: {b: 1, b: 2}\n'],
    ['something after a flow collection', 'a: [1] x\n'],
    ['an anchor and alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a merge key', 'b: {}\na:\n  <<: {}\n'],
    ['a multi-line plain scalar', 'a: one\n  two\n'],
    ['a multi-line quoted scalar', 'a: "one\n  two"\n'],
    ['a comment after a value', 'a: 1 # one\n'],
    ['a tab', 'a:\t1\n'],
    ['CRLF', 'a: 1\r\n'],
    ['non-ASCII', 'a: é\n'],
    ['non-ASCII in a comment', '# é\na: 1\n'],
    ['a control character in a comment', '# \x01\na: 1\n'],
    ['DEL in a long value', 'a: 0123456789012345678901234567890\x7f\n'],
    ['a tab in a comment at the end', 'a: 1\n#\t'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a key resolving to a duplicate', 'on: 1\n"true": 2\n'],
    ['bad indentation', 'a:\n  b: 1\n   c: 2\n'],
    ['a root scalar', 'hello\n'],
    ['a directive', '%YAML 1.1\n---\na: 1\n'],
    ['a node on the marker line', '--- {a: 1}\n'],
    ['a YAML-only escape', 'a: "\\x41"\n'],
    ['a complex key', '? a\n: 1\n'],
    ['a nested inline sequence', 'a:\n- - 1\n'],
    ['__proto__', '__proto__: 1\n'],
  ])('gives up on %s', (_, text) => {
    expect(parseBlockYaml(text)).toBe(FALLBACK)
    agree(text)
  })

  it('gives up on a character outside printable ASCII wherever it stands (every place of every construct)', () => {
    // Each character is checked where the reader meets it: in a key, a quoted or flow scalar, a
    // plain value (short and remembered, or long), a comment, indentation, a marker line.
    const docs = [
      '---\n# head comment\na: 1\n"q k": \'v\'\nlong: registry.example/worker-09165:3.15.23\nshort: web\nflow: ["--p=:80", {k: v}, x y]\nesc: "say \\"hi\\"\\n"\n',
      'list:\n- one\n- k: v\n  k2: "quoted value"\n-\n  deep:\n    - [a, b]\nempty: {}\n  # indented comment\ntail: ~\n...\n# after the end\n',
    ]
    const outside = ['\t', '\r', '\x00', '\x01', '\x0b', '\x1f', '\x7f', '\x80', '\xa0', 'é', '\u2028', '\ufeff', '\u{1f600}']
    for (const doc of docs) {
      expect(parseBlockYaml(doc), doc).not.toBe(FALLBACK)
      for (let i = 0; i <= doc.length; i++) {
        for (const c of outside) {
          for (const text of [doc.slice(0, i) + c + doc.slice(i), doc.slice(0, i) + c + doc.slice(i + 1)]) {
            // Reading a document with another before it (remembered keys and scalars) changes nothing.
            parseBlockYaml(doc)
            expect(parseBlockYaml(text), JSON.stringify(text)).toBe(FALLBACK)
          }
        }
      }
    }
  })

  it('reads a document longer than the one before it, and a shorter one after it, by its own characters only', () => {
    // The characters are read as bytes from a buffer reused from document to document.
    const long = `a: ${'x'.repeat(70_000)}\nb:\n  c: ${'y'.repeat(100_000)}\n  d: [1, 2]\n`
    expect(agree(long)).toBe('fast')
    expect(parseBlockYaml('a: x')).toEqual({a: 'x'}) // (the long document's bytes follow in the buffer)
    expect(parseBlockYaml('b:\n  c: z')).toEqual({b: {c: 'z'}})
    expect(parseBlockYaml('k:xy: 1\n')).toEqual({'k:xy': 1})
    expect(parseBlockYaml('k:')).toEqual({k: null}) // (not `k:xy`)
    expect(agree(long.slice(0, 70_003) + 'é' + long.slice(70_003))).toBe('fallback')
  })

  it('reads one-line flow collections of scalars as js-yaml does', () => {
    const doc = 'args: ["--listen=:8080", \'--mode=it\'\'s\', -v, 8080, yes, ~]\nsel: {app: web, "a b": [1, {c: 1.5}], on: null}\nempty: [ ]\nsp: [ a b ,c ]\n'
    expect(parseBlockYaml(doc)).toEqual({args: ['--listen=:8080', "--mode=it's", '-v', 8080, true, null], sel: {app: 'web', 'a b': [1, {c: 1.5}], true: null}, empty: [], sp: ['a b', 'c']})
    expect(agree(doc)).toBe('fast')
  })

  it('agrees with js-yaml on generated documents with flow collections (property)', () => {
    let fast = 0
    fc.assert(
      fc.property(tree, fc.integer({min: 0, max: 3}), (obj, flowLevel) => {
        if (agree(dump(obj, {flowLevel, lineWidth: -1})) === 'fast') fast++
      }),
      {numRuns: RUNS},
    )
    expect(fast).toBeGreaterThan(RUNS / 10)
  })

  it('reads a root sequence, and an indented root', () => {
    expect(agree('- a\n- b: 1\n  c: 2\n')).toBe('fast')
    expect(agree('  - a: 1\n    b: [] \n  - x\n')).toBe('fast')
    expect(agree('  a: 1\n  b:\n  - c\n')).toBe('fast')
    expect(agree('  a: 1\n b: 2\n')).toBe('fallback')
  })

  it('ends a plain key at the first colon followed by a space or the end of the line', () => {
    expect(parseBlockYaml('a:b: 1\nc:d:\n  e: f\ng:   \nh:i\n  : j\n')).toBe(FALLBACK) // `h:i` has no colon ending it
    for (const doc of ['a:b: 1\nc:d:\n  e:f: g\nh:   \n', 'x:\n- k:v: 1\n  w::\n    z: 2\n']) expect(agree(doc)).toBe('fast')
    expect(parseBlockYaml('a:b: 1\nc:d:\n  e:f: g\nh:   \n')).toEqual({'a:b': 1, 'c:d': {'e:f': 'g'}, h: null})
  })

  it('tells a key written twice from many different keys (more keys than bits to mark them)', () => {
    const keys = Array.from({length: 70}, (_, i) => `key-${i}`)
    const doc = keys.map((k, i) => `${k}: ${i}\n`).join('')
    expect(agree(doc)).toBe('fast')
    for (const k of [keys[0], keys[33], keys[68]]) expect(parseBlockYaml(`${doc}${k}: again\n`)).toBe(FALLBACK)
    expect(parseBlockYaml(`${doc}"${keys[5]}": again\n`)).toBe(FALLBACK)
    expect(parseBlockYaml(`"quoted": 1\n${doc}quoted: again\n`)).toBe(FALLBACK)
  })

  it('an empty document is null', () => {
    expect(parseBlockYaml('---\n# nothing\n')).toBeNull()
    expect(parseBlockYaml('')).toBeNull()
  })

  it('agrees with js-yaml on generated documents in kubectl layout (property)', () => {
    let fast = 0
    fc.assert(
      fc.property(tree, (obj) => {
        if (agree(kubectlYaml(obj)) === 'fast') fast++
      }),
      {numRuns: RUNS},
    )
    expect(fast).toBeGreaterThan(100) // most of them take the fast path
  })

  it('agrees with js-yaml on generated documents in js-yaml layouts (property)', () => {
    const options = fc.record({
      indent: fc.constantFrom(2, 3, 4),
      noArrayIndent: fc.boolean(),
      quotingType: fc.constantFrom("'" as const, '"' as const),
      forceQuotes: fc.boolean(),
      lineWidth: fc.constant(-1),
    })
    fc.assert(
      fc.property(tree, options, (obj, opts) => {
        agree(dump(obj, opts))
      }),
      {numRuns: RUNS},
    )
  })

  it('never accepts what js-yaml rejects, and agrees on what both accept (mutated input, property)', () => {
    const mutation = fc.record({line: fc.nat(), kind: fc.constantFrom('indent', 'dedent', 'comment', 'blank', 'duplicate', 'dash', 'colon'), n: fc.integer({min: 1, max: 3})})
    fc.assert(
      fc.property(tree, fc.array(mutation, {maxLength: 3}), (obj, mutations) => {
        const lines = kubectlYaml(obj).split('\n')
        for (const m of mutations) {
          const i = m.line % Math.max(1, lines.length)
          const line = lines[i] ?? ''
          if (m.kind === 'indent') lines[i] = ' '.repeat(m.n) + line
          else if (m.kind === 'dedent') lines[i] = line.replace(new RegExp(`^ {1,${m.n}}`), '')
          else if (m.kind === 'comment') lines.splice(i, 0, `${' '.repeat(m.n)}# note`)
          else if (m.kind === 'blank') lines.splice(i, 0, ' '.repeat(m.n))
          else if (m.kind === 'duplicate') lines.splice(i, 0, line)
          else if (m.kind === 'dash') lines[i] = `- ${line}`
          else lines[i] = `${line}:`
        }
        agree(lines.join('\n'))
      }),
      {numRuns: RUNS * 1.5},
    )
  })
})

describe('keys and scalars met again', () => {
  // The reader remembers the keys and short scalars it has read (by their text): the same text
  // read again, in another document, at another place, or after a different text that shares its
  // slot, must resolve as it did the first time, and a text that merely starts like a known one
  // must not be taken for it.
  it('resolves repeated and look-alike texts as js-yaml does, document after document', () => {
    const texts = ['on', 'On', 'yes', 'y', 'n', '~', 'null', '010', '0x1F', '1e3', '1_000', '.5', '-.inf', 'true', 'tru', 'truex', 'app', 'apps', 'a-very-long-key-name-of-thirty', 'a-very-long-key-name-of-thirty1', '0b101', '+12', '12:30', 'v1']
    let fast = 0
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < texts.length; i++) {
        const k = texts[i]
        const v = texts[(i * 7 + round) % texts.length]
        const doc = `${k}: ${v}\nnested:\n  ${v}: ${k}\n  list:\n  - ${k}\n  - ${v}\n`
        if (agree(doc) === 'fast') fast++
      }
    }
    expect(fast).toBeGreaterThan(texts.length * 2)
  })

  it('takes the key that came next last time, and a key\'s last value, only when the text is exactly it', () => {
    // Each document is read after the one before it: its keys and values are then the guesses.
    const base = 'kind: Pod\nspec:\n  image: nginx\n  name: web\n  port: on\n'
    const lookAlikes = [
      'kind: Pod\nspec:\n  image: nginx:1\n  name: web\n  port: "on"\n', // a longer value; the value quoted
      'kind: Pod\nspec:\n  image: nginx   \n  names: web\n  port: on\n', // spaces after the value; a longer key
      'kind: Pod\nspec:\n  image: nginx #c\n', // a comment after the value
      'kind: Pod\nspec:\n  image:nginx: x\n  name:x: web\n  port:: on\n', // the key followed by more than its colon
      'kind: Pod\nspec:\n  image: nginx\n    x\n', // a continuation line
      'kind: Pod\nspec:\n  image: nginx\n  name:\n  port: o\n', // a shorter value; none
      'kind: Pod\nspec:\n  imag: nginx\n  name: we\n', // a shorter key
    ]
    for (const doc of lookAlikes) {
      expect(agree(base)).toBe('fast')
      agree(doc)
    }
    expect(parseBlockYaml(base)).toEqual({kind: 'Pod', spec: {image: 'nginx', name: 'web', port: true}})
    expect(parseBlockYaml(lookAlikes[0])).toEqual({kind: 'Pod', spec: {image: 'nginx:1', name: 'web', port: 'on'}})
    expect(parseBlockYaml(base)).toEqual({kind: 'Pod', spec: {image: 'nginx', name: 'web', port: true}})
    expect(parseBlockYaml(lookAlikes[3])).toEqual({kind: 'Pod', spec: {'image:nginx': 'x', 'name:x': 'web', 'port:': true}})
  })

  it('tells a quoted scalar from the plain one of the same text, met in either order', () => {
    const texts = ['on', 'yes', '~', 'null', '010', '1.0', 'true', 'v1', "it''s", 'a\\"b', '--listen=:8080']
    let fast = 0
    for (let round = 0; round < 2; round++) {
      for (const v of texts) {
        const plain = /['"\\:]/.test(v) ? 'x' : v
        const docs = [
          `a: "${v}"\nb: ${plain}\nc: '${v.replaceAll('\\"', '"')}'\nd: ["${v}", ${plain}, '${plain}']\n`,
          `d: [${plain}, '${plain}', "${v}"]\nc: '${plain}'\nb: ${plain}\na: "${v}"\n`,
        ]
        for (const doc of round === 0 ? docs : docs.reverse()) if (agree(doc) === 'fast') fast++
      }
    }
    expect(fast).toBe(texts.length * 4)
  })
})
