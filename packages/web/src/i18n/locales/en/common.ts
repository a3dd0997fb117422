/** English for every area (shared buttons); assembled in ../en.ts. */

export const common = {
  unsaved: {
    title: 'Leave without saving?',
    body: 'Your changes are not saved: they are lost if you leave this page.',
    leave: 'Leave',
  },
  cancel: 'Cancel',
  save: 'Save',
  edit: 'Edit',
  delete: 'Delete',
  retry: 'Try again',
  actions: 'Actions',
} as const;
