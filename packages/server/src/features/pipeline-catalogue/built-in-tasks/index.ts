import { BUILDAH_TASK } from './buildah.js';
import { GIT_CLONE_TASK } from './git-clone.js';
import { RUN_SCRIPT_TASK } from './run-script.js';
import { TEST_REPORT_TASK } from './test-report.js';
import { APPLY_YAML_TASK, DEPLOY_TASK } from '../../deployments/deploy-tasks.js';

/** The built-in task templates: name → Tekton v1 Task YAML. */
export const BUILT_IN_TASKS: ReadonlyArray<{ name: string; description: string; definition: string }> = [
  {
    name: 'git-clone',
    description: 'Clone a Git repository (git CLI; token secret for private ones)',
    definition: GIT_CLONE_TASK,
  },
  { name: 'run-script', description: 'Run a shell script', definition: RUN_SCRIPT_TASK },
  { name: 'buildah', description: 'Build and push an OCI image with buildah', definition: BUILDAH_TASK },
  {
    name: 'test-report',
    description: 'Count tests and failures in a JUnit XML report',
    definition: TEST_REPORT_TASK,
  },
  {
    name: 'apply-yaml',
    description: "Apply Kubernetes manifests to the run's environment, through the cluster's agent",
    definition: APPLY_YAML_TASK,
  },
  {
    name: 'deploy',
    description: "Roll out an image to the run's environment and wait until it is healthy",
    definition: DEPLOY_TASK,
  },
];
