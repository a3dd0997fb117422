/** Admission limits: runs in progress at once per workspace (Settings → Account) and per pipeline. */
export const runLimits = {
  workspace: {
    title: 'Runs in progress at once',
    description:
      "At most this many of this workspace's runs are in progress at once, across every server; more wait in the queue. Leave it empty for the default ({{default}}).",
    field: 'Runs of this workspace at once',
  },
  pipeline: {
    title: 'Runs of this pipeline at once',
    field: 'Runs of this pipeline at once',
    capped: "The workspace's limit of {{workspace}} also holds: at most {{effective}} run at once.",
  },
  hint: 'From 1 to {{max}}; empty for the default ({{default}})',
  inForce: 'Now: {{effective}} at once',
  saved: 'The limit is saved.',
} as const;
