/** English for src/features/tour; assembled in ../en-app.ts. */

export const tour = {
  take: 'Take the tour',
  next: 'Next',
  previous: 'Previous',
  close: 'Close tour',
  skip: 'Skip tour',
  progress: 'Step {{current}} of {{total}}',
  lead: 'Open this to continue the tour here.',
  steps: {
    library: {
      title: 'Microservice library',
      body: 'Microservice library sidebar entry. Open it to continue.',
    },
    initiate: {
      title: 'Initiate a new microservice',
      body: 'The initiate-new-microservice button. Press it to continue.',
      lead: 'Open the microservice library to continue the tour.',
    },
    generalDetails: {
      title: 'General details',
      body: 'The microservice creation wizard, general details: environment, registry, repository. Fill them in and press Next to continue.',
      lead: 'Initiate a new microservice to continue the tour.',
    },
    success: {
      title: 'Microservice created',
      body: 'The microservice success page, with a proceed-to-pipeline-run action.',
      lead: 'Create the microservice, with a pipeline, and proceed to its pipeline run to continue the tour.',
    },
    runList: {
      title: 'Pipeline runs',
      body: 'The pipeline run list with its initiate button. Initiate a pipeline run to continue.',
      lead: 'Open Pipelines to continue the tour.',
    },
    provisioning: {
      title: 'Provisioning',
      body: 'A loading page while the build environment is provisioned.',
    },
    attachConfigure: {
      title: 'Configure cluster',
      body: 'Cluster attach, step 1: configure cluster. Fill in the details and go on.',
      lead: 'Attach a cluster from Clusters to continue the tour.',
    },
    attachConnect: {
      title: 'Connect cluster',
      body: 'Step 2: connect cluster by downloading a yaml file, then apply it to your cluster.',
    },
    attachHeartbeat: {
      title: 'Wait for heartbeat',
      body: 'Step 3: wait for heartbeat (about 5 minutes) from the agent in your cluster.',
    },
    attachNamespaces: {
      title: 'Choose namespaces',
      body: 'Step 4: choose namespaces for logs.',
    },
    runPanel: {
      title: 'Pipeline run input',
      body: 'The pipeline run input panel: prerequisites (sample cluster and registry), pipeline template, timeout value. Start the run to continue.',
      lead: 'Initiate a pipeline run to continue the tour.',
    },
    canvas: {
      title: 'Studio canvas',
      body: 'The studio canvas, a directed acyclic graph view of the run.',
    },
    inputParameters: {
      title: 'Input parameters',
      body: 'Open the input parameters tab.',
    },
    paramsPanel: {
      title: 'Input parameters',
      body: 'The parameters this run was started with.',
    },
    canvasClick: {
      title: 'Canvas',
      body: 'Click the canvas: choosing a task there shows its logs.',
    },
    mainCanvas: {
      title: 'Canvas',
      body: 'Each task of the run, with its status and the order the tasks run in.',
    },
    logs: { title: 'Logs', body: 'Open the logs tab.' },
    terminal: { title: 'Terminal', body: 'The logs tab and terminal: the run’s output, live.' },
    buildTaskLog: {
      title: 'Per-task logs',
      body: 'Per-task log selection: choose the image build task.',
    },
    applyYamlLog: {
      title: 'Per-task logs',
      body: 'Per-task log selection: now choose the apply yaml task.',
    },
    returnToCanvas: { title: 'Return to canvas', body: 'Return to canvas.' },
    finalCanvas: {
      title: 'Your run',
      body: 'The tour ends when the run reaches a finished status.',
    },
    overview: {
      title: 'Microservice overview',
      body: 'The microservice overview link. Open it to finish the tour.',
      lead: 'Open the microservice library to continue the tour.',
    },
  },
} as const;
