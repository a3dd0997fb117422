/** English for src/features/config-maps; assembled in ../en-app.ts. */

export const configMapsPage = {
  title: 'Config maps',
  newConfigMap: 'New config map',
  editTitle: 'Config map {{name}}',
  name: 'Name',
  description: 'Description',
  data: 'Data',
  dataHelp:
    'Each key is an environment variable (envFrom, configMapKeyRef) or a file in a workspace bound to this config map. Values are not secret: they are shown here.',
  key: 'Key',
  value: 'Value',
  emptyKey: 'empty',
  addKey: 'Add a key',
  removeKey: 'Remove key {{key}}',
  duplicateKey: 'This key is already used',
  create: 'Create',
  save: 'Save',
  edit: 'Edit',
  delete: 'Delete',
  deleteTitle: 'Delete {{name}}?',
  deleteBody: 'Pipelines that read this config map will fail until it exists again.',
  loadError: 'The config maps could not be loaded.',
  empty: 'No config maps yet',
  emptyBody:
    'Config maps hold settings that pipeline steps get as environment variables or as files, like a Kubernetes ConfigMap.',
  columns: {
    name: 'Name',
    description: 'Description',
    keys: 'Keys',
    updated: 'Updated',
    actions: 'Actions',
  },
} as const;
