// The --load grammar: KIND/NAME=SPEC (METRIC:VALUE@OFFSET,...; between metrics) or a YAML/JSON
// file, and the demand it gives at each instant.
import {describe, expect, it} from 'vitest'

import {UserError} from '../../../src/errors.js'
import {changeOffsets, demandAt, loadMilli, parseLoad} from '../../../src/simulate/load.js'

const fails = (text: string, read?: (p: string) => string) => {
  try {
    parseLoad(text, read)
  } catch (e) {
    expect(e).toBeInstanceOf(UserError)
    return (e as UserError).line
  }
  throw new Error(`${text} was taken`)
}

describe('--load SPEC', () => {
  it('reads a stepped series: each value holds from its offset until the next', () => {
    const l = parseLoad('deployment/web=cpu:600m@0s,1800m@10m,300m@2h')
    expect(l).toMatchObject({kind: 'Deployment', name: 'web'})
    expect(l.series).toEqual([
      {
        metric: 'cpu',
        points: [
          {atSeconds: 0, value: '600m', milli: 600},
          {atSeconds: 600, value: '1800m', milli: 1800},
          {atSeconds: 7200, value: '300m', milli: 300},
        ],
      },
    ])
    const [s] = l.series
    expect([0, 599, 600, 7199, 7200, 86400].map((t) => demandAt(s, t))).toEqual([600, 600, 1800, 1800, 300, 300])
    expect(changeOffsets(l)).toEqual([600, 7200])
  })

  it('takes a point without @ as 0s, several metrics between ;, the kind words --scale takes, and quantities with suffixes', () => {
    const l = parseLoad('deploy/api=cpu:2 ; memory:512Mi,1Gi@1h30m ; requests_per_second:100@0s,250@5m')
    expect(l.kind).toBe('Deployment')
    expect(l.series.map((s) => [s.metric, s.points.map((p) => [p.atSeconds, p.milli])])).toEqual([
      ['cpu', [[0, 2000]]],
      ['memory', [[0, 512 * 1024 ** 2 * 1000], [5400, 1024 ** 3 * 1000]]],
      ['requests_per_second', [[0, 100_000], [300, 250_000]]],
    ])
    expect(changeOffsets(l)).toEqual([300, 5400])
    expect(parseLoad('sts/db=cpu:1.5').kind).toBe('StatefulSet')
    expect(loadMilli('1.5')).toBe(1500)
    expect(loadMilli('10k')).toBe(10_000_000)
    expect(loadMilli('-1')).toBeUndefined()
  })

  it('before the first point, the first value holds', () => {
    const [s] = parseLoad('deployment/web=cpu:100m@1m,200m@2m').series
    expect(demandAt(s, 0)).toBe(100)
  })

  it('refuses, in one line naming the flag: a bad target, a value that is no quantity, offsets out of order, a metric twice, no metric', () => {
    expect(fails('web=cpu:1')).toBe('invalid --load "web=cpu:1": expected KIND/NAME=SPEC or KIND/NAME=FILE, e.g. deployment/web=cpu:600m@0s,1800m@10m')
    expect(fails('pod/web=cpu:1')).toContain('expected KIND/NAME=SPEC')
    expect(fails('deployment/web=cpu:lots')).toBe('invalid --load "deployment/web=cpu:lots": "lots" is not a quantity (e.g. 600m, 1.5, 512Mi)')
    expect(fails('deployment/web=cpu:1@10m,2@5m')).toBe('invalid --load "deployment/web=cpu:1@10m,2@5m": metric "cpu": 2@5m is not after the point before it (offsets strictly increase)')
    expect(fails('deployment/web=cpu:1@soon')).toContain('"soon" is not a duration after the start')
    expect(fails('deployment/web=cpu:1;cpu:2')).toContain('metric "cpu" is given twice')
    expect(fails('deployment/web=600m@0s')).toContain('has no METRIC:')
    expect(fails('deployment/web=')).toContain('expected KIND/NAME=SPEC')
  })
})

describe('--load FILE', () => {
  const file = (text: string) => () => text

  it('reads a mapping of metrics to a SPEC string or a list of {at, value}', () => {
    const l = parseLoad('deployment/web=load.yaml', file('cpu: 600m@0s, 1800m@10m\nrps:\n  - {at: 0s, value: 10}\n  - {at: 1m, value: "20"}\n'))
    expect(l.series.map((s) => [s.metric, s.points.map((p) => [p.atSeconds, p.milli])])).toEqual([
      ['cpu', [[0, 600], [600, 1800]]],
      ['rps', [[0, 10_000], [60, 20_000]]],
    ])
    const json = parseLoad('deployment/web=load.json', file('{"cpu": [{"at": "0s", "value": "1"}]}'))
    expect(json.series[0].points[0].milli).toBe(1000)
  })

  it('names file:line:column for what it refuses', () => {
    expect(fails('deployment/web=load.yaml', file('cpu:\n  - {at: 0s, value: 1}\n  - {at: 0s, value: 2}\n'))).toMatch(/^load\.yaml:3:5: metric "cpu": 2@0s is not after/)
    expect(fails('deployment/web=load.yaml', file('cpu: 600m@0s\nmem: big\n'))).toMatch(/^load\.yaml:2:6: "big" is not a quantity/)
    expect(fails('deployment/web=load.yaml', file('- 1\n'))).toMatch(/^load\.yaml:1:1: a load file is a mapping/)
    expect(fails('deployment/web=load.yaml', file('cpu: [1\n'))).toMatch(/^load\.yaml:\d+:\d+: invalid load file/)
    expect(
      fails('deployment/web=missing.yaml', () => {
        throw new Error('ENOENT: no such file')
      }),
    ).toMatch(/^missing\.yaml: --load: cannot read missing\.yaml/)
  })
})
