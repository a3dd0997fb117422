/** English for src/features/dashboard; assembled in ../en-app.ts. */

export const dashboard = {
  title: 'Dashboard',
  loadError: 'The dashboard could not be loaded.',
  gettingStarted: {
    title: 'Getting started',
    body: 'From an empty workspace to your first deployment:',
    done: 'Done',
    todo: 'To do',
    steps: {
      cluster: 'Attach a cluster',
      application: 'Create an application',
      pipeline: 'Create a pipeline',
      run: 'Run the pipeline',
      deployment: 'Deploy to an environment',
    },
    hints: {
      cluster:
        'Run Slipway’s agent on your Kubernetes cluster; it dials in, nothing is opened on the cluster.',
      application: 'A microservice: its repository, its image and how it is served.',
      pipeline: 'Clone, test, build and push, deploy: paste Tekton YAML or start from a template.',
      run: 'Runs stream their logs live; a push to the application’s branch starts one too.',
      deployment: 'A pipeline with the deploy or apply-yaml task records the deployment and its health.',
    },
  },
  applications: {
    title: 'Applications ({{count}})',
    none: 'No applications yet.',
    create: 'Create one',
  },
  clusters: {
    title: 'Clusters',
    none: 'No cluster is attached.',
    attach: 'Attach one',
    heartbeat: 'last heartbeat {{at}}',
    noHeartbeat: 'no heartbeat yet',
  },
  runs: {
    title: 'Pipeline runs',
    lastWeek: 'In the last 7 days',
    none: 'No runs yet.',
    run: 'Run',
    pipeline: 'Pipeline',
    status: 'Status',
    trigger: 'Trigger',
    queued: 'Queued',
  },
};
