/** English for every area (shared buttons); assembled in ../en.ts. */

export const common = {
  cancel: 'Cancel',
  save: 'Save',
  edit: 'Edit',
  delete: 'Delete',
  retry: 'Try again',
  actions: 'Actions',
} as const;
