/** English for every area (shared buttons); assembled in ../en.ts. */

export const common = {
  // an address Slipway hands out that only reaches the machine it runs on
  loopback: {
    agent:
      'This address ({{host}}) only reaches this machine: an agent on another machine cannot connect to it. Set SLIPWAY_PUBLIC_URL to an address your cluster can reach, then attach again.',
    provider:
      'This address ({{host}}) only reaches this machine: GitHub, GitLab or Bitbucket cannot deliver to it. Set SLIPWAY_PUBLIC_URL to an address they can reach.',
  },
  cancel: 'Cancel',
  save: 'Save',
  edit: 'Edit',
  delete: 'Delete',
  retry: 'Try again',
  actions: 'Actions',
} as const;
