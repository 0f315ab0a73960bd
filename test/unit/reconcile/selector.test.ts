// docs/replicaset-controller.md §5: label selectors, map selectors and the defaulted shapes the planner reads.
import {describe, expect, it} from 'vitest'
import type {LabelSelector, LabelSelectorRequirement, SelectorOperator} from '../../../src/model/objects.js'
import {
  compileLabelSelector,
  compileMapSelector,
  labelSelectorProblems,
  parseSelectorString,
  SelectorError,
  selectorMatches,
} from '../../../src/reconcile/selector.js'
import {
  adopts,
  controllerRefTo,
  creates,
  deleted,
  planFor,
  pod,
  releases,
  replicaSet,
  replicationController,
  statusUpdate,
} from '../../helpers/builders.js'

const matches = (selector: LabelSelector, labels: Record<string, string>) => selectorMatches(compileLabelSelector(selector), labels)
const expr = (key: string, operator: string, values?: string[]): LabelSelectorRequirement =>
  ({key, operator: operator as SelectorOperator, ...(values === undefined ? {} : {values})})
const matchesString = (text: string, labels: Record<string, string>) => selectorMatches(parseSelectorString(text), labels)

describe('§5.1 LabelSelector semantics (LabelSelectorAsSelector)', () => {
  it('§5.1.1 a nil selector matches nothing, not even an empty label set', () => {
    expect(matches(null, {})).toBe(false)
    expect(matches(null, {app: 'web'})).toBe(false)
  })

  it('§5.1.1 an RS with a nil selector claims nothing: its own pods are released, orphans are not adopted', () => {
    const rs = replicaSet('web', {selector: null, replicas: 1})
    const plan = planFor(rs, [pod('owned', {owner: rs}), pod('orphan')])
    expect(releases(plan).map((a) => a.pod)).toEqual(['owned'])
    expect(adopts(plan)).toEqual([])
    expect(plan.active).toBe(0)
    expect(creates(plan)).toHaveLength(1)
  })

  it('§5.1.2 a non-nil empty selector matches everything', () => {
    expect(matches({}, {})).toBe(true)
    expect(matches({}, {app: 'anything', x: 'y'})).toBe(true)
    expect(matches({matchLabels: {}, matchExpressions: []}, {a: 'b'})).toBe(true)
  })

  it('§5.1.3 matchLabels and matchExpressions are ANDed, including two requirements on one key', () => {
    const selector: LabelSelector = {matchLabels: {app: 'a', tier: 'web'}, matchExpressions: [expr('env', 'In', ['prod', 'dev'])]}
    expect(matches(selector, {app: 'a', tier: 'web', env: 'dev'})).toBe(true)
    expect(matches(selector, {app: 'a', tier: 'web'})).toBe(false)
    expect(matches(selector, {app: 'a', env: 'dev'})).toBe(false)
    const sameKey: LabelSelector = {matchExpressions: [expr('app', 'In', ['a', 'b']), expr('app', 'NotIn', ['b'])]}
    expect(matches(sameKey, {app: 'a'})).toBe(true)
    expect(matches(sameKey, {app: 'b'})).toBe(false)
  })

  it('§5.1.4 only In, NotIn, Exists, DoesNotExist exist; any other operator string is a conversion error', () => {
    for (const op of ['In', 'NotIn', 'Exists', 'DoesNotExist']) {
      const values = op === 'In' || op === 'NotIn' ? ['x'] : undefined
      expect(() => compileLabelSelector({matchExpressions: [expr('k', op, values)]})).not.toThrow()
    }
    for (const op of ['in', 'notin', 'exists', 'Gt', 'Lt', '=', '']) {
      expect(() => compileLabelSelector({matchExpressions: [expr('k', op, ['1'])]}), op).toThrow(SelectorError)
    }
  })

  it('§5.1.5 In/equality: key present and value in the set', () => {
    const s: LabelSelector = {matchExpressions: [expr('tier', 'In', ['web', 'api'])]}
    expect(matches(s, {tier: 'api'})).toBe(true)
    expect(matches(s, {tier: 'db'})).toBe(false)
    expect(matches(s, {})).toBe(false)
    expect(matches({matchLabels: {tier: ''}}, {tier: ''})).toBe(true)
    expect(matches({matchLabels: {tier: ''}}, {})).toBe(false)
  })

  it('§5.1.5 NotIn is true when the key is absent, otherwise the value must not be in the set', () => {
    const s: LabelSelector = {matchExpressions: [expr('env', 'NotIn', ['prod'])]}
    expect(matches(s, {})).toBe(true)
    expect(matches(s, {env: 'dev'})).toBe(true)
    expect(matches(s, {env: 'prod'})).toBe(false)
  })

  it('§5.1.5 Exists: key present with any value (empty included); DoesNotExist: key absent', () => {
    expect(matches({matchExpressions: [expr('tier', 'Exists')]}, {tier: ''})).toBe(true)
    expect(matches({matchExpressions: [expr('tier', 'Exists')]}, {other: 'x'})).toBe(false)
    expect(matches({matchExpressions: [expr('tier', 'DoesNotExist')]}, {other: 'x'})).toBe(true)
    expect(matches({matchExpressions: [expr('tier', 'DoesNotExist')]}, {tier: ''})).toBe(false)
  })

  it('§5.1.6 construction errors: In/NotIn without values, Exists/DoesNotExist with values, bad keys and values', () => {
    const bad: LabelSelector[] = [
      {matchExpressions: [expr('tier', 'In', [])]},
      {matchExpressions: [expr('tier', 'NotIn', [])]},
      {matchExpressions: [expr('tier', 'Exists', ['x'])]},
      {matchExpressions: [expr('tier', 'DoesNotExist', ['x'])]},
      {matchLabels: {'-bad': 'x'}},
      {matchLabels: {'a/b/c': 'x'}},
      {matchLabels: {'UPPER.example.com/name': 'x'}},
      {matchLabels: {[`${'k'.repeat(64)}`]: 'x'}},
      {matchLabels: {app: 'has space'}},
      {matchLabels: {app: 'v'.repeat(64)}},
      {matchLabels: {app: '-leading'}},
      {matchExpressions: [expr('tier', 'In', ['ok', 'not ok'])]},
    ]
    for (const selector of bad) expect(() => compileLabelSelector(selector), JSON.stringify(selector)).toThrow(SelectorError)
    const good: LabelSelector[] = [
      {matchLabels: {'example.com/app': 'a-b_c.d', app: ''}},
      {matchLabels: {[`${'k'.repeat(63)}`]: 'v'.repeat(63)}},
      {matchExpressions: [expr('tier', 'Exists', [])]},
    ]
    for (const selector of good) expect(() => compileLabelSelector(selector), JSON.stringify(selector)).not.toThrow()
  })

  it('§5.1.6 labelSelectorProblems reports the same invalid selectors with the field path', () => {
    expect(labelSelectorProblems({matchExpressions: [{key: 'tier', operator: 'In', values: []}]})).toHaveLength(1)
    expect(labelSelectorProblems({matchExpressions: [{key: 'tier', operator: 'in', values: ['a']}]})[0].path).toEqual(['matchExpressions', 0, 'operator'])
    expect(labelSelectorProblems({matchLabels: {app: 'web'}})).toEqual([])
    expect(labelSelectorProblems(null)).toEqual([])
  })

  it('§5.1.7 string selectors: =, ==, != (absent key matches), key, !key, in (…), notin (…)', () => {
    expect(matchesString('app=web', {app: 'web'})).toBe(true)
    expect(matchesString('app==web', {app: 'web'})).toBe(true)
    expect(matchesString('app!=web', {})).toBe(true)
    expect(matchesString('app!=web', {app: 'web'})).toBe(false)
    expect(matchesString('app', {app: ''})).toBe(true)
    expect(matchesString('!app', {app: ''})).toBe(false)
    expect(matchesString('!app', {})).toBe(true)
    expect(matchesString('env in (a, b)', {env: 'b'})).toBe(true)
    expect(matchesString('env notin (a,b)', {})).toBe(true)
    expect(matchesString('env notin (a,b)', {env: 'a'})).toBe(false)
    expect(matchesString('app=web,tier=fe', {app: 'web'})).toBe(false)
    expect(matchesString('', {x: 'y'})).toBe(true)
  })

  it('§5.1.7 string selectors: > and < need one integer; a missing key or a non-integer value does not match', () => {
    expect(matchesString('n>5', {n: '6'})).toBe(true)
    expect(matchesString('n>5', {n: '5'})).toBe(false)
    expect(matchesString('n<5', {n: '4'})).toBe(true)
    expect(matchesString('n>5', {})).toBe(false)
    expect(matchesString('n<5', {n: 'four'})).toBe(false)
    expect(() => parseSelectorString('n>five')).toThrow(SelectorError)
  })

  it('§5.1.7 the string syntax knows only lower-case in/notin', () => {
    expect(() => parseSelectorString('env In (a)')).toThrow(SelectorError)
    expect(() => parseSelectorString('env NotIn (a)')).toThrow(SelectorError)
  })
})

describe('§5.2 map selectors', () => {
  it('§5.2.1 a map is an AND of equalities; an empty map matches everything', () => {
    const s = compileMapSelector({app: 'x', tier: 'web'})
    expect(selectorMatches(s, {app: 'x', tier: 'web', extra: '1'})).toBe(true)
    expect(selectorMatches(s, {app: 'x'})).toBe(false)
    expect(selectorMatches(compileMapSelector({}), {anything: 'goes'})).toBe(true)
  })

  it('§5.2.1 an RC selector (a map, as matchLabels) claims pods with all of its labels', () => {
    const rc = replicationController('frontend', {templateLabels: {app: 'x', tier: 'fe'}, replicas: 2})
    const plan = planFor(rc, [pod('both', {labels: {app: 'x', tier: 'fe'}}), pod('one', {labels: {app: 'x'}})])
    expect(adopts(plan).map((a) => a.pod)).toEqual(['both'])
    expect(plan.active).toBe(1)
  })
})

describe('§5.5 / §5.7 defaulted shapes (defaulting itself happens where objects are read)', () => {
  it('§5.5.1 an RC whose selector was defaulted from its template labels adopts orphans with those labels', () => {
    const rc = replicationController('rc', {templateLabels: {app: 'x'}, replicas: 1})
    expect(rc.selector).toEqual({matchLabels: {app: 'x'}})
    expect(rc.labels).toEqual({app: 'x'})
    const plan = planFor(rc, [pod('orphan', {labels: {app: 'x'}})])
    expect(adopts(plan).map((a) => a.pod)).toEqual(['orphan'])
    expect(creates(plan)).toEqual([])
  })

  it('§5.5.2 / §5.7 replicas defaulted to 1 and minReadySeconds to 0: one pod wanted, a Ready pod is available at once', () => {
    for (const w of [replicaSet('web'), replicationController('web')]) {
      expect(w.replicas).toBe(1)
      const plan = planFor(w, [pod('p', {owner: w, readySince: '2026-11-22T09:59:59Z'})])
      expect(plan.desired).toBe(1)
      expect(plan.diff).toBe(0)
      expect(statusUpdate(plan)?.to).toMatchObject({replicas: 1, readyReplicas: 1, availableReplicas: 1})
    }
  })
})

describe('§5.8 tricky selector scenarios', () => {
  it('5.8.1 NotIn [prod] matches a pod without env', () => {
    expect(matches({matchExpressions: [expr('env', 'NotIn', ['prod'])]}, {app: 'web'})).toBe(true)
  })

  it('5.8.2 matchLabels {app: a} plus app In [b] matches nothing', () => {
    const s: LabelSelector = {matchLabels: {app: 'a'}, matchExpressions: [expr('app', 'In', ['b'])]}
    for (const labels of [{app: 'a'}, {app: 'b'}, {}, {app: 'a', x: 'b'}] as Record<string, string>[]) expect(matches(s, labels)).toBe(false)
  })

  it('5.8.3 tier In [] is invalid: the controller drops the sync — no action, no status write, a warning', () => {
    expect(() => compileLabelSelector({matchExpressions: [expr('tier', 'In', [])]})).toThrow(SelectorError)
    const rs = replicaSet('web', {selector: {matchExpressions: [expr('tier', 'In', [])]}, replicas: 3})
    const plan = planFor(rs, [pod('orphan', {labels: {tier: 'x'}}), pod('owned', {owner: rs})])
    expect(plan.actions).toEqual([])
    expect(plan.pending).toBe(0)
    expect(plan.warnings.some((w) => /invalid selector/i.test(w))).toBe(true)
  })

  it('5.8.4 tier Exists matches a pod labelled tier: ""', () => {
    expect(matches({matchExpressions: [expr('tier', 'Exists')]}, {tier: ''})).toBe(true)
  })

  it('5.8.5 RC without spec.selector, template {app: x}: selector and own labels become {app: x}', () => {
    const rc = replicationController('rc', {templateLabels: {app: 'x'}})
    expect(rc.selector).toEqual({matchLabels: {app: 'x'}})
    expect(rc.labels).toEqual({app: 'x'})
    expect(rc.selectorDefaulted).toBe(true)
    const plan = planFor(rc, [pod('a', {labels: {app: 'x'}, owner: rc})])
    expect(plan.active).toBe(1)
    expect(plan.actions.filter((a) => a.type !== 'updateStatus')).toEqual([])
  })

  it('5.8.6 RC selector changed {app: x} → {app: y} with 3 owned app: x pods: all released, 3 created with app: y', () => {
    const rc = replicationController('rc', {templateLabels: {app: 'y'}, replicas: 3})
    const pods = ['a', 'b', 'c'].map((n) => pod(n, {labels: {app: 'x'}, owner: rc}))
    const plan = planFor(rc, pods)
    expect(releases(plan).map((a) => a.pod).sort()).toEqual(['a', 'b', 'c'])
    expect(plan.active).toBe(0)
    expect(plan.diff).toBe(-3)
    const made = creates(plan)
    expect(made).toHaveLength(3)
    for (const c of made) {
      expect(c.labels).toEqual({app: 'y'})
      expect(c.ownerReference).toEqual({...controllerRefTo(rc), apiVersion: 'v1', kind: 'ReplicationController'})
    }
    expect(deleted(plan)).toEqual([])
  })

  it('5.8.7 operator written "in" (lower case) is invalid', () => {
    expect(() => compileLabelSelector({matchExpressions: [expr('tier', 'in', ['a'])]})).toThrow(SelectorError)
    expect(labelSelectorProblems({matchExpressions: [{key: 'tier', operator: 'in', values: ['a']}]})).toHaveLength(1)
    const rs = replicaSet('web', {selector: {matchExpressions: [expr('tier', 'in', ['a'])]}, replicas: 1})
    const plan = planFor(rs, [pod('p', {labels: {tier: 'a'}})])
    expect(plan.actions).toEqual([])
    expect(plan.warnings.some((w) => /invalid selector/i.test(w))).toBe(true)
  })
})
