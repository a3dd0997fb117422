/**
 * The apiserver's defaulting (pkg/apis/{core,apps,batch}/v1/defaults.go) for the kinds Slipway
 * deploys, plus the Secret `stringData` → `data` conversion. It mutates the object in place.
 *
 * Usage (helper A): after decoding and merging a create/update/patch/apply, before validation and
 * before recordUpdate (updaters own the defaulted fields, appliers do not):
 *   applyDefaults(obj);
 * What the registry (not defaulting) sets is not here: uid, creationTimestamp, generation,
 * clusterIP allocation, Job selectors, Pod status.
 */
type Obj = Record<string, unknown>;
const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const child = (o: Obj, key: string): Obj => {
  if (!isMap(o[key])) o[key] = {};
  return o[key] as Obj;
};
const setDefault = (o: Obj, key: string, value: unknown) => {
  if (o[key] === undefined || o[key] === null) o[key] = value;
};

/** Images without a tag or tagged `latest` are pulled Always, others IfNotPresent (digests too). */
export function defaultPullPolicy(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  const tag = colon >= 0 ? lastSegment.slice(colon + 1) : '';
  return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: unknown) {
  if (!isMap(probe)) return;
  setDefault(probe, 'timeoutSeconds', 1);
  setDefault(probe, 'periodSeconds', 10);
  setDefault(probe, 'successThreshold', 1);
  setDefault(probe, 'failureThreshold', 3);
  if (isMap(probe.httpGet)) setDefault(probe.httpGet, 'scheme', 'HTTP');
}

function defaultContainer(c: unknown) {
  if (!isMap(c)) return;
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'imagePullPolicy', defaultPullPolicy(c.image));
  setDefault(c, 'resources', {});
  for (const port of Array.isArray(c.ports) ? c.ports : [])
    if (isMap(port)) setDefault(port, 'protocol', 'TCP');
  for (const env of Array.isArray(c.env) ? c.env : []) {
    const fieldRef = isMap(env) && isMap(env.valueFrom) ? env.valueFrom.fieldRef : undefined;
    if (isMap(fieldRef)) setDefault(fieldRef, 'apiVersion', 'v1');
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
}

export function defaultPodSpec(spec: Obj) {
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'schedulerName', 'default-scheduler');
  for (const list of ['initContainers', 'containers'])
    for (const c of Array.isArray(spec[list]) ? spec[list] : []) defaultContainer(c);
  for (const v of Array.isArray(spec.volumes) ? spec.volumes : []) {
    if (!isMap(v)) continue;
    if (isMap(v.configMap)) setDefault(v.configMap, 'defaultMode', 420);
    if (isMap(v.secret)) setDefault(v.secret, 'defaultMode', 420);
  }
}

function defaultTemplate(spec: Obj, key = 'template') {
  if (isMap(spec[key])) defaultPodSpec(child(spec[key] as Obj, 'spec'));
}

function defaultDeployment(obj: Obj) {
  const spec = child(obj, 'spec');
  setDefault(spec, 'replicas', 1);
  const strategy = child(spec, 'strategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    setDefault(rolling, 'maxUnavailable', '25%');
    setDefault(rolling, 'maxSurge', '25%');
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultTemplate(spec);
}

function defaultStatefulSet(obj: Obj) {
  const spec = child(obj, 'spec');
  setDefault(spec, 'replicas', 1);
  setDefault(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = child(spec, 'updateStrategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') setDefault(child(strategy, 'rollingUpdate'), 'partition', 0);
  setDefault(spec, 'revisionHistoryLimit', 10);
  const retention = child(spec, 'persistentVolumeClaimRetentionPolicy');
  setDefault(retention, 'whenDeleted', 'Retain');
  setDefault(retention, 'whenScaled', 'Retain');
  defaultTemplate(spec);
}

function defaultDaemonSet(obj: Obj) {
  const spec = child(obj, 'spec');
  const strategy = child(spec, 'updateStrategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type === 'RollingUpdate') {
    const rolling = child(strategy, 'rollingUpdate');
    setDefault(rolling, 'maxUnavailable', 1);
    setDefault(rolling, 'maxSurge', 0);
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultTemplate(spec);
}

function defaultJobSpec(spec: Obj) {
  if ((spec.completions ?? null) === null && (spec.parallelism ?? null) === null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', 6);
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  if (!spec.podFailurePolicy) setDefault(spec, 'podReplacementPolicy', 'TerminatingOrFailed');
  defaultTemplate(spec);
}

function defaultCronJob(obj: Obj) {
  const spec = child(obj, 'spec');
  setDefault(spec, 'concurrencyPolicy', 'Allow');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  const jobSpec = isMap(spec.jobTemplate) ? (spec.jobTemplate as Obj).spec : undefined;
  if (isMap(jobSpec)) defaultTemplate(jobSpec);
}

function defaultService(obj: Obj) {
  const spec = child(obj, 'spec');
  setDefault(spec, 'type', 'ClusterIP');
  setDefault(spec, 'sessionAffinity', 'None');
  for (const port of Array.isArray(spec.ports) ? spec.ports : []) {
    if (!isMap(port)) continue;
    setDefault(port, 'protocol', 'TCP');
    if (
      port.targetPort === undefined ||
      port.targetPort === null ||
      port.targetPort === 0 ||
      port.targetPort === ''
    )
      port.targetPort = port.port;
  }
  if (spec.type !== 'ExternalName') {
    setDefault(spec, 'internalTrafficPolicy', 'Cluster');
    setDefault(spec, 'ipFamilyPolicy', 'SingleStack');
    setDefault(spec, 'ipFamilies', ['IPv4']);
  }
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer')
    setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec.type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
}

function defaultSecret(obj: Obj) {
  setDefault(obj, 'type', 'Opaque');
  if (isMap(obj.stringData)) {
    const data = child(obj, 'data');
    for (const [k, v] of Object.entries(obj.stringData))
      data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  }
  delete obj.stringData;
}

function defaultNamespace(obj: Obj) {
  const name = isMap(obj.metadata) ? obj.metadata.name : undefined;
  if (typeof name === 'string' && name)
    setDefault(child(child(obj, 'metadata'), 'labels'), 'kubernetes.io/metadata.name', name);
  const spec = child(obj, 'spec');
  setDefault(spec, 'finalizers', ['kubernetes']);
  setDefault(child(obj, 'status'), 'phase', 'Active');
}

/** Fills in what the apiserver defaults, in place. */
export function applyDefaults(obj: unknown): void {
  if (!isMap(obj)) return;
  switch (obj.kind) {
    case 'Deployment':
      return defaultDeployment(obj);
    case 'StatefulSet':
      return defaultStatefulSet(obj);
    case 'DaemonSet':
      return defaultDaemonSet(obj);
    case 'ReplicaSet':
      setDefault(child(obj, 'spec'), 'replicas', 1);
      return defaultTemplate(child(obj, 'spec'));
    case 'Job':
      return defaultJobSpec(child(obj, 'spec'));
    case 'CronJob':
      return defaultCronJob(obj);
    case 'Pod':
      defaultPodSpec(child(obj, 'spec'));
      setDefault(obj.spec as Obj, 'enableServiceLinks', true);
      return;
    case 'PodTemplate':
      return defaultTemplate(obj);
    case 'Service':
      return defaultService(obj);
    case 'Secret':
      return defaultSecret(obj);
    case 'Namespace':
      return defaultNamespace(obj);
    case 'PersistentVolumeClaim':
      setDefault(child(obj, 'spec'), 'volumeMode', 'Filesystem');
      return;
    case 'HorizontalPodAutoscaler':
      setDefault(child(obj, 'spec'), 'minReplicas', 1);
      return;
  }
}
