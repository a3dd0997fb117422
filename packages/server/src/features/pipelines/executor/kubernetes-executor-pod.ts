import { createHash } from 'node:crypto';
import type { ResolvedTaskRun } from './types.js';
import { CONTAINER_RESULTS_DIR } from '../definition/resolve-task-run.js';

/** Where steps signal each other and keep their scripts, inside every step container. */
export const RUN_DIR = '/slipway/run';
/** The run a task's pod and workspace claims belong to (the claims are removed once it ends). */
export const RUN_LABEL = 'slipway.dev/run';
const TERMINATION_LOG = '/dev/termination-log';

type Manifest = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string };
};

export interface PodPlan {
  pod: Manifest;
  /** a Secret holding the steps' secret env values (created before the pod, deleted after) */
  secret: Manifest | null;
  /** one PersistentVolumeClaim per workspace, shared by the run's tasks */
  claims: Manifest[];
  /** container name per step, in order */
  containers: string[];
}

const slug = (s: string, max: number) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '') || 'x';

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The PVC a workspace path maps to: the same path (the same run's workspace) gives the same claim. */
export function claimName(workspacePath: string): string {
  return `slipway-ws-${createHash('sha256').update(workspacePath).digest('hex').slice(0, 16)}`;
}

/**
 * The shell around one step: wait for the step before it, skip when an earlier step failed,
 * run the script (or command), then report the exit code and the task's result files in the
 * termination message (`exitCode:<n>` and `result:<name>:<base64>` lines) and tell the next step.
 */
export function stepWrapper(
  index: number,
  step: ResolvedTaskRun['steps'][number],
  run: Pick<ResolvedTaskRun, 'resultsDir' | 'results' | 'mounts'>,
): string {
  const resultsDir = resultsPathOf(run);
  const prev = `${RUN_DIR}/${index - 1}.done`;
  const done = `${RUN_DIR}/${index}.done`;
  const lines = ['set +e'];
  if (index > 0)
    lines.push(
      `while [ ! -f ${prev} ]; do sleep 0.1; done`,
      `if [ "$(cat ${prev})" != ok ]; then echo skip > ${done}; echo skipped > ${TERMINATION_LOG}; exit 0; fi`,
    );
  lines.push(`mkdir -p ${q(resultsDir)}`);
  let program: string;
  if (step.script !== undefined) {
    const file = `${RUN_DIR}/step-${index}`;
    lines.push(`printf '%s' "$SLIPWAY_STEP_SCRIPT" > ${file}`, `chmod +x ${file}`);
    program = step.script.startsWith('#!') ? file : `sh ${file}`;
  } else {
    program = [...(step.command ?? []), ...(step.args ?? [])].map(q).join(' ');
  }
  const seconds = step.timeoutMs ? Math.max(1, Math.ceil(step.timeoutMs / 1000)) : 0;
  if (seconds > 0)
    program = `if command -v timeout >/dev/null; then timeout -s KILL ${seconds} ${program}; else ${program}; fi`;
  if (step.workingDir) lines.push(`mkdir -p ${q(step.workingDir)} && cd ${q(step.workingDir)}`);
  lines.push(program, 'code=$?', `echo "exitCode:$code" > ${TERMINATION_LOG}`);
  for (const name of run.results) {
    const file = q(`${resultsDir}/${name}`);
    lines.push(
      `if [ -f ${file} ]; then echo "result:${name}:$(base64 < ${file} | tr -d '\\n')" >> ${TERMINATION_LOG}; fi`,
    );
  }
  const next = step.onError === 'continue' ? 'ok' : '$([ $code -eq 0 ] && echo ok || echo fail)';
  lines.push(`echo ${next} > ${done}`, 'exit $code');
  return lines.join('\n');
}

/** Where the task's containers write results: Tekton's path when the run was resolved with container paths. */
function resultsPathOf(run: Pick<ResolvedTaskRun, 'resultsDir' | 'mounts'>): string {
  return run.mounts ? CONTAINER_RESULTS_DIR : run.resultsDir;
}

/** The Pod (one container per step), its secret env and its workspaces' claims. */
export function podPlan(
  run: ResolvedTaskRun,
  options: { namespace: string; runKey: string; secretValues: Map<string, string>; runId?: string },
): PodPlan {
  const name = `slipway-${slug(run.name, 30)}-${slug(options.runKey, 20)}`.slice(0, 63).replace(/-+$/, '');
  const runLabel = options.runId ? { [RUN_LABEL]: slug(options.runId, 63) } : {};
  const labels = {
    'app.kubernetes.io/managed-by': 'slipway',
    'slipway.dev/task': slug(run.name, 63),
    ...runLabel,
  };
  const secretName = `${name}-env`.slice(0, 253);
  // [name, the run's directory (names the claim), the path steps see]
  const workspaces: [string, string, string][] = run.mounts
    ? run.mounts.map((m) => [m.name, m.hostPath, m.path])
    : Object.entries(run.workspaces).map(([ws, p]) => [ws, p, p]);
  const volumes: Record<string, unknown>[] = [
    { name: 'slipway-run', emptyDir: {} },
    { name: 'slipway-results', emptyDir: {} },
    ...workspaces.map(([ws, p]) => ({
      name: `ws-${slug(ws, 50)}`,
      persistentVolumeClaim: { claimName: claimName(p) },
    })),
  ];
  const mounts = [
    { name: 'slipway-run', mountPath: RUN_DIR },
    { name: 'slipway-results', mountPath: resultsPathOf(run) },
    ...workspaces.map(([ws, , path]) => ({ name: `ws-${slug(ws, 50)}`, mountPath: path })),
  ];
  // a pod template's env beats the steps' own (Tekton appends it to every step container)
  const templateEnv = templateEnvOf(run.podTemplate);
  const containers = run.steps.map((step, i) => {
    const env: Record<string, unknown>[] = Object.entries(step.env)
      .filter(([k]) => !templateEnv.some((e) => e.name === k))
      .map(([k, v]) => ({ name: k, value: v }));
    for (const s of step.secretEnv) {
      if (options.secretValues.has(`${s.secret}/${s.key}`))
        env.push({
          name: s.name,
          valueFrom: { secretKeyRef: { name: secretName, key: secretKey(s.secret, s.key) } },
        });
    }
    env.push(...templateEnv);
    if (step.script !== undefined) env.push({ name: 'SLIPWAY_STEP_SCRIPT', value: step.script });
    return {
      name: `step-${slug(step.name, 50)}`,
      image: step.image,
      command: ['/bin/sh', '-c', stepWrapper(i, step, run)],
      env,
      volumeMounts: mounts,
      terminationMessagePolicy: 'File',
    };
  });
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: options.namespace, labels },
    spec: {
      // a run document's pod template (node selection, tolerations, security, DNS...); the
      // executor's own fields below are set after it (volumes are refused: kubernetes-executor-refusals.ts)
      ...podFieldsOf(run.podTemplate),
      restartPolicy: 'Never',
      // a run document's taskRunSpecs / taskRunTemplate service account; else the namespace's default
      ...(run.serviceAccountName ? { serviceAccountName: run.serviceAccountName } : {}),
      ...(run.timeoutMs ? { activeDeadlineSeconds: Math.max(1, Math.ceil(run.timeoutMs / 1000)) } : {}),
      containers,
      volumes,
    },
  };
  const secret =
    options.secretValues.size > 0
      ? {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: secretName, namespace: options.namespace, labels },
          type: 'Opaque',
          stringData: Object.fromEntries(
            [...options.secretValues].map(([k, v]) => {
              const [s, key] = k.split('/') as [string, string];
              return [secretKey(s, key), v];
            }),
          ),
        }
      : null;
  const claims = workspaces.map(([, p]) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(p),
      namespace: options.namespace,
      labels: { 'app.kubernetes.io/managed-by': 'slipway', ...runLabel },
    },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  }));
  return { pod, secret, claims, containers: containers.map((c) => c.name) };
}

/** A pod template's fields that go on the pod as they are (all but env and volumes). */
function podFieldsOf(template: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!template) return {};
  const { env: _env, volumes: _volumes, ...fields } = template;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
}

/** A pod template's env (name and value: run-pod-templates.ts refuses valueFrom there). */
function templateEnvOf(template: Record<string, unknown> | undefined): { name: string; value: string }[] {
  const env = Array.isArray(template?.env) ? (template.env as { name: string; value?: string }[]) : [];
  return env.map((e) => ({ name: e.name, value: e.value ?? '' }));
}

/** A Secret data key for one secret's key: letters, digits, '-', '_' and '.'. */
function secretKey(secret: string, key: string): string {
  return `${secret}.${key}`.replace(/[^A-Za-z0-9._-]/g, '_');
}

export interface StepReport {
  skipped: boolean;
  exitCode: number | null;
  results: Record<string, string>;
}

/** Reads a step container's termination message. */
export function parseTerminationMessage(message: string | undefined, exitCode: number | null): StepReport {
  const text = message ?? '';
  if (text.trim() === 'skipped') return { skipped: true, exitCode, results: {} };
  const results: Record<string, string> = {};
  let code = exitCode;
  for (const line of text.split('\n')) {
    const m = /^exitCode:(\d+)$/.exec(line.trim());
    if (m) code = Number(m[1]);
    const r = /^result:([^:]+):(.*)$/.exec(line.trim());
    if (r) results[r[1]!] = Buffer.from(r[2]!, 'base64').toString('utf8');
  }
  return { skipped: false, exitCode: code, results };
}
