/**
 * Why a task cannot run as the service account `name` on Slipway's own executor (local or
 * sandbox): it runs on the server, not in a cluster, and has no Kubernetes identity to give the
 * task. Only an executor whose tasks run in a cluster (the Kubernetes executor, Tekton) honours one.
 */
export function serverServiceAccountRefusal(name: string): string {
  return `service account "${name}" cannot be honoured here: the task runs on Slipway's own executor (on the server, not in a cluster), which has no Kubernetes identity to give it; run it on an environment whose cluster runs the tasks, or use "default"`;
}
