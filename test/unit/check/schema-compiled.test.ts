// The schema walk compiles each schema once and reuses it for every object of the kind: the same
// mistakes are found in the hundredth copy as in the first, field names that are also names of
// JavaScript's object prototype are fields like any other, and the keys of a map (labels, data)
// are all checked against the map's value schema.
import {describe, expect, it} from 'vitest'

import {SchemaSet} from '../../../src/check/schema.js'

const schemas = new SchemaSet(36)
const found = schemas.lookup('apps', 'v1', 'Deployment')
if (!('schema' in found)) throw new Error('no Deployment schema')
const deployment = (i: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {name: `web-${i}`, labels: {app: 'web', constructor: 'x', [`k${i}`]: 'v'}},
  spec: {
    selector: {matchLabels: {app: 'web'}},
    template: {
      metadata: {labels: {app: 'web'}},
      spec: {containers: [{name: 'web', image: 'web:1', imagePullPolicy: i % 2 ? 'Always' : 'Sometimes', ports: [{containerPort: i % 3 ? 80 : 'http'}]}]},
    },
    ...extra,
  },
})

describe('compiled schemas', () => {
  it('find the same issues in every copy of a kind, wherever they are', () => {
    for (let i = 0; i < 60; i++) {
      const issues = schemas.validate(deployment(i), found.schema).map((x) => `${x.rule} ${x.path.join('.')}`)
      const expected = []
      if (i % 2 === 0) expected.push('invalid-value spec.template.spec.containers.0.imagePullPolicy')
      if (i % 3 === 0) expected.push('invalid-type spec.template.spec.containers.0.ports.0.containerPort')
      expect(issues, `copy ${i}`).toEqual(expected)
    }
  })

  it('report a field named like a property of every JavaScript object, and accept it as a map key', () => {
    const issues = schemas.validate(deployment(1, {constructor: 1, toString: 'x', replicas: 'two'}), found.schema)
    expect(issues.map((x) => `${x.rule} ${x.path.join('.')}`)).toEqual(['unknown-field spec.constructor', 'unknown-field spec.toString', 'invalid-type spec.replicas'])
  })

  it('check every value of a map against its value schema', () => {
    const issues = schemas.validate(deployment(1, {template: {metadata: {labels: {app: 'web', n: 1, m: true}}, spec: {containers: []}}}), found.schema)
    expect(issues.map((x) => `${x.rule} ${x.path.join('.')}: ${x.message}`)).toEqual([
      'invalid-type spec.template.metadata.labels.n: expected a string, got the integer 1',
      'invalid-type spec.template.metadata.labels.m: expected a string, got the boolean true',
    ])
  })
})

describe('an object with one issue', () => {
  // validate() walks a clean object without building a path, and walks again only an object with an
  // issue: each kind of issue alone, anywhere, must send it to the second walk.
  const only = (spec: Record<string, unknown>) => schemas.validate({apiVersion: 'apps/v1', kind: 'Deployment', metadata: {name: 'web'}, spec}, found.schema).map((x) => `${x.rule} ${x.path.join('.')}`)
  const template = (container: Record<string, unknown>) => ({selector: {matchLabels: {app: 'web'}}, template: {metadata: {labels: {app: 'web'}}, spec: {containers: [{name: 'web', image: 'web:1'}, container]}}})

  it('is clean without one, status and all', () => {
    expect(schemas.validate({apiVersion: 'apps/v1', kind: 'Deployment', metadata: {name: 'web'}, spec: template({name: 'b', image: 'b:1'}), status: {anything: 1}}, found.schema)).toEqual([])
  })

  it('has it found wherever it is', () => {
    expect(only({...template({name: 'b', image: 'b:1'}), status: 1})).toEqual(['unknown-field spec.status'])
    expect(only(template({name: 'b', image: 'b:1', imagePullPolicy: 'Sometimes'}))).toEqual(['invalid-value spec.template.spec.containers.1.imagePullPolicy'])
    expect(only(template({image: 'b:1'}))).toEqual(['missing-field spec.template.spec.containers.1.name'])
    expect(only(template({name: 'b', image: 'b:1', ports: [{containerPort: 80}, {containerPort: 'http'}]}))).toEqual(['invalid-type spec.template.spec.containers.1.ports.1.containerPort'])
    expect(only(template({name: 'b', image: 'b:1', readinessProbe: {httpGet: {port: true}}}))).toEqual(['invalid-type spec.template.spec.containers.1.readinessProbe.httpGet.port'])
    expect(only({...template({name: 'b', image: 'b:1'}), strategy: {rollingUpdate: {maxSurge: 1.5}}})).toEqual(['invalid-type spec.strategy.rollingUpdate.maxSurge'])
    expect(only(template({name: 'b', image: 'b:1', args: 'x'}))).toEqual(['invalid-type spec.template.spec.containers.1.args'])
  })

  it('has it found by a custom resource schema (x-kubernetes-int-or-string)', () => {
    const schema = {type: 'object', properties: {port: {'x-kubernetes-int-or-string': true}}}
    expect(schemas.validate({port: 'http'}, schema)).toEqual([])
    expect(schemas.validate({port: 1.5}, schema).map((x) => `${x.rule} ${x.path.join('.')}`)).toEqual(['invalid-type port'])
  })
})
