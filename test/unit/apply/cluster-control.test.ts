// The requests ClusterPodControl sends: paths, verbs, bodies, content types, and dryRun=All on every
// write of a dry run (in the DeleteOptions body too: with a body, the server ignores the query).
import {describe, expect, it} from 'vitest'

import {ClusterPodControl, type ApiRequester} from '../../../src/apply/cluster-control.js'
import {adoptPatch, podFromTemplate, PodControlError, releasePatch} from '../../../src/apply/pod-control.js'
import {creates} from './plans.js'

type Sent = {path: string; opts: Parameters<ApiRequester['request']>[1]}

function requester(answer: (s: Sent) => unknown = () => ({metadata: {name: 'web-abcde', uid: 'u1', resourceVersion: '42'}})): ApiRequester & {sent: Sent[]} {
  const sent: Sent[] = []
  return {
    sent,
    async request<T>(path: string, opts: Sent['opts']): Promise<T> {
      const s = {path, opts}
      sent.push(s)
      return answer(s) as T
    },
  }
}

const rs = {kind: 'ReplicaSet' as const, apiVersion: 'apps/v1', namespace: 'ns', name: 'web'}

describe.each([false, true])('ClusterPodControl (dryRun %s)', (dryRun) => {
  const query = dryRun ? {dryRun: 'All'} : undefined

  it('creates, deletes with preconditions, patches and writes status on the right paths', async () => {
    const api = requester()
    const control = new ClusterPodControl(api, dryRun)
    const pod = podFromTemplate(creates(1)[0], 'ns', {containers: []})
    expect(await control.createPod(pod)).toEqual({name: 'web-abcde', uid: 'u1'})
    await control.deletePod('ns', 'web-a', {uid: 'uid-a', resourceVersion: '7'})
    expect(await control.patchPod('ns', 'web-b', adoptPatch('uid-b', {apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-web'}))).toEqual({resourceVersion: '42'})
    await control.patchPod('ns', 'web-c', releasePatch('uid-c', 'uid-web'))
    await control.updateStatus(rs, {metadata: {resourceVersion: '10'}, status: {replicas: 1}})
    await control.getController({...rs, kind: 'ReplicationController', apiVersion: 'v1'})

    expect(api.sent.map((s) => [s.opts.method ?? 'GET', s.path, s.opts.query, s.opts.contentType])).toEqual([
      ['POST', '/api/v1/namespaces/ns/pods', query, undefined],
      ['DELETE', '/api/v1/namespaces/ns/pods/web-a', query, undefined],
      ['PATCH', '/api/v1/namespaces/ns/pods/web-b', query, 'application/strategic-merge-patch+json'],
      ['PATCH', '/api/v1/namespaces/ns/pods/web-c', query, 'application/strategic-merge-patch+json'],
      ['PUT', '/apis/apps/v1/namespaces/ns/replicasets/web/status', query, undefined],
      ['GET', '/api/v1/namespaces/ns/replicationcontrollers/web', undefined, undefined],
    ])
    expect(api.sent[1].opts.body).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      preconditions: {uid: 'uid-a', resourceVersion: '7'},
      ...(dryRun ? {dryRun: ['All']} : {}),
    })
    expect(api.sent[3].opts.body).toEqual({metadata: {uid: 'uid-c', ownerReferences: [{$patch: 'delete', uid: 'uid-web'}]}})
  })

  it('turns the server\'s Status into the error reported', async () => {
    const api = requester(() => {
      throw Object.assign(new Error('forbidden (403) to delete pod ns/web-a: …'), {status: {code: 403, reason: 'Forbidden', message: 'pods "web-a" is forbidden: User "u" cannot delete resource "pods"'}})
    })
    const error = await new ClusterPodControl(api, dryRun).deletePod('ns', 'web-a', {uid: 'u', resourceVersion: '1'}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PodControlError)
    expect((error as PodControlError).toJSON()).toEqual({code: 403, reason: 'Forbidden', message: 'pods "web-a" is forbidden: User "u" cannot delete resource "pods"'})
  })
})
