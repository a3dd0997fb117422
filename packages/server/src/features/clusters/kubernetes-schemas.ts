import { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-models/apps/v1';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import {
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
} from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import {
  ConfigMap,
  Namespace,
  PersistentVolumeClaim,
  Pod,
  Secret,
  Service,
  ServiceAccount,
} from 'kubernetes-models/v1';

interface Model {
  validate(): void;
}
type ModelClass = new (data: never) => Model;

/** The kinds whose OpenAPI schema we check before anything is sent to a cluster. */
const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ServiceAccount': ServiceAccount,
  'v1/Secret': Secret,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/Pod': Pod,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'apps/v1/DaemonSet': DaemonSet,
  'apps/v1/ReplicaSet': ReplicaSet,
  'batch/v1/Job': Job,
  'batch/v1/CronJob': CronJob,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
};

/** Whether the kind has a schema here (other kinds, custom resources included, pass unchecked). */
export function hasKubernetesSchema(apiVersion: string, kind: string): boolean {
  return `${apiVersion}/${kind}` in MODELS;
}

/**
 * Checks an object against the Kubernetes schema of its kind (kubernetes-models); answers the
 * problem in words, or null when it is valid or its kind has no schema here.
 */
export function kubernetesSchemaProblem(object: Record<string, unknown>): string | null {
  const Model = MODELS[`${String(object.apiVersion)}/${String(object.kind)}`];
  if (!Model) return null;
  try {
    new Model(object as never).validate();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
