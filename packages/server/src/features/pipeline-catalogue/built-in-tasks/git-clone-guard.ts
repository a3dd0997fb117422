import type { Executor, TaskIo, TaskOutcome } from '../../pipelines/executor/executor.js';
import type { ResolvedTaskRun } from '../../pipelines/executor/types.js';
import { GitUrlRefused, type GitUrlPolicy } from '../../../platform/git-url-policy.js';
import { GIT_URL_ENV } from './git-clone.js';

/** The protocols git may use in a checked step: file (and local paths) only when allowed. */
const protocols = (policy: GitUrlPolicy) =>
  policy.fileAllowed ? 'file:git:http:https:ssh' : 'git:http:https:ssh';

/** A failed task whose first checked step says why, without starting any of its steps. */
function refused(task: ResolvedTaskRun, stepName: string, reason: string, io: TaskIo): TaskOutcome {
  const at = new Date();
  io.onStepState(stepName, 'running');
  io.onLine({ step: stepName, stream: 'stderr', text: reason, at, seq: 1, attempt: 1 });
  io.onStepState(stepName, 'failed');
  return {
    status: 'failed',
    reason,
    results: {},
    attempts: 1,
    steps: task.steps.map((s) =>
      s.name === stepName
        ? { name: s.name, status: 'failed', exitCode: 1, startedAt: at, finishedAt: new Date(), reason }
        : { name: s.name, status: 'skipped', exitCode: null, startedAt: null, finishedAt: null, reason: '' },
    ),
  };
}

/**
 * Wraps an executor so that a step carrying SLIPWAY_GIT_URL (the built-in git-clone task's) runs
 * only when that URL passes SLIPWAY_GIT_ALLOW: otherwise the step fails with the reason and
 * nothing is fetched. Checked steps also get GIT_ALLOW_PROTOCOL, so git itself refuses file://
 * and local paths (and exotic transports) unless they are allowed.
 */
export function guardGitClone(base: Executor, policy: GitUrlPolicy): Executor {
  return {
    ...(base.containerPaths ? { containerPaths: true } : {}),
    async runTask(task, io, signal) {
      const checked = task.steps.filter((s) => s.env[GIT_URL_ENV] !== undefined);
      if (checked.length === 0) return base.runTask(task, io, signal);
      for (const step of checked) {
        try {
          await policy.check(step.env[GIT_URL_ENV]!);
        } catch (error) {
          if (!(error instanceof GitUrlRefused)) throw error;
          return refused(task, step.name, `param "url": ${error.message}`, io);
        }
      }
      const steps = task.steps.map((s) =>
        s.env[GIT_URL_ENV] === undefined
          ? s
          : { ...s, env: { ...s.env, GIT_ALLOW_PROTOCOL: protocols(policy) } },
      );
      return base.runTask({ ...task, steps }, io, signal);
    },
  };
}
