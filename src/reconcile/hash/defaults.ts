// The API server's defaulting of the types inside a Deployment's pod template
// (pkg/apis/core/v1/defaults.go, as SetObjectDefaults_Deployment applies it), keyed by Go type:
// each function fills in a JSON object of that type, in place, on a copy. ResourceList rounding
// is done where quantities are read (quantity.ts, storedQuantity).

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const empty = (v: unknown) => v === undefined || v === null || v === ''
const zero = (v: unknown) => v === undefined || v === null || v === 0

function setIfEmpty(o: Obj, key: string, value: unknown): void {
  if (empty(o[key])) o[key] = value
}

/** SetDefaults_Container: pull policy from the image's tag, termination message path and policy. */
function container(o: Obj): void {
  if (empty(o.imagePullPolicy)) o.imagePullPolicy = imageTag(o.image) === 'latest' ? 'Always' : 'IfNotPresent'
  setIfEmpty(o, 'terminationMessagePath', '/dev/termination-log')
  setIfEmpty(o, 'terminationMessagePolicy', 'File')
}

// A reference as the container runtime's parser reads it: [domain/]path[:tag][@digest].
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*'
const DOMAIN = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::[0-9]+)?'
const REFERENCE = new RegExp(`^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*(?::([\\w][\\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}))?$`)

/**
 * parsers.ParseImageName's tag: the tag written, `latest` when neither tag nor digest is, and ''
 * for what does not parse as an image reference.
 */
export function imageTag(image: unknown): string {
  if (typeof image !== 'string') return ''
  const m = REFERENCE.exec(image)
  if (!m || /^[a-f0-9]{64}$/.test(image)) return ''
  if (m[1] !== undefined) return m[1]
  return m[2] === undefined ? 'latest' : ''
}

/** The Volume's source fields: a volume with none of them set gets emptyDir (SetDefaults_Volume). */
const VOLUME_META = new Set(['name'])

export const DEFAULTS: Readonly<Record<string, (o: Obj) => void>> = {
  'v1.PodSpec': (o) => {
    // Conversion through the internal version keeps one service account name and writes it back
    // to both fields (Convert_v1_PodSpec_To_core_PodSpec and back).
    if (empty(o.serviceAccountName) && !empty(o.serviceAccount)) o.serviceAccountName = o.serviceAccount
    if (!empty(o.serviceAccountName)) o.serviceAccount = o.serviceAccountName
    else delete o.serviceAccount
    setIfEmpty(o, 'dnsPolicy', 'ClusterFirst')
    setIfEmpty(o, 'restartPolicy', 'Always')
    if (o.securityContext === undefined || o.securityContext === null) o.securityContext = {}
    if (o.terminationGracePeriodSeconds === undefined || o.terminationGracePeriodSeconds === null) o.terminationGracePeriodSeconds = 30
    setIfEmpty(o, 'schedulerName', 'default-scheduler')
  },
  'v1.Container': container,
  'v1.EphemeralContainerCommon': container,
  'v1.ContainerPort': (o) => setIfEmpty(o, 'protocol', 'TCP'),
  'v1.ObjectFieldSelector': (o) => setIfEmpty(o, 'apiVersion', 'v1'),
  'v1.FileKeySelector': (o) => {
    if (o.optional === undefined || o.optional === null) o.optional = false
  },
  'v1.Probe': (o) => {
    if (zero(o.timeoutSeconds)) o.timeoutSeconds = 1
    if (zero(o.periodSeconds)) o.periodSeconds = 10
    if (zero(o.successThreshold)) o.successThreshold = 1
    if (zero(o.failureThreshold)) o.failureThreshold = 3
  },
  'v1.HTTPGetAction': (o) => {
    setIfEmpty(o, 'path', '/')
    setIfEmpty(o, 'scheme', 'HTTP')
  },
  'v1.GRPCAction': (o) => {
    if (o.service === undefined || o.service === null) o.service = ''
  },
  'v1.Volume': (o) => {
    const sources = Object.keys(o).filter((k) => !VOLUME_META.has(k) && o[k] !== null && o[k] !== undefined)
    if (sources.length === 0) o.emptyDir = {}
    if (isObj(o.image) && empty(o.image.pullPolicy)) o.image.pullPolicy = imageTag(o.image.reference) === 'latest' ? 'Always' : 'IfNotPresent'
  },
  'v1.SecretVolumeSource': (o) => defaultMode(o),
  'v1.ConfigMapVolumeSource': (o) => defaultMode(o),
  'v1.DownwardAPIVolumeSource': (o) => defaultMode(o),
  'v1.ProjectedVolumeSource': (o) => defaultMode(o),
  'v1.ServiceAccountTokenProjection': (o) => {
    if (o.expirationSeconds === undefined || o.expirationSeconds === null) o.expirationSeconds = 3600
  },
  'v1.HostPathVolumeSource': (o) => {
    if (o.type === undefined || o.type === null) o.type = ''
  },
  'v1.PersistentVolumeClaimSpec': (o) => {
    if (o.volumeMode === undefined || o.volumeMode === null) o.volumeMode = 'Filesystem'
  },
  'v1.ISCSIVolumeSource': (o) => setIfEmpty(o, 'iscsiInterface', 'default'),
  'v1.RBDVolumeSource': (o) => {
    setIfEmpty(o, 'pool', 'rbd')
    setIfEmpty(o, 'user', 'admin')
    setIfEmpty(o, 'keyring', '/etc/ceph/keyring')
  },
  'v1.AzureDiskVolumeSource': (o) => {
    if (o.cachingMode === undefined || o.cachingMode === null) o.cachingMode = 'ReadWrite'
    if (o.fsType === undefined || o.fsType === null) o.fsType = 'ext4'
    if (o.readOnly === undefined || o.readOnly === null) o.readOnly = false
    if (o.kind === undefined || o.kind === null) o.kind = 'Shared'
  },
  'v1.ScaleIOVolumeSource': (o) => {
    setIfEmpty(o, 'storageMode', 'ThinProvisioned')
    setIfEmpty(o, 'fsType', 'xfs')
  },
}

/** 0644, the mode secret, configMap, downwardAPI and projected volumes default to. */
function defaultMode(o: Obj): void {
  if (o.defaultMode === undefined || o.defaultMode === null) o.defaultMode = 420
}
