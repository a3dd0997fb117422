import type { PipelineTask, Task, TaskSpec } from './model.js';

/** Tasks a pipeline may reference by `taskRef.name`: a Map or a plain object, of Tasks or bare specs. */
export type TaskCatalogue =
  ReadonlyMap<string, Task | TaskSpec> | Readonly<Record<string, Task | TaskSpec | undefined>>;

export function specOf(task: Task | TaskSpec): TaskSpec {
  return 'spec' in task && 'kind' in task ? task.spec : (task as TaskSpec);
}

function lookup(catalogue: TaskCatalogue, name: string): Task | TaskSpec | undefined {
  if (catalogue instanceof Map) return catalogue.get(name);
  return Object.hasOwn(catalogue, name) ? (catalogue as Record<string, Task | TaskSpec>)[name] : undefined;
}

/** The spec a pipeline task runs: its inline `taskSpec`, or its `taskRef` found in the catalogue. */
export function taskSpecFor(pipelineTask: PipelineTask, catalogue: TaskCatalogue): TaskSpec | undefined {
  if (pipelineTask.taskSpec) return pipelineTask.taskSpec;
  const name = pipelineTask.taskRef?.name;
  const found = name ? lookup(catalogue, name) : undefined;
  return found ? specOf(found) : undefined;
}

/** How messages name the task behind a pipeline task: `task "git-clone"` or `the taskSpec of "build"`. */
export function taskLabel(pipelineTask: PipelineTask): string {
  return pipelineTask.taskRef?.name && !pipelineTask.taskSpec
    ? `task "${pipelineTask.taskRef.name}"`
    : `the taskSpec of "${pipelineTask.name}"`;
}
