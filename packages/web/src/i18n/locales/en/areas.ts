/** English for src/features/areas; assembled in ../en-app.ts. */

export const comingSoon = {
  badge: 'Coming soon',
  body: 'This part of Slipway is not built yet. Nothing on this page is sample data: when it arrives it will show your real {{area}}.',
  plannedTitle: 'What it will do',
  backToDashboard: 'Back to the dashboard',
} as const;

export const areas = {
  dashboard: 'DORA metrics and the status of every project in this workspace.',
  applications:
    'Your applications and microservices: create one from a repository, pick its registry and environment, and follow it to production.',
  pipelines:
    'Pipeline runs with their status, start and execution time, cluster and timeout; run, re-run, abort and roll back.',
  pipelineTemplates: 'Reusable Tekton pipeline definitions that microservices start from.',
  taskTemplates:
    'Reusable Tekton tasks (build an image, scan it, apply manifests) to compose pipelines from.',
  externalPipelines: 'Pipelines that run in another system, followed from here.',
  studio: 'The canvas workspace: pipelines and runs as their graphs, pipelines edited visually.',
  repositories: 'Git repositories Slipway hosts, with their branches and deploy tokens, and external ones.',
  registries: 'Slipway’s own container registry: the workspace’s images and their tags.',
  securityScanning:
    'Vulnerabilities, code smells and software bills of materials from Snyk, SonarQube and Clair.',
  releases: 'Release templates and their executions across environments.',
  schedules: 'Scheduled runs by name, time and frequency.',
  clusters: 'Kubernetes clusters (EKS, AKS, GKE or your own) attached through the Slipway agent.',
  environments:
    'Deployment environments by name, type and description, each bound to a cluster and namespace.',
  helm: 'Helm channels, their charts, and releases by cluster, namespace and chart version.',
  snapshots: 'Snapshots of workloads and their volumes.',
  restoredSnapshots: 'Snapshots restored into a cluster, with their state.',
  blockchain: 'Smart contracts deployed and managed alongside your services.',
  backups: 'Backups by name and status, repeating hourly, daily or weekly.',
  alerts: 'Alert rules by severity, duration in seconds and description.',
  notifications: 'Where Slipway tells you things: Slack, e-mail over SMTP and Jira.',
  webhooks: 'Webhooks by type, event and branch that start pipelines.',
  secrets: 'Secrets by name, description and type, global or per environment; values are never shown again.',
  configMaps:
    'Config maps: plain settings by name and key that pipeline steps read as environment variables or files.',
  doraMetrics: 'Deployment frequency, lead time for changes, change failure rate and time to restore.',
  auditTrails: 'Who changed what, when, and from where.',
  providers:
    'Integrations: cloud accounts, registries, source control, observability, scanning and messaging.',
  profile: 'Your name, e-mail address and password.',
  account: 'Organisations, account switching and enterprise single sign-on.',
  team: 'Members of the account and of each project, and their roles.',
  roles: 'Master admin, account admin, project admin, general and custom roles.',
  serviceAccounts: 'Machine identities with project permissions and an expiring token shown once.',
  billing: 'Your plan, invoice history and licence key.',
} as const;
