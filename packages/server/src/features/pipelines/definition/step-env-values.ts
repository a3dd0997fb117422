import { availableParallelism, hostname, totalmem } from 'node:os';
import { SubstitutionError } from './definition-issue.js';
import type { Step } from './model.js';

/*
 * Env `valueFrom.fieldRef` and `valueFrom.resourceFieldRef` (Kubernetes' downward API), as far
 * as Slipway can honestly answer them for a step: the pod's names, labels and annotations are
 * those Tekton gives a TaskRun's pod; there is no pod IP; resources are the step's own
 * `computeResources` (not enforced locally: decision 020), or the host's for a limit left unset,
 * as a node's allocatable is in Kubernetes.
 */

/** What a step's pod would be: Tekton names it `<taskRun>-pod` and labels it after the run. */
export interface PodFields {
  name: string;
  namespace: string;
  uid: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  serviceAccountName: string;
}

const SIMPLE_FIELDS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.serviceAccountName',
  'spec.nodeName',
];
const KEYED = /^metadata\.(labels|annotations)\[['"]([^'"]+)['"]\]$/;

/** Why a fieldPath cannot be given (null when it can). */
export function fieldRefIssue(fieldPath: string): string | null {
  if (SIMPLE_FIELDS.includes(fieldPath) || KEYED.test(fieldPath)) return null;
  if (/^status\.(podIPs?|hostIPs?)$/.test(fieldPath))
    return `fieldRef ${fieldPath} cannot be given: a Slipway step runs in a sandbox of its own, not in a pod with an address on a cluster network`;
  if (fieldPath === 'metadata.labels' || fieldPath === 'metadata.annotations')
    return `fieldRef ${fieldPath} needs a key, like ${fieldPath}['app'] (Kubernetes gives whole maps only as downward API volumes)`;
  return `fieldRef ${fieldPath} is not a field Slipway gives: use metadata.name, metadata.namespace, metadata.uid, metadata.labels['<key>'], metadata.annotations['<key>'], spec.serviceAccountName or spec.nodeName`;
}

/** The value of a fieldPath that fieldRefIssue accepts. */
export function fieldRefValue(fieldPath: string, pod: PodFields): string {
  switch (fieldPath) {
    case 'metadata.name':
      return pod.name;
    case 'metadata.namespace':
      return pod.namespace;
    case 'metadata.uid':
      return pod.uid;
    case 'spec.serviceAccountName':
      return pod.serviceAccountName;
    case 'spec.nodeName':
      return hostname();
  }
  const keyed = KEYED.exec(fieldPath);
  if (!keyed) throw new Error(fieldRefIssue(fieldPath) ?? `fieldRef ${fieldPath} cannot be given`);
  // Kubernetes gives an empty value for a label or annotation the pod does not have
  return (keyed[1] === 'labels' ? pod.labels : pod.annotations)[keyed[2]!] ?? '';
}

// ── quantities ────────────────────────────────────────────────────────────────────────────

/** A quantity as an exact fraction. */
interface Fraction {
  n: bigint;
  d: bigint;
}

const SUFFIXES: Record<string, Fraction> = {
  '': { n: 1n, d: 1n },
  n: { n: 1n, d: 1_000_000_000n },
  u: { n: 1n, d: 1_000_000n },
  m: { n: 1n, d: 1000n },
  k: { n: 1000n, d: 1n },
  M: { n: 10n ** 6n, d: 1n },
  G: { n: 10n ** 9n, d: 1n },
  T: { n: 10n ** 12n, d: 1n },
  P: { n: 10n ** 15n, d: 1n },
  E: { n: 10n ** 18n, d: 1n },
  Ki: { n: 2n ** 10n, d: 1n },
  Mi: { n: 2n ** 20n, d: 1n },
  Gi: { n: 2n ** 30n, d: 1n },
  Ti: { n: 2n ** 40n, d: 1n },
  Pi: { n: 2n ** 50n, d: 1n },
  Ei: { n: 2n ** 60n, d: 1n },
};

/** Parses a Kubernetes quantity (`500m`, `1.5Gi`, `2`, `1e3`); null when it is not one. */
export function parseQuantity(text: string): Fraction | null {
  const m = /^\+?(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/.exec(text.trim());
  if (!m) return null;
  const decimals = m[2] ?? '';
  let n = BigInt(m[1]! + decimals);
  let d = 10n ** BigInt(decimals.length);
  if (m[3] !== undefined) {
    const exp = Number(m[3]);
    if (Math.abs(exp) > 30) return null;
    if (exp >= 0) n *= 10n ** BigInt(exp);
    else d *= 10n ** BigInt(-exp);
  }
  const suffix = SUFFIXES[m[4] ?? '']!;
  return { n: n * suffix.n, d: d * suffix.d };
}

/** ceil(a / b), as the downward API rounds. */
function ceilDiv(a: Fraction, b: Fraction): bigint {
  const num = a.n * b.d;
  const den = a.d * b.n;
  return (num + den - 1n) / den;
}

const RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];
const CPU_DIVISORS = ['1', '1m'];
const BYTE_DIVISORS = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];

export interface ResourceFieldRef {
  resource: string;
  containerName?: string;
  divisor?: string;
}

/** Why a resourceFieldRef cannot be given (null when it can); `container` is the step's own container name. */
export function resourceFieldRefIssue(ref: ResourceFieldRef, container?: string): string | null {
  if (ref.containerName && container !== undefined && ref.containerName !== container)
    return `resourceFieldRef containerName "${ref.containerName}": a step can read only its own resources (${container})`;
  const [kind, resource] = ref.resource.split(/\.(.*)/s);
  if ((kind !== 'limits' && kind !== 'requests') || !RESOURCES.includes(resource ?? ''))
    return `resourceFieldRef ${ref.resource} is not one Slipway gives: use limits.cpu, limits.memory, limits.ephemeral-storage, requests.cpu, requests.memory or requests.ephemeral-storage`;
  if (ref.divisor !== undefined) {
    const allowed = resource === 'cpu' ? CPU_DIVISORS : BYTE_DIVISORS;
    if (!allowed.includes(ref.divisor))
      return `resourceFieldRef ${ref.resource}: divisor "${ref.divisor}" is not one of ${allowed.join(', ')}`;
  }
  return null;
}

/** The host's own amount of a resource, which a limit left unset stands for (a node's allocatable). */
function hostAmount(resource: string): Fraction | null {
  if (resource === 'cpu') return { n: BigInt(availableParallelism()), d: 1n };
  if (resource === 'memory') return { n: BigInt(totalmem()), d: 1n };
  return null;
}

/**
 * The value a resourceFieldRef gives a step: its computeResources (the stepTemplate's merged in),
 * a request left unset taking the limit (as the API server defaults it) or 0, a limit left unset
 * taking the host's amount. Throws naming what cannot be given.
 */
export function resourceFieldValue(ref: ResourceFieldRef, step: Pick<Step, 'computeResources'>): string {
  const issue = resourceFieldRefIssue(ref);
  if (issue) throw new Error(issue);
  const [kind, resource] = ref.resource.split(/\.(.*)/s) as ['limits' | 'requests', string];
  const read = (which: 'limits' | 'requests') => {
    const text = step.computeResources?.[which]?.[resource];
    if (text === undefined) return undefined;
    const quantity = parseQuantity(text);
    if (!quantity) throw new Error(`computeResources.${which}.${resource} "${text}" is not a quantity`);
    return quantity;
  };
  const amount =
    kind === 'limits'
      ? (read('limits') ?? hostAmount(resource))
      : (read('requests') ?? read('limits') ?? { n: 0n, d: 1n });
  if (!amount)
    throw new Error(
      `resourceFieldRef ${ref.resource}: the step sets no ${resource} limit, and Slipway does not give the host's ${resource}`,
    );
  const divisor = parseQuantity(ref.divisor ?? '1')!;
  return String(ceilDiv(amount, divisor));
}

// ── for resolve-task-run.ts ──────────────────────────────────────────────────────────────

interface PodContext {
  pipelineRun?: { name?: string; namespace?: string };
  pipeline?: { name?: string };
  taskRun?: { name?: string; uid?: string; namespace?: string; serviceAccountName?: string };
}

/** The pod Tekton would make for this task run: its name, namespace, uid, labels and annotations. */
export function podFieldsOf(
  pipelineTask: { name: string; taskRef?: { name?: string } },
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } | undefined,
  context: PodContext | undefined,
): PodFields {
  const taskRun = context?.taskRun?.name ?? pipelineTask.name;
  const set = (key: string, value: string | undefined) => (value ? { [key]: value } : {});
  return {
    name: `${taskRun}-pod`,
    namespace: context?.taskRun?.namespace ?? context?.pipelineRun?.namespace ?? 'default',
    uid: context?.taskRun?.uid ?? '',
    labels: {
      ...metadata?.labels,
      'app.kubernetes.io/managed-by': 'tekton-pipelines',
      ...set('tekton.dev/task', pipelineTask.taskRef?.name),
      'tekton.dev/taskRun': taskRun,
      ...set('tekton.dev/pipeline', context?.pipeline?.name),
      ...set('tekton.dev/pipelineRun', context?.pipelineRun?.name),
      ...(context?.pipelineRun?.name ? { 'tekton.dev/pipelineTask': pipelineTask.name } : {}),
    },
    annotations: { ...metadata?.annotations },
    // the run document's account for the task (run-service-accounts.ts), else the namespace's default
    serviceAccountName: context?.taskRun?.serviceAccountName ?? 'default',
  };
}

/** An env var's `valueFrom.fieldRef` or `valueFrom.resourceFieldRef` value; throws naming the step and variable. */
export function downwardValue(
  entry: {
    name: string;
    valueFrom?: { fieldRef?: { fieldPath: string }; resourceFieldRef?: ResourceFieldRef };
  },
  step: Pick<Step, 'computeResources'>,
  stepName: string,
  pod: PodFields | undefined,
): string {
  const from = entry.valueFrom;
  try {
    if (from?.fieldRef) {
      if (!pod) throw new Error('no pod fields here');
      return fieldRefValue(from.fieldRef.fieldPath, pod);
    }
    if (from?.resourceFieldRef) return resourceFieldValue(from.resourceFieldRef, step);
    throw new Error('valueFrom names no source');
  } catch (error) {
    throw new SubstitutionError(
      entry.name,
      `step "${stepName}": env ${entry.name}: ${(error as Error).message}`,
    );
  }
}
