// What check reads once per object, and what it computes only when asked: the uid a Job's
// generated selector is made of, the files that are templates, and the positions of findings
// (several in one object, and related ones in other objects of the same file).
import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {releaseParsed} from '../../../src/check/engine.js'
import {readCheckObject} from '../../../src/check/read.js'
import {templateFiles} from '../../../src/check/templates.js'
import {readAllDocuments} from '../../../src/sources/documents.js'
import {inventedUid} from '../../../src/sources/normalize.js'
import {at, check} from './helpers.js'

const dir = mkdtempSync(join(tmpdir(), 'kctl-check-reading-'))
function file(name: string, text: string): string {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}

async function objects(path: string) {
  return (await readAllDocuments([path])).map((s) => readCheckObject(s, 'default'))
}

describe('reading objects', () => {
  it('invents the uid of an object without one (the same every time), and keeps a written one', async () => {
    const path = file(
      'jobs.yaml',
      `apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: shop}
spec:
  template:
    metadata: {labels: {app: migrate}}
    spec: {restartPolicy: Never, containers: [{name: m, image: m:1}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: given, namespace: shop, uid: 7d3c0e52-0000-4000-8000-000000000001}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: m, image: m:1}]}
`,
    )
    const [invented, given] = await objects(path)
    expect(invented.uid).toBe(inventedUid('batch', 'Job', 'shop', 'migrate'))
    expect(invented.uid).toBe(invented.uid)
    expect(given.uid).toBe('7d3c0e52-0000-4000-8000-000000000001')
    // The generated selector and pod labels carry it.
    const selector = invented.controller!.selector
    expect(selector.state).toBe('ok')
    expect(selector.state === 'ok' && selector.requirements.find((r) => r.key === 'batch.kubernetes.io/controller-uid')?.values).toEqual([invented.uid])
    expect(given.podLabels?.['batch.kubernetes.io/controller-uid']).toBe('7d3c0e52-0000-4000-8000-000000000001')
  })

  it('invents a generateName object\'s uid from its place in the input; keeps its apiVersion and kind once its parsed form is let go', async () => {
    const job = 'apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: run-, namespace: shop}\nspec:\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: x}]}\n'
    const [first, second] = await objects(file('generated.yaml', `${job}---\n${job}`))
    expect(first.uid).toBe(inventedUid('batch', 'Job', 'shop', 'run-<0>'))
    expect(second.uid).toBe(inventedUid('batch', 'Job', 'shop', 'run-<1>'))
    // The object is its own source: one record per object.
    expect(second.src).toBe(second)
    releaseParsed(second.src)
    expect([second.apiVersion, second.kind, second.src.apiVersion, second.src.kind]).toEqual(['batch/v1', 'Job', 'batch/v1', 'Job'])
    expect(() => second.src.raw.metadata).toThrow(/let go/)
  })

  it('names as templates the files with a placeholder in a value or a key, at any depth, outside scripts and data', async () => {
    const doc = (name: string, body: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}}\n${body}`
    const paths = [
      file('value.yaml', doc('a', 'spec:\n  list:\n  - x\n  - nested: [1, "${REPLICAS:-1}"]\n')),
      file('key.yaml', doc('b', 'spec:\n  ${KEY}: 1\n')),
      file('mustache.yaml', doc('c', 'spec: {image: "{{ image.tag }}"}\n')),
      file('data.yaml', doc('d', 'data:\n  script: echo ${HOME}\n')),
      file('multiline.yaml', doc('e', 'spec:\n  text: "a\\n${B}"\n')),
      file('plain.yaml', doc('f', 'spec:\n  text: $HOME costs {1}\n')),
    ]
    const all = (await Promise.all(paths.map(objects))).flat()
    expect([...templateFiles(all)].map((f) => f.slice(dir.length + 1))).toEqual(['value.yaml', 'key.yaml', 'mustache.yaml'])
  })

  it('finds a placeholder written through an escape, in YAML and JSON, as kctl check reads them', async () => {
    const notes: string[] = []
    const paths = [
      file('escaped.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: "a"}\nspec:\n  type: "$\\x7bTYPE}"\n'),
      file('escaped.json', '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "b"}, "spec": {"type": "$\\u007bTYPE}"}}'),
      file('plain-service.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: c\nspec:\n  type: Wrong\n'),
    ]
    const report = await check(paths, {onNote: (n) => notes.push(n)})
    expect(notes.join('\n')).toContain('skipped 2 templates')
    expect(report.findings.map((f) => `${f.rule}:${f.name}`)).toEqual(['invalid-field:c'])
  })
})

describe('positions of findings', () => {
  it('places every finding and related location of several objects of one file, whatever order the rules found them in', async () => {
    const path = file(
      'app.yaml',
      `# an application
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: web:1
          args: ["--port=8080", "--mode=fast"]
          imagePullPolicy: Sometimes
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: shop
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  selector:
    app: api
  ports:
    - port: 80
      targetPort: 8080
`,
    )
    const report = await check([path])
    const findings = report.findings.map((f) => ({at: at(f), related: f.related?.map((r) => `${r.kind}@${r.line}:${r.column}`)}))
    expect(findings).toEqual([
      {at: 'hpa-replicas-out-of-range@7:1', related: ['HorizontalPodAutoscaler@27:3']},
      {at: 'invalid-value@18:28', related: undefined},
      {at: 'hpa-missing-requests@25:1', related: ['Deployment@15:17']},
      {at: 'service-selects-nothing@36:3', related: undefined},
    ])
  })

  it('places each of many findings on one object, and one field asked for many times, at its own line', async () => {
    // Twelve misspelt fields of one ConfigMap (each an unknown-field finding on its own line), and
    // a broad selector that twelve others overlap (its field asked for by each of them).
    const typos = Array.from({length: 12}, (_, i) => `data${i}: {}`).join('\n')
    const narrow = Array.from(
      {length: 12},
      (_, i) => `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: app-${i}}
spec:
  selector: {matchLabels: {app: app-${i}, team: a}}
  template: {metadata: {labels: {app: app-${i}, team: a}}, spec: {containers: [{name: c, image: c:1}]}}
`,
    ).join('')
    const path = file(
      'many.yaml',
      `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
${typos}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: broad}
spec:
  selector: {matchLabels: {team: a}}
  template: {metadata: {labels: {team: a}}, spec: {containers: [{name: c, image: c:1}]}}
${narrow}`,
    )
    const report = await check([path])
    expect(report.findings.filter((f) => f.rule === 'unknown-field').map(at)).toEqual(Array.from({length: 12}, (_, i) => `unknown-field@${4 + i}:1`))
    const overlaps = report.findings.filter((f) => f.rule === 'overlapping-selectors')
    expect(overlaps).toHaveLength(12)
    // Each on the broad one's selector (it overlaps more), naming a narrow one at its own.
    expect(new Set(overlaps.map((f) => `${f.name}@${f.line}:${f.column} ${f.related!.map((r) => `${r.name}@${r.line}:${r.column}`).join()}`))).toEqual(
      new Set(Array.from({length: 12}, (_, i) => `broad@21:3 app-${i}@${28 + 7 * i}:3`)),
    )
  })

  it('places a related location in a previous render, whose objects share their places in input order with the input\'s', async () => {
    const deployment = (name: string, app: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: shop}\nspec:\n  selector:\n    matchLabels: {app: ${app}}\n  template:\n    metadata: {labels: {app: ${app}}}\n    spec: {containers: [{name: c, image: c:1}]}\n`
    const previous = mkdtempSync(join(dir, 'previous-'))
    writeFileSync(join(previous, 'all.yaml'), `${deployment('b', 'b')}---\n${deployment('a', 'a')}`)
    const path = file('renamed.yaml', `${deployment('a', 'a2')}---\n${deployment('b', 'b2')}`)
    const report = await check([path], {against: previous})
    const changes = report.findings.filter((f) => f.rule === 'immutable-selector-change')
    // Each object of the input shares its ordinal with the other object of the previous render.
    expect(changes.map((f) => `${f.name}@${f.line}:${f.column} ${f.related!.map((r) => `${r.file.endsWith('all.yaml') ? 'previous' : r.file}@${r.line}:${r.column}`).join()}`)).toEqual([
      'a@5:3 previous@15:3',
      'b@15:3 previous@5:3',
    ])
  })
})
