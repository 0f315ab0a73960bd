// What a live watch starts, from the registry's watch parts: the informers in the order they
// always started (the synced status lists them in that order), what each group must be allowed
// to list, and how a refusal names what it leaves out.
import {describe, expect, it} from 'vitest'
import {watchGroups} from '../../../src/watch/groups.js'

describe('watchGroups', () => {
  const groups = watchGroups()

  it('starts the informers in the order kctl watch always did (pods first, then these; a shared one once)', () => {
    const started = [...new Set(['pods', ...groups.flatMap((g) => g.resources.map((r) => r.resource))])]
    expect(started).toEqual([
      'pods',
      'replicasets',
      'replicationcontrollers',
      'deployments',
      'statefulsets',
      'daemonsets',
      'controllerrevisions',
      'persistentvolumeclaims',
      'nodes',
      'jobs',
      'cronjobs',
      'services',
      'endpointslices',
      'endpoints',
      'horizontalpodautoscalers',
    ])
  })

  it('plans StatefulSets with DaemonSets and Jobs with CronJobs; each group checks what it always checked', () => {
    expect(groups.map((g) => (g.by === 'object' ? g.by : g.members.map((m) => m.name)))).toEqual(['object', 'object', ['statefulset', 'daemonset'], ['job', 'cronjob'], ['endpointslice'], ['horizontalpodautoscaling']])
    expect(groups.map((g) => g.requires)).toEqual([[], ['deployments'], ['statefulsets', 'nodes'], ['jobs'], ['services', 'endpointslices', 'endpoints', 'nodes'], ['horizontalpodautoscalers']])
    expect(groups.filter((g) => g.requires.length > 0).map((g) => g.what)).toEqual(['deployments', 'statefulsets and daemonsets', 'jobs and cronjobs', 'services', 'horizontalpodautoscalers'])
  })

  it('a Node event marks every namespace; the Services set no clock for their retries', () => {
    const scoped = groups.flatMap((g) => g.resources.filter((r) => r.clusterScoped).map((r) => r.resource))
    expect([...new Set(scoped)]).toEqual(['nodes'])
    const services = groups.find((g) => g.by === 'namespace' && g.members.some((m) => m.name === 'endpointslice'))
    expect(services?.by === 'namespace' && services.members[0].watch.clockRequeues).toBe(false)
  })
})
