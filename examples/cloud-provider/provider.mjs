#!/usr/bin/env node
// A complete external cloud provider for `kctl --cloud-provider-exec`, in one file: its "cloud"
// is a JSON file (KCTL_EXAMPLE_CLOUD_STATE, default kctl-example-cloud.json in the temp
// directory) in which each load balancer is an address from 198.51.100.0/24 and the hosts it was
// last sent. kctl runs it once per call with one JSON request on stdin and reads one JSON answer
// on stdout (see docs/reconcile.md, "Cloud providers"). A Service annotated
// `cloud.example/fail: <message>` makes EnsureLoadBalancer fail, to show what a failure does.
import {mkdirSync, readFileSync, rmdirSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

const STATE = process.env.KCTL_EXAMPLE_CLOUD_STATE ?? join(tmpdir(), 'kctl-example-cloud.json')
const request = JSON.parse(readFileSync(0, 'utf8'))
const name = request.loadBalancerName
const hosts = (request.nodes ?? []).map((n) => ({name: n.metadata.name, ...(n.spec?.providerID ? {providerID: n.spec.providerID} : {})}))

// kctl may run several calls at once: one at a time through a lock directory.
function locked(fn) {
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(`${STATE}.lock`)
      break
    } catch (e) {
      if (e.code !== 'EEXIST' || tries > 500) throw e
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
    }
  }
  try {
    let state = {}
    try {
      state = JSON.parse(readFileSync(STATE, 'utf8'))
    } catch {}
    const answer = fn(state)
    writeFileSync(STATE, JSON.stringify(state, null, 2))
    return answer
  } finally {
    rmdirSync(`${STATE}.lock`)
  }
}

const status = (lb) => ({ingress: [{ip: lb.ip, ipMode: 'VIP'}]})

const answer = locked((state) => {
  const lb = state[name]
  switch (request.method) {
    case 'GetLoadBalancer':
      return lb ? {exists: true, status: status(lb), hosts: lb.hosts} : {exists: false}
    case 'EnsureLoadBalancer': {
      const fail = request.service.metadata.annotations?.['cloud.example/fail']
      if (fail) return {error: {kind: 'Error', message: fail}}
      const used = new Set(Object.values(state).map((x) => x.ip))
      let ip = lb?.ip
      for (let n = 1; !ip && n < 255; n++) if (!used.has(`198.51.100.${n}`)) ip = `198.51.100.${n}`
      if (!ip) return {error: {kind: 'RetryAfter', message: 'no free address', retryAfterSeconds: 60}}
      state[name] = {service: `${request.service.metadata.namespace}/${request.service.metadata.name}`, ip, hosts}
      return {status: status(state[name])}
    }
    case 'UpdateLoadBalancer':
      if (!lb) return {error: {kind: 'Error', message: `load balancer ${name} does not exist`}}
      lb.hosts = hosts
      return {}
    case 'EnsureLoadBalancerDeleted':
      delete state[name]
      return {}
    default:
      return {error: {kind: 'Error', message: `unknown method ${request.method}`}}
  }
})
process.stdout.write(`${JSON.stringify(answer)}\n`)
