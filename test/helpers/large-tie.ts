// A ReplicaSet over many pods that no ranking rule tells apart (same node, phase, readiness,
// ready second, creation second, restarts): scaled down, the cut falls inside one tie of all of them.

/** The YAML of ReplicaSet default/big with `replicas` desired over `pods` identical Ready pods. */
export function largeTieYaml(pods: number, replicas: number): string {
  const rsUid = '7a000000-0000-4000-8000-000000000000'
  const docs = [
    `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: big
  namespace: default
  uid: ${rsUid}
  resourceVersion: "10"
  generation: 2
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: big
  template:
    metadata:
      labels:
        app: big
    spec:
      containers:
      - name: app
        image: nginx
status:
  replicas: ${pods}
  fullyLabeledReplicas: ${pods}
  readyReplicas: ${pods}
  availableReplicas: ${pods}
  terminatingReplicas: 0
  observedGeneration: 1
`,
  ]
  for (let i = 0; i < pods; i++) {
    const n = String(i).padStart(5, '0')
    docs.push(`apiVersion: v1
kind: Pod
metadata:
  name: big-${n}
  namespace: default
  uid: 7a000000-0000-4000-8000-0000000${n}
  resourceVersion: "${100 + i}"
  creationTimestamp: "2026-11-22T08:00:00Z"
  labels:
    app: big
  ownerReferences:
  - apiVersion: apps/v1
    kind: ReplicaSet
    name: big
    uid: ${rsUid}
    controller: true
    blockOwnerDeletion: true
spec:
  nodeName: node-a
  containers:
  - name: app
    image: nginx
status:
  phase: Running
  conditions:
  - type: Ready
    status: "True"
    lastTransitionTime: "2026-11-22T08:00:05Z"
  containerStatuses:
  - name: app
    ready: true
    restartCount: 0
`)
  }
  return docs.join('---\n')
}
