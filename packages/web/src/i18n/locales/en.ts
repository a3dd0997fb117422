import type { enApp } from './en-app';

/** English for the shell and the sign-in screens; the application's areas are in en-app.ts. */
export const en = {
  app: {
    name: 'Slipway',
    tagline: 'Build, deploy and operate microservices on Kubernetes',
    loading: 'Loading...',
    skipToContent: 'Skip to content',
    openNavigation: 'Open navigation',
    closeNavigation: 'Close navigation',
    mainNavigation: 'Main navigation',
  },
  loadingPage: {
    titles: ['Loading your workspace', 'Fetching the latest state', 'Preparing the view', 'Almost there'],
  },
  errors: {
    fallbackTitle: 'Something went wrong:',
    tryAgain: 'Try again',
    routerTitle: 'Unexpected Application Error',
    goHome: 'Go to the dashboard',
    accessDeniedTitle: "You don't have permission to view this page",
    accessDeniedHint: 'Contact admin to get the access',
    default: 'Something went wrong. Please try again!',
  },
  language: {
    menu: 'Language',
    choose: 'Choose language',
  },
  status: {
    label: 'System status',
    ready: 'Server {{version}} · {{driver}} · ready',
    notReady: 'Server {{version}} · {{driver}} · not ready',
    unreachable: 'Server unreachable ({{status}})',
    checking: 'Checking server…',
    drivers: { pglite: 'embedded database', postgres: 'PostgreSQL' },
  },
  countdown: {
    label: 'Time remaining',
  },
  auth: {
    or: 'or',
    email: 'Email',
    password: 'Password',
    firstName: 'First name',
    lastName: 'Last name',
    organisationName: 'Organisation name (optional)',
    organisationHint: 'Leave it empty to name the organisation after you',
    newPassword: 'New password',
    confirmPassword: 'Confirm new password',
    showPassword: 'Show password',
    hidePassword: 'Hide password',
    backToLogin: 'Back to sign in',
    missingToken: 'This link is incomplete or has been cut short. Ask for a new one.',
    login: {
      title: 'Sign in to Slipway',
      submit: 'Sign in',
      forgot: 'Forgot password?',
      noAccount: "Don't have an account?",
      signupLink: 'Sign up',
      signingIn: 'Signing you in…',
    },
    signup: {
      title: 'Create your account',
      submit: 'Create account',
      haveAccount: 'Already have an account?',
      loginLink: 'Sign in',
    },
    verify: {
      title: 'Verify your email',
      intro: 'We sent a 6-digit code to {{email}}. Enter it below to finish creating your account.',
      introNoEmail: 'Enter your email and the 6-digit code we sent to it.',
      code: 'Verification code',
      submit: 'Verify',
      resendIn: "Didn't get a code? Resend in",
      resendReady: "Didn't get a code?",
      resend: 'Resend code',
      resent: 'We sent a new code to {{email}}.',
    },
    forgot: {
      title: 'Forgot password',
      intro: 'Enter the email of your account and we will send you a link to reset your password.',
      submit: 'Send reset link',
      sentBody: 'If an account exists for {{email}}, a link to reset your password is on its way.',
      notReceived: "Didn't get the email?",
      resend: 'Resend link',
      resent: 'We sent the link again.',
    },
    reset: {
      title: 'Reset password',
      intro: 'Choose a new password for your account.',
      submit: 'Reset password',
      done: 'Your password has been changed. Sign in with your new password.',
    },
    setPassword: {
      title: 'Set new password',
      intro: 'Choose a password to finish setting up your account.',
      submit: 'Set password',
      done: 'Your password is set. Sign in to continue.',
    },
    oauth: {
      login: { google: 'Sign in with G Suite', azure: 'Sign in with Azure' },
      signup: { google: 'Sign up with G Suite', azure: 'Sign up with Azure' },
    },
  },
  common: {
    cancel: 'Cancel',
    save: 'Save',
    edit: 'Edit',
    delete: 'Delete',
    retry: 'Try again',
    actions: 'Actions',
  },
  invite: {
    title: 'Accept invite',
    joinTitle: 'Join {{organisation}}',
    introNew: 'You were invited to {{organisation}} as {{email}}. Choose your name and a password to join.',
    introExisting:
      'You were invited to {{organisation}}. You already have an account as {{email}}: sign in to accept.',
    confirmPassword: 'Confirm password',
    accept: 'Accept and join',
    signInAndAccept: 'Sign in and accept',
    acceptWithSession: 'Accept with my current session',
  },
} as const;

/** The shape every other dictionary follows (partially). */
export type Dictionary = typeof en & typeof enApp;
