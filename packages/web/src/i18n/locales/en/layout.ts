/** English for the application layout (src/app/layout); assembled in ../en-app.ts. */

export const userMenu = {
  label: 'Account menu for {{name}}',
  labelAnonymous: 'Account menu',
  profile: 'Profile settings',
  signOut: 'Sign out',
} as const;

export const workspace = {
  label: 'Workspace',
} as const;

export const groups = {
  build: 'Build',
  deploy: 'Deploy',
  operate: 'Operate',
  insight: 'Insight',
  settings: 'Settings',
} as const;

export const nav = {
  dashboard: 'Dashboard',
  applications: 'Microservice library',
  pipelines: 'Pipelines',
  pipelineTemplates: 'Pipeline templates',
  taskTemplates: 'Task templates',
  externalPipelines: 'External pipelines',
  studio: 'Studio',
  repositories: 'Repositories',
  registries: 'Registries',
  securityScanning: 'Security scanning',
  releases: 'Releases',
  schedules: 'Schedules',
  clusters: 'Clusters',
  environments: 'Environments',
  helm: 'Helm channels and charts',
  snapshots: 'Snapshots',
  restoredSnapshots: 'Restored snapshots',
  blockchain: 'Blockchain contracts',
  backups: 'Backups',
  alerts: 'Alerts',
  notifications: 'Notifications',
  webhooks: 'Webhooks',
  secrets: 'Secrets',
  configMaps: 'Config maps',
  doraMetrics: 'DORA metrics',
  auditTrails: 'Audit trails',
  providers: 'Providers',
  profile: 'Profile settings',
  account: 'Account management',
  team: 'Team management',
  roles: 'Roles',
  serviceAccounts: 'Service accounts',
  billing: 'Plan and billing',
} as const;

/** An address Slipway hands out that only reaches the machine it runs on (ui/LoopbackWarning). */
export const loopback = {
  agent:
    'This address ({{host}}) only reaches this machine: an agent on another machine cannot connect to it. Set SLIPWAY_PUBLIC_URL to an address your cluster can reach, then attach again.',
  provider:
    'This address ({{host}}) only reaches this machine: GitHub, GitLab or Bitbucket cannot deliver to it. Set SLIPWAY_PUBLIC_URL to an address they can reach.',
};
