/**
 * Why a task cannot take a pod template on Slipway's own executor (local or sandbox): it runs in
 * Slipway's sandbox on the server, not in a pod, so there is no pod for node selection,
 * tolerations, affinity, a pod security context or pod volumes to apply to. Only an executor whose
 * tasks run in a cluster (the Kubernetes executor, Tekton) honours one.
 */
export function serverPodTemplateRefusal(): string {
  return "a pod template cannot be honoured here: the task runs in Slipway's own sandbox on the server, not in a Kubernetes pod; run it on an environment whose cluster runs the tasks";
}
