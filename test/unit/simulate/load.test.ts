// The --load grammar: KIND/NAME=SPEC (METRIC:VALUE@OFFSET[~OFFSET],...; between metrics) or a
// YAML/JSON file, and the demand it gives at each instant (steps, and linear ramps).
import {describe, expect, it} from 'vitest'

import {UserError} from '../../../src/errors.js'
import {changeOffsets, demandAt, loadMilli, parseLoad, pointLabel} from '../../../src/simulate/load.js'

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

describe('--load ramps: VALUE@FROM~TO', () => {
  it('moves linearly from the value before it, held until FROM, to VALUE at TO; steps and ramps mix', () => {
    const l = parseLoad('deployment/web=cpu:300m@0s,3000m@1m~5m,200m@20m,1@20m~21m')
    const [s] = l.series
    expect(s.points).toEqual([
      {atSeconds: 0, value: '300m', milli: 300},
      {atSeconds: 300, value: '3000m', milli: 3000, rampFromSeconds: 60},
      {atSeconds: 1200, value: '200m', milli: 200},
      {atSeconds: 1260, value: '1', milli: 1000, rampFromSeconds: 1200},
    ])
    // 675m a minute from t+1m; 200m at t+20m, then up by 800m over the next minute.
    expect([0, 60, 90, 120, 240, 299, 300, 1199, 1200, 1230, 1260, 9999].map((t) => demandAt(s, t))).toEqual([300, 300, 638, 975, 2325, 2989, 3000, 3000, 200, 600, 1000, 1000])
    // The HPA wakes at each step and at each ramp's start and end.
    expect(changeOffsets(l)).toEqual([60, 300, 1200, 1260])
    expect(s.points.map((p) => pointLabel(p, (t) => `${t}s`))).toEqual(['300m@0s', '3000m@60s~300s', '200m@1200s', '1@1200s~1260s'])
    // Old specs read as before: no ramp.
    expect(parseLoad('deployment/web=cpu:1@0s,2@1m').series[0].points.every((p) => p.rampFromSeconds === undefined)).toBe(true)
    // A ramp down, and one chained to the end of another.
    const [down] = parseLoad('deployment/web=cpu:1,0@0s~100s,500m@100s~200s').series
    expect([0, 50, 100, 150, 200].map((t) => demandAt(down, t))).toEqual([1000, 500, 0, 250, 500])
  })

  it('refuses a ramp naming its metric and point: first point, ending before it starts, starting before the point before it, bad offsets', () => {
    expect(fails('deployment/web=cpu:1@0s~1m')).toBe('invalid --load "deployment/web=cpu:1@0s~1m": metric "cpu", point 1 (1@0s~1m): the first point cannot ramp: there is no value before it to ramp from')
    expect(fails('deployment/web=cpu:1,2@5m~1m')).toBe('invalid --load "deployment/web=cpu:1,2@5m~1m": metric "cpu", point 2 (2@5m~1m): the ramp ends (1m) no later than it starts (5m)')
    expect(fails('deployment/web=cpu:1,2@10m,3@5m~20m')).toBe('invalid --load "deployment/web=cpu:1,2@10m,3@5m~20m": metric "cpu", point 3 (3@5m~20m): the ramp starts before the point before it is reached (offsets strictly increase)')
    expect(fails('deployment/web=cpu:1,2@1m~soon')).toContain('"soon" is not a duration after the start')
    expect(fails('deployment/web=cpu:1,2@~5m')).toContain('"" is not a duration after the start')
  })

  it('in a load file, as a string or as {at: FROM~TO, value}; refusals name file:line:column', () => {
    const read = (text: string) => () => text
    const l = parseLoad('deployment/web=load.yaml', read('cpu: 300m@0s, 3000m@1m~5m\nrps:\n  - {at: 0s, value: 10}\n  - {at: 1m~2m, value: 20}\n'))
    expect(l.series.map((x) => x.points.map((p) => [p.rampFromSeconds ?? null, p.atSeconds, p.milli]))).toEqual([
      [[null, 0, 300], [60, 300, 3000]],
      [[null, 0, 10_000], [60, 120, 20_000]],
    ])
    expect(fails('deployment/web=load.yaml', read('rps:\n  - {at: 0s, value: 10}\n  - {at: 2m~1m, value: 20}\n'))).toBe('load.yaml:3:5: metric "rps", point 2 (20@2m~1m): the ramp ends (1m) no later than it starts (2m)')
    const json = parseLoad('deployment/web=load.json', read('{"cpu": "1@0s,2@1m~2m"}'))
    expect(json.series[0].points[1]).toEqual({atSeconds: 120, value: '2', milli: 2000, rampFromSeconds: 60})
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
