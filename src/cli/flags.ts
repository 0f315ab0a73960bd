// Flags shared by every command that reads objects (docs/output.md, "Common flags").
import {Flags} from '@oclif/core'

import {UserError} from '../errors.js'
import {APPLY_SET_MODES} from '../sources/layout.js'

export const sourceFlags = {
  filename: Flags.string({
    char: 'f',
    aliases: ['file'], // kubectl users type --file too
    multiple: true,
    summary: 'YAML/JSON file, directory (recursive) or - for stdin; repeatable. Without it, the live cluster is read.',
    helpGroup: 'SOURCE',
  }),
  kustomize: Flags.string({
    char: 'k',
    summary: 'Render this kustomization directory (with kustomize, or kubectl kustomize) and read the result.',
    helpGroup: 'SOURCE',
  }),
  recursive: Flags.boolean({
    char: 'R',
    summary: "Accepted as kubectl's -R: kctl always reads -f directories recursively.",
    helpGroup: 'SOURCE',
  }),
  'apply-set': Flags.string({
    summary: 'What -f reads as applied together: dir (each kustomize root apart, the rest as one), file, or all.',
    options: [...APPLY_SET_MODES],
    default: 'dir',
    helpGroup: 'SOURCE',
  }),
  'allow-empty': Flags.boolean({summary: 'Succeed when -f or -k yields no object at all (otherwise an error).', helpGroup: 'SOURCE'}),
  kubeconfig: Flags.string({summary: 'Path to the kubeconfig file (as kubectl).', helpGroup: 'SOURCE'}),
  context: Flags.string({summary: 'The kubeconfig context to use (as kubectl).', helpGroup: 'SOURCE'}),
  namespace: Flags.string({char: 'n', summary: 'Namespace (default: the context\'s, or "default").', helpGroup: 'SOURCE'}),
  'all-namespaces': Flags.boolean({char: 'A', summary: 'Every namespace.', helpGroup: 'SOURCE'}),
  selector: Flags.string({
    char: 'l',
    summary: 'Only controllers whose labels match this selector (kubectl syntax: a=b,c!=d,e in (f,g),!h).',
    helpGroup: 'SOURCE',
  }),
  'chunk-size': Flags.integer({
    summary: 'List objects from the API server in pages of this many (as kubectl --chunk-size).',
    default: 500,
    min: 1,
    helpGroup: 'SOURCE',
  }),
  now: Flags.string({
    summary: 'RFC 3339 time the controllers\' clock rules use (minReadySeconds, ready-time ranking). Default: the real clock.',
    helpGroup: 'PLANNING',
  }),
  'feature-gates': Flags.string({
    summary: 'Feature gates as kube-controller-manager takes them, e.g. PodDeletionCost=false. Defaults are upstream 1.36\'s.',
    helpGroup: 'PLANNING',
  }),
}

export const outputFlag = (options: readonly string[] = ['table', 'json', 'yaml']) =>
  Flags.string({
    char: 'o',
    summary: `Output format: ${options.join(', ')}. Default: table on a terminal, json otherwise.`,
    options: [...options],
  })

/** What-ifs applied before planning (`plan` and `simulate`). */
export const changeFlags = {
  'apply-manifests': Flags.string({
    multiple: true,
    summary: 'Merge these manifests (file or directory) onto the world first, as kubectl apply would (live: sent to the API server as a dry run, dryRun=All; nothing is kept).',
    helpGroup: 'WHAT IF',
  }),
  'server-side': Flags.boolean({
    summary: 'With --apply-manifests on a live cluster: apply as kubectl apply --server-side does, instead of kubectl apply\'s default client-side merge.',
    helpGroup: 'WHAT IF',
  }),
  scale: Flags.string({multiple: true, summary: 'Set replicas first, e.g. deployment/web=10 or statefulset/db=5; repeatable.', helpGroup: 'WHAT IF'}),
  'set-image': Flags.string({multiple: true, summary: 'Set a container\'s image first, e.g. deployment/web=web=nginx:1.28; repeatable.', helpGroup: 'WHAT IF'}),
}

export function changeRequest(flags: {'apply-manifests'?: string[]; scale?: string[]; 'set-image'?: string[]; 'server-side'?: boolean}) {
  return {applyManifests: flags['apply-manifests'], scale: flags.scale, setImage: flags['set-image'], serverSide: flags['server-side']}
}

/** The cloud provider load-balancer calls go to (`plan` asks it what it last sent; `reconcile` carries out calls). */
export const cloudFlags = {
  'lb-pool': Flags.string({
    summary: 'The built-in local cloud provider: hand load balancers addresses from this IPv4 CIDR, e.g. 127.0.200.0/24 (kept in a ConfigMap).',
    helpGroup: 'CLOUD',
  }),
  'lb-namespace': Flags.string({summary: 'With --lb-pool: the namespace of the ConfigMap kctl-load-balancers (default kube-system).', helpGroup: 'CLOUD'}),
  'cloud-provider-exec': Flags.string({summary: 'An external cloud provider: this executable is run once per call, JSON request on stdin, JSON answer on stdout.', helpGroup: 'CLOUD'}),
  'cluster-name': Flags.string({summary: 'The cluster name every provider call carries (as cloud-controller-manager\'s --cluster-name).', default: 'kubernetes', helpGroup: 'CLOUD'}),
}

/** Flags of kube-controller-manager that change what its controllers write, for a cluster that sets them. */
export const controllerManagerFlags = {
  'max-endpoints-per-slice': Flags.integer({
    summary: "kube-controller-manager's --max-endpoints-per-slice, if the cluster sets it (default 100).",
    min: 1,
    max: 1000,
    helpGroup: 'PLANNING',
  }),
}

export function controllerManagerRequest(flags: {'max-endpoints-per-slice'?: number}) {
  return {maxEndpointsPerSlice: flags['max-endpoints-per-slice']}
}

export function cloudRequest(flags: {'lb-pool'?: string; 'lb-namespace'?: string; 'cloud-provider-exec'?: string; 'cluster-name'?: string}) {
  return {lbPool: flags['lb-pool'], lbNamespace: flags['lb-namespace'], cloudProviderExec: flags['cloud-provider-exec'], clusterName: flags['cluster-name']}
}

/**
 * -f, -k and -R together, refused as kubectl refuses them, in its words
 * (k8s.io/cli-runtime resource.FilenameOptions.validate; several at once as its aggregate prints them).
 */
export function checkFileOptions(flags: {filename?: readonly string[]; kustomize?: string; recursive?: boolean}): void {
  const problems: string[] = []
  if ((flags.filename?.length ?? 0) > 0 && flags.kustomize !== undefined && flags.kustomize !== '') problems.push('only one of -f or -k can be specified')
  if (flags.kustomize !== undefined && flags.kustomize !== '' && flags.recursive) problems.push("the -k flag can't be used with -f or -R")
  if (problems.length === 1) throw new UserError(problems[0])
  if (problems.length > 1) throw new UserError(`[${problems.join(', ')}]`)
}
