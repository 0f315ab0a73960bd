// The rule catalog: fixed ids, default severities, one-line summaries and explanations
// (`kctl check --rules`, SARIF tool.driver.rules). Behaviour follows the API server's validation and
// defaulting of selectors (apimachinery's LabelSelectorAsSelector, ValidateLabelSelector).
import type {RuleId, RuleInfo} from '../model/check.js'

const CONTROLLERS = ['ReplicationController', 'ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job'] as const

export const RULES: readonly RuleInfo[] = [
  {
    id: 'selector-template-mismatch',
    severity: 'error',
    summary: "The controller's selector does not match its own pod template's labels.",
    explanation:
      'Every controller must select the pods it creates. The API server rejects such an object ("selector does not match template labels") for ReplicaSet, Deployment, StatefulSet, DaemonSet, ReplicationController and a Job with manualSelector: true; the finding names each requirement the template fails (matchLabels and matchExpressions alike: In, NotIn, Exists, DoesNotExist) and points at the first of them. A selector whose requirements contradict each other (app=a and app in (b)) can match no pod at all and is reported here too. For a Job without manualSelector the API server adds batch.kubernetes.io/controller-uid to the selector and the uid and job-name labels to the template, so only the labels written by hand are compared.',
    kinds: CONTROLLERS,
    configurable: true,
  },
  {
    id: 'empty-selector',
    severity: 'error',
    summary: 'The selector is missing or empty, and nothing defaults it.',
    explanation:
      'An apps/v1 ReplicaSet, Deployment, StatefulSet or DaemonSet needs spec.selector, and an empty one ({}) would select every pod in the namespace: the API server rejects both (the Deployment and DaemonSet controllers would also refuse to act on a selector that selects everything). A ReplicationController without a selector takes its template labels as the selector; without template labels either, it is rejected. A Job with manualSelector: true needs a selector of its own. A Service without a selector is not reported: its endpoints are then managed by hand.',
    kinds: CONTROLLERS,
    configurable: true,
  },
  {
    id: 'invalid-selector',
    severity: 'error',
    summary: 'The selector cannot be parsed as a label selector.',
    explanation:
      'Operators are case-sensitive (In, NotIn, Exists, DoesNotExist); In and NotIn need at least one value, Exists and DoesNotExist take none; keys must be qualified names (an optional DNS-subdomain prefix and "/", then at most 63 characters of [A-Za-z0-9_.-] starting and ending with an alphanumeric) and values at most 63 such characters. The API server rejects the object; if one got stored, its controller would drop every sync with a conversion error. Map selectors (ReplicationController, Service) must be a mapping of label keys to string values.',
    kinds: [...CONTROLLERS, 'Service'],
    configurable: true,
  },
  {
    id: 'overlapping-selectors',
    severity: 'warning',
    summary: 'Two controllers in one namespace select a common set of pods.',
    explanation:
      "Only controllers of one apply set are compared, and never a Job without manualSelector (the API server selects its pods by its own uid). The API server has never checked this (kubernetes/kubernetes#2210). Both selectors are read as sets of requirements and kctl decides whether their conjunction can be satisfied, then reports one concrete label set both match, preferring a real one: the labels of a pod template or of a pod in the input. A pod with such labels is claimed by whichever controller syncs first once it is orphaned; a Deployment or DaemonSet may adopt the other's ReplicaSets or revisions; the controllers' counts and rollouts then interfere. Pairs are reported when the selectors constrain a common label key (e.g. app=web against app in (web,api), or against app=web,track=canary), or when a template or pod in the input matches both; two selectors over entirely different keys (app=a against team=x) intersect only for a pod that carries both, and are reported only when such a pod or template is in the input. A ReplicaSet owned by the Deployment whose selector it extends is not reported. Each pair is reported once, on the controller that overlaps more others (a broad selector is where the fix is), naming the other; a kctl.io/ignore on either one silences the pair.",
    kinds: CONTROLLERS,
    configurable: true,
  },
  {
    id: 'rc-selector-defaulted',
    severity: 'info',
    summary: "A ReplicationController's selector is defaulted from its template labels.",
    explanation:
      'With no spec.selector (or an empty one) the API server copies the template labels into the selector, and into the RC\'s own labels if it has none (SetDefaults_ReplicationController). The RC then owns every orphaned pod that carries all those labels, and adding a label to the template later does not change the stored selector. Write the selector out to make it explicit.',
    kinds: ['ReplicationController'],
    configurable: true,
  },
  {
    id: 'immutable-selector-change',
    severity: 'error',
    severities: 'warning for a ReplicationController, whose selector can change',
    summary: 'The selector differs from the live object (--against-cluster) or from the previous render (--against DIR).',
    explanation:
      'apps/v1 selectors (ReplicaSet, Deployment, StatefulSet, DaemonSet) and Job selectors are immutable: the API server rejects the update with "field is immutable", so the apply fails after everything before it in the run has been applied; the object has to be deleted and created again (its pods with it) or renamed. Selectors are compared as the API server does (apiequality.Semantic.DeepEqual: matchLabels as a map, matchExpressions in order, an absent list equal to an empty one). A ReplicationController\'s selector is mutable: the API server accepts the change, the controller releases every pod that matches only the old selector (orphaned, still running) and creates new pods from the template to reach spec.replicas.',
    kinds: CONTROLLERS,
    configurable: true,
  },
  {
    id: 'immutable-claim-templates-change',
    severity: 'error',
    summary: "A StatefulSet's volumeClaimTemplates differ from the live object (--against-cluster) or from the previous render (--against DIR).",
    explanation:
      'volumeClaimTemplates cannot be changed on an existing StatefulSet: the API server rejects the update ("updates to statefulset spec for fields other than \'replicas\', \'ordinals\', \'template\', \'updateStrategy\', \'revisionHistoryLimit\', \'persistentVolumeClaimRetentionPolicy\' and \'minReadySeconds\' are forbidden"). The templates are compared as the API server stores them: volumeMode defaulted to Filesystem, quantities by value, apiVersion, kind and status left out. Without --against or --against-cluster there is nothing to compare with and the rule says nothing. To change them, delete the StatefulSet with --cascade=orphan and create it again (its pods and claims stay), and resize existing claims separately.',
    kinds: ['StatefulSet'],
    configurable: true,
  },
  {
    id: 'invalid-field',
    severity: 'error',
    summary: 'A field has the wrong type or an out-of-range value.',
    explanation:
      "The same checks kctl plan applies to ReplicaSets, ReplicationControllers and Pods (the API server's decoding and validation: integers where Go has int32, strings, label syntax, RFC 3339 times, negative replicas), plus the fields the controllers read on Deployments, StatefulSets, DaemonSets, Jobs, Services and HorizontalPodAutoscalers (replicas, parallelism, completions, restartPolicy, update strategies, maxSurge/maxUnavailable, minReplicas/maxReplicas). YAML is read as Kubernetes reads it (YAML 1.1: unquoted yes/no/on/off are booleans).",
    kinds: [...CONTROLLERS, 'Pod', 'Service', 'HorizontalPodAutoscaler'],
    configurable: true,
  },
  {
    id: 'duplicate-object',
    severity: 'error',
    summary: 'The same object (group, kind, namespace, name) appears twice in one apply set.',
    explanation:
      'kubectl apply would apply both copies in turn and the last one would win; the two copies usually differ. Only objects applied together are compared (--apply-set: by default the files directly in one folder, or a kustomize root with everything below it), so alternatives in sibling folders (tutorials, a base and its overlays) are not duplicates; objects named by generateName never are. extensions and apps name the same Deployments, DaemonSets and ReplicaSets. Objects without a namespace count as being in -n (default: "default").',
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'service-selects-nothing',
    severity: 'warning',
    summary: "A Service's selector matches no pod template (and no pod) in its namespace in the input.",
    explanation:
      'The EndpointSlice controller would publish no endpoints, so the Service would answer nothing. The finding names the template that comes closest and the labels it lacks. Pod templates are those of ReplicationControllers, ReplicaSets, Deployments, StatefulSets, DaemonSets, Jobs, CronJobs and PodTemplates, and bare Pods count too. Services without a selector (endpoints managed by hand) and ExternalName Services are not checked. The pods are looked for nearest first (the file of the Service, its apply set, then the whole input): a Service is reported only when nothing in the whole input matches. When its apply set holds custom resources, an operator may create the pods, and the finding is info. If the pods are deployed from elsewhere, turn the rule off for those files or annotate the Service.',
    kinds: ['Service'],
    configurable: true,
  },
  {
    id: 'service-target-port-undefined',
    severity: 'warning',
    summary: "A Service's named targetPort that no pod template (or pod) it selects defines.",
    explanation:
      'The endpoint controllers look a named targetPort up on each selected pod (FindPort): a container port of that name and protocol in spec.containers, then in sidecars (init containers with restartPolicy: Always). On a pod that has none, the EndpointSlice controller leaves that port out of the pod\'s endpoint (the pod lands in a slice without it, or with no ports at all) and the legacy Endpoints object leaves the pod out, so the Service port answers nothing. Checked against every pod template and Pod the selector matches in the input (templates of Deployments, ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets, Jobs, CronJobs, PodTemplates); reported only when none of them defines the port. kctl plan shows the same per pod (missingPorts).',
    kinds: ['Service'],
    configurable: true,
  },
  {
    id: 'publish-not-ready-without-probe',
    severity: 'warning',
    summary: 'publishNotReadyAddresses: true on a Service whose selected pod templates have no readiness probe.',
    explanation:
      "With publishNotReadyAddresses the endpoint controllers mark every selected pod's endpoint ready, whatever the pod's Ready condition, starting and terminating pods included (DNS answers with them, kube-proxy sends them traffic). What is left to tell a pod that can answer from one that cannot is the endpoint's serving condition, the pod's Ready condition; without a readiness probe that turns true as soon as the containers start. Meant for peers that must find each other before they are ready (a StatefulSet's headless Service); then give the containers a readiness probe for everything else, or drop the flag.",
    kinds: ['Service'],
    configurable: true,
  },
  {
    id: 'lb-local-selects-nothing',
    severity: 'warning',
    summary: 'A LoadBalancer Service with externalTrafficPolicy: Local whose selector matches no pod template or pod in the input.',
    explanation:
      "With externalTrafficPolicy: Local a node forwards load-balancer traffic only to endpoints on itself, and answers the load balancer's health check (healthCheckNodePort) only while it runs a ready endpoint of the Service. A selector that matches nothing gives no endpoints anywhere: every node fails the health check and the cloud load balancer, though provisioned and addressed, has no backend. Reported at spec.externalTrafficPolicy, beside service-selects-nothing at the selector.",
    kinds: ['Service'],
    configurable: true,
  },
  {
    id: 'hpa-replicas-conflict',
    severity: 'warning',
    summary: 'spec.replicas is set on a workload that a HorizontalPodAutoscaler scales.',
    explanation:
      "Every kubectl apply of the manifest sets the replica count back to the value written there, undoing the autoscaler's decision until it scales again (the Kubernetes documentation recommends removing spec.replicas once an HPA manages the workload). The finding also says when the written value lies outside [minReplicas, maxReplicas].",
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'],
    configurable: true,
  },
  {
    id: 'hpa-replicas-out-of-range',
    severity: 'warning',
    summary: 'A workload without spec.replicas (so 1) is scaled by a HorizontalPodAutoscaler whose minReplicas is higher.',
    explanation:
      "At each sync the HPA controller compares the target's replicas with minReplicas and maxReplicas before it reads any metric, and scales a target outside the range straight to the nearer bound (reconcileAutoscaler: Current number of replicas below Spec.MinReplicas). A workload created without spec.replicas is stored with 1, so it starts below the range and the autoscaler's first decision ignores the metrics. A written count outside the range is reported by hpa-replicas-conflict, whose message says so.",
    kinds: ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'],
    configurable: true,
  },
  {
    id: 'hpa-target-missing',
    severity: 'warning',
    summary: "A HorizontalPodAutoscaler's scaleTargetRef names no workload in the input, or names it in another API group.",
    explanation:
      "The HPA controller reads its target through the scale subresource of the kind in the group scaleTargetRef.apiVersion names (only the group is read; an apiVersion left out is the core group, where no Deployment, StatefulSet or ReplicaSet is served). When that fails it records FailedGetScale, sets AbleToScale False and scales nothing. Only kinds the input holds objects of are judged, so an HPA of a custom resource applied elsewhere is not reported. The target is looked for nearest first: the HPA's file, its apply set, then the whole input.",
    kinds: ['HorizontalPodAutoscaler'],
    configurable: true,
  },
  {
    id: 'hpa-missing-requests',
    severity: 'warning',
    summary: "An HPA scales on CPU or memory utilization, and a container of its target's pods sets no request for that resource.",
    explanation:
      "Utilization is usage divided by the pods' requests (calculatePodRequestsFromContainers): every container, sidecars included, needs a request for the resource (a limit counts: the API server copies it into the request), or for a ContainerResource metric the named container does. Otherwise the controller records FailedGetResourceMetric (missing request for cpu in container …) and the metric gives no replica count; an HPA with no metric written scales on CPU at 80% and needs CPU requests. Pod-level requests serve a Resource metric. A LimitRange may give containers default requests at admission, which kctl cannot see: annotate the HPA when one does.",
    kinds: ['HorizontalPodAutoscaler'],
    configurable: true,
  },
  {
    id: 'deprecated-api',
    severity: 'error',
    severities: 'warning while the apiVersion is only deprecated in --k8s-version',
    summary: 'The apiVersion is removed in (error) or deprecated by (warning) the target Kubernetes version.',
    explanation:
      "From the Kubernetes Deprecated API Migration Guide: e.g. extensions/v1beta1 Deployments, DaemonSets and ReplicaSets and apps/v1beta1/v1beta2 workloads are gone since 1.16, beta Ingress, CRD, RBAC and webhook APIs since 1.22, batch/v1beta1 CronJob, policy/v1beta1 PodDisruptionBudget and autoscaling/v2beta1 since 1.25, autoscaling/v2beta2 since 1.26. An apiVersion that is not served yet in the target version (autoscaling/v2 before 1.23) is an error too. The target is --k8s-version, else check.k8sVersion in .kctl.yaml, else the live server's version with --against-cluster, else 1.36.",
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'parse-error',
    severity: 'error',
    summary: 'An input could not be read or parsed as Kubernetes objects.',
    explanation:
      'Bad YAML or JSON, a document that is not a mapping, an object without apiVersion or kind, an unreadable file. Reported at the position the parser gives; kctl check then exits 1, whatever --fail-on says. It cannot be turned off, except by ignoring the path in .kctl.yaml.',
    kinds: ['*'],
    configurable: false,
  },
  {
    id: 'invalid-ignore',
    severity: 'error',
    summary: 'A kctl.io/ignore annotation names an unknown rule or gives no reason.',
    explanation:
      'The annotation reads "RULE-ID — reason" (also "RULE-ID: reason" or "RULE-ID -- reason"; several rules separated by commas, several entries by new lines or ";"). An entry without a reason, or naming a rule that does not exist, ignores nothing.',
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'unknown-field',
    severity: 'error',
    summary: 'A field the schema of the kind does not have (a misspelling, or a field of another version).',
    explanation:
      'Checked against the OpenAPI schema kube-apiserver 1.36 serves for the kind (and, for a custom resource, the openAPIV3Schema of its CustomResourceDefinition in the input or under --schemas). kubectl apply sends fieldValidation=Strict since 1.27, so the API server rejects the object; with other clients the field is dropped silently and whatever it meant to set keeps its default: a misspelt `contianers`, or Ingress v1 `spec.backend` (renamed `defaultBackend`). The finding names the nearest known field when one is close.',
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'invalid-type',
    severity: 'error',
    summary: 'A value of the wrong type for its field (a string where an integer goes, a mapping where a list goes).',
    explanation:
      'The API server cannot decode the object and rejects it. YAML 1.1, which Kubernetes reads, takes unquoted yes/no/on/off as booleans and unquoted digits as numbers: quote a string that looks like one. Checked against the schema kube-apiserver 1.36 serves for the kind.',
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'missing-field',
    severity: 'error',
    summary: 'A field the schema requires is missing (a container without a name, a Deployment without a selector).',
    explanation: 'The API server rejects the object. Checked against the schema kube-apiserver 1.36 serves for the kind; a null value counts as missing, as it does for the server.',
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'invalid-value',
    severity: 'error',
    summary: 'A value outside the values its field allows (an imagePullPolicy, a protocol, a restartPolicy).',
    explanation: 'The schema kube-apiserver 1.36 serves lists the allowed values of the field, and the API server rejects any other; values are case-sensitive (IfNotPresent, not ifNotPresent).',
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'unknown-api-version',
    severity: 'error',
    summary: 'The apiVersion does not serve this kind (a version that never existed, or the wrong group).',
    explanation:
      'The API server answers "no matches for kind" and the apply fails. Versions that were served once and removed are deprecated-api\'s to report; this rule covers the rest of the built-in groups. Custom resources are not judged: their versions come from their CustomResourceDefinitions.',
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'api-version-not-enabled',
    severity: 'info',
    summary: 'The apiVersion is known to the Kubernetes version checked, but not served unless enabled.',
    explanation:
      'Alpha versions, and beta versions introduced since 1.24, are off by default: the API server serves them only with --runtime-config=GROUP/VERSION=true (and, for most, a feature gate). A cluster that enabled it accepts the object; one that did not answers "no matches for kind". The object is validated against that version\'s published schema all the same.',
    kinds: ['*'],
    configurable: true,
  },
  {
    id: 'ingress-backend-missing',
    severity: 'warning',
    summary: 'An Ingress backend names a Service, or a port of a Service, that the input does not have.',
    explanation:
      'The ingress controller finds no endpoints for such a backend and answers 503. Services are looked up in the Ingress\'s namespace and apply set; a port is matched by number (spec.ports[].port) or by name. Turn the rule off for repositories whose Services are applied from elsewhere.',
    kinds: ['Ingress'],
    configurable: true,
  },
  {
    id: 'statefulset-service-missing',
    severity: 'warning',
    summary: "A StatefulSet's serviceName names no Service in the input, or one that is not headless.",
    explanation:
      'The StatefulSet controller does not create the governing Service; without a headless Service (clusterIP: None) of that name in the namespace, the pods get no stable DNS names (web-0.web.ns.svc), which is usually why serviceName was set.',
    kinds: ['StatefulSet'],
    configurable: true,
  },
  {
    id: 'daemonset-no-eligible-node',
    severity: 'warning',
    summary: 'A DaemonSet that none of the Nodes in the input would run (checked only when the input holds Nodes).',
    explanation:
      'The DaemonSet controller runs a pod on each node that passes NodeShouldRunDaemonPod: the template\'s nodeName, its nodeSelector and required node affinity against the node\'s name and labels, and the node\'s NoSchedule and NoExecute taints against the template\'s tolerations plus the ones the controller adds (not-ready, unreachable, disk-pressure, memory-pressure, pid-pressure, unschedulable, and network-unavailable for host-network pods). When no Node of the input passes, the DaemonSet runs nowhere. kctl plan shows the same decision node by node (nodes[]).',
    kinds: ['DaemonSet'],
    configurable: true,
  },
  {
    id: 'pdb-selects-nothing',
    severity: 'warning',
    summary: 'A PodDisruptionBudget selects no pod template or pod in its namespace.',
    explanation: 'The disruption controller finds no pods for it: the budget protects nothing, usually because of a label typo. Selectors are matched against the pod templates and pods of the same namespace anywhere in the input; when none matches and the apply set holds custom resources (an operator may create the pods), the finding is info.',
    kinds: ['PodDisruptionBudget'],
    configurable: true,
  },
  {
    id: 'pdb-blocks-eviction',
    severity: 'warning',
    summary: 'A PodDisruptionBudget that no eviction can satisfy (maxUnavailable 0, minAvailable 100%, or minAvailable at least the replicas it selects).',
    explanation:
      'The eviction API refuses every voluntary disruption of the selected pods, so `kubectl drain` (and with it node upgrades and autoscaler scale-downs) waits forever on them. Replicas are the spec.replicas of the selected controllers in the input (1 when unset).',
    kinds: ['PodDisruptionBudget'],
    configurable: true,
  },
  {
    id: 'networkpolicy-selects-nothing',
    severity: 'warning',
    summary: "A NetworkPolicy's non-empty podSelector matches no pod template or pod in its namespace.",
    explanation:
      'A NetworkPolicy applies to the pods its podSelector selects in its own namespace. When none of the input\'s pod templates or pods there matches, the policy isolates nothing and the traffic it was written to allow or deny flows as before, usually because of a label typo or a wrong namespace. An empty podSelector ({}) selects every pod and is not reported. When the apply set holds custom resources (an operator may create the pods), the finding is info.',
    kinds: ['NetworkPolicy'],
    configurable: true,
  },
  {
    id: 'volume-mount-undefined',
    severity: 'error',
    summary: "A container's volumeMount or volumeDevice names no volume of the pod.",
    explanation:
      "Every volumeMounts[].name and volumeDevices[].name must name an entry of the pod's spec.volumes (for a StatefulSet, or one of its volumeClaimTemplates): the API server rejects the object (containers[0].volumeMounts[0].name: Not found), so the apply fails. Checked in pod templates of every workload and in Pods.",
    kinds: ['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'PodTemplate'],
    configurable: true,
  },
  {
    id: 'no-readiness-probe',
    severity: 'info',
    summary: 'A Deployment of more than one replica whose containers have no readiness probe (off by default).',
    explanation:
      'Without a readiness probe a pod is ready as soon as its containers start: the Deployment controller counts it available (after minReadySeconds) and scales the old ReplicaSet down before the new pods can serve, and Services send them traffic at once. An opinion, so off unless enabled (--enable no-readiness-probe, or rules: {no-readiness-probe: on} in .kctl.yaml).',
    kinds: ['Deployment'],
    configurable: true,
    enabledByDefault: false,
  },
  {
    id: 'image-latest',
    severity: 'info',
    summary: 'A container image tagged :latest, or not tagged at all (off by default).',
    explanation:
      'Which version runs depends on when each node pulled the image (imagePullPolicy defaults to Always for :latest), the pod template does not change when the image does (so no rollout records it), and a rollback cannot go back. A digest (@sha256:…) or a version tag pins it. An opinion, so off unless enabled.',
    kinds: [...CONTROLLERS, 'CronJob'],
    configurable: true,
    enabledByDefault: false,
  },
  {
    id: 'cronjob-schedule',
    severity: 'error',
    summary: "A CronJob's schedule the controller cannot parse, or one that never fires.",
    explanation:
      'The CronJob controller parses spec.schedule as robfig/cron does (five fields, @hourly … @yearly, @every <duration>). One it cannot parse (61 * * * *, six fields) is recorded as UnparseableSchedule, and one with no date within five years (0 0 31 2 *) as InvalidSchedule; either way no Job is ever started and nothing else reports it.',
    kinds: ['CronJob'],
    configurable: true,
  },
  {
    id: 'cronjob-time-zone',
    severity: 'error',
    summary: "A CronJob's timeZone is not a time zone name.",
    explanation:
      'spec.timeZone must be a name of the IANA time zone database (Europe/Berlin, America/New_York, UTC). For any other value the controller records UnknownTimeZone and starts no Job.',
    kinds: ['CronJob'],
    configurable: true,
  },
  {
    id: 'cronjob-forbid-overlap',
    severity: 'warning',
    summary: "A Forbid CronJob's Jobs may run longer than the time between two runs.",
    explanation:
      "With concurrencyPolicy Forbid the controller skips a run that is due while a Job of the CronJob is still active (JobAlreadyActive). When the Job's activeDeadlineSeconds is longer than the shortest time between two scheduled runs, runs can be skipped; shorten the deadline, space the schedule out, or use Replace or Allow.",
    kinds: ['CronJob'],
    configurable: true,
  },
  {
    id: 'pod-failure-policy-unmatchable',
    severity: 'warning',
    summary: 'A podFailurePolicy rule that no failed pod can match.',
    explanation:
      "The Job controller matches onExitCodes against terminated containers with a non-zero exit code only, so In [0] never matches; a containerName that names no container or init container of the pod template never matches either. Failures the rule was meant for are then counted against backoffLimit instead.",
    kinds: ['Job', 'CronJob'],
    configurable: true,
  },
]

const BY_ID = new Map<RuleId, RuleInfo>(RULES.map((r) => [r.id, r]))

export function ruleInfo(id: RuleId): RuleInfo {
  return BY_ID.get(id)!
}
