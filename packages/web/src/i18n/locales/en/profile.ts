/** English for src/features/profile; assembled in ../en-app.ts. */

export const profilePage = {
  title: 'Profile settings',
  details: 'Personal details',
  save: 'Save changes',
  saved: 'Your details are saved.',
  changePassword: 'Change password',
  currentPassword: 'Current password',
  passwordChanged: 'Your password has been changed.',
  loadError: 'Your profile could not be loaded.',
  retry: 'Try again',
} as const;
