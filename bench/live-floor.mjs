// The floor for bench:live: what reading the cluster costs with nothing else. Lists the same four
// collections kctl reads (deployments, replicasets, replicationcontrollers, pods, in all namespaces,
// 500 per page) one after another over one keep-alive connection, and JSON.parses each page. Prints
// the item count.
//
//   KCTL_BENCH_SERVER=https://… KCTL_BENCH_TOKEN=… KCTL_BENCH_CA=ca.pem node bench/live-floor.mjs
import {readFileSync} from 'node:fs'
import https from 'node:https'

const server = process.env.KCTL_BENCH_SERVER
const token = process.env.KCTL_BENCH_TOKEN
const ca = readFileSync(process.env.KCTL_BENCH_CA)
const agent = new https.Agent({keepAlive: true, maxSockets: 1, ca})

function get(path) {
  return new Promise((resolve, reject) => {
    const req = https.get(`${server}${path}`, {agent, headers: {Authorization: `Bearer ${token}`, Accept: 'application/json'}}, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))) : reject(new Error(`${path}: ${res.statusCode}`))))
      res.on('error', reject)
    })
    req.on('error', reject)
  })
}

let items = 0
for (const path of ['/apis/apps/v1/deployments', '/apis/apps/v1/replicasets', '/api/v1/replicationcontrollers', '/api/v1/pods']) {
  let token = ''
  do {
    const page = await get(`${path}?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`)
    items += page.items.length
    token = page.metadata?.continue ?? ''
  } while (token)
}
agent.destroy()
process.stdout.write(`${items}\n`)
