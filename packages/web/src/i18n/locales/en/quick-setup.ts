/** English for src/features/quick-setup; assembled in ../en-app.ts. */

export const quickSetup = {
  title: 'Quick setup',
  // the buttons and links that lead to it (applications list, its empty state, dashboard)
  entry: 'Quick setup',
  entryHint:
    'The quickest way: quick setup makes a repository, a pipeline and an application from a template and starts the first run.',
  intro:
    'From an app template to a running pipeline in one step: Slipway makes a repository with the template’s files, its credentials, a pipeline and an application, then starts the first run.',
  back: 'Microservice library',
  missingPermissions:
    'Quick setup also makes a repository, secrets, a registry token and a pipeline, and runs it. Your role lacks: {{permissions}}. Ask an admin, or the setup will be refused.',
  loadError: {
    templates: 'The app templates could not be loaded.',
    environments: 'The environments could not be loaded.',
    repositories: 'The repositories could not be loaded.',
    registries: 'The registries could not be loaded.',
    serviceTypes: 'The service types could not be loaded.',
  },
  template: {
    title: 'Choose a template',
    files: 'Files it seeds',
    none: 'No app templates are available.',
  },
  languages: { javascript: 'JavaScript', python: 'Python', go: 'Go', java: 'Java', html: 'HTML' },
  form: {
    title: 'Details',
    name: 'Name',
    nameHelp:
      'Lowercase letters, numbers and hyphens: it names the application, its repository, its pipeline and its objects on the clusters.',
    description: 'Description',
    environments: 'Environments',
    environmentsHelp: 'Where the application is deployed; the first run deploys to the first one chosen.',
    repository: 'Repository',
    hosted: 'New hosted repository',
    hostedHelp:
      'Slipway makes a repository named {{name}} and seeds it with the template’s files: the service, its test, a Dockerfile, the manifests and the pipeline.',
    hostedUnnamed: 'like the application',
    existingHelp:
      'The pipeline builds this repository as it is: nothing is added to it, so it needs its own Dockerfile and manifests.',
    registry: 'Registry',
    registryHelp: '{{name}}: the image is pushed as {{image}}',
    insecure: 'This registry is served over plain HTTP: pushes to it skip TLS verification.',
    noRegistry: 'No registry is available for quick setup.',
    serviceType: 'Service type',
    port: 'Port',
    namespace: 'Namespace',
    serviceHelp: 'Prefilled from the template: how the application is served on the clusters.',
    advanced: 'Advanced',
    baseImage: 'Base image',
    baseImageHelp:
      'Leave empty to use the template’s own base image. Use a mirror’s copy where public images cannot be pulled, or scratch for an image of the files alone.',
    submit: 'Create and run',
    progress:
      'Making the repository, its credentials, the pipeline and the application, then starting the first run…',
  },
  result: {
    title: '{{name}} is set up and its first run has started',
    template: 'From the {{template}} template.',
    application: 'Application',
    openApplication: 'Open application',
    repository: 'Repository',
    cloneUrl: 'Clone URL',
    copy: 'Copy clone URL',
    copied: 'The clone URL is copied.',
    selectToCopy: 'The clone URL is selected: copy it with your keyboard or menu.',
    commit: 'Seed commit {{commit}}',
    notSeeded: 'An existing repository: nothing was added to it.',
    loopback:
      'This address ({{host}}) only reaches this machine: a pipeline on a cluster elsewhere cannot clone from it. Set SLIPWAY_PUBLIC_URL to an address your cluster can reach.',
    pipeline: 'Pipeline',
    openPipeline: 'Open pipeline',
    image: 'Image',
    secrets: 'Secrets',
    noSecrets: 'None made',
    viewRun: 'View first run',
    another: 'Set up another',
  },
};
