/** English for src/features/invites; assembled in ../en.ts. */

export const invite = {
  title: 'Accept invite',
  joinTitle: 'Join {{organisation}}',
  introNew: 'You were invited to {{organisation}} as {{email}}. Choose your name and a password to join.',
  introExisting:
    'You were invited to {{organisation}}. You already have an account as {{email}}: sign in to accept.',
  confirmPassword: 'Confirm password',
  accept: 'Accept and join',
  signInAndAccept: 'Sign in and accept',
  acceptWithSession: 'Accept with my current session',
} as const;
