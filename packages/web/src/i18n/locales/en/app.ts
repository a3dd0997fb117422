/** English for the shell (src/app, src/ui); assembled in ../en.ts. */

export const app = {
  name: 'Slipway',
  tagline: 'Build, deploy and operate microservices on Kubernetes',
  loading: 'Loading...',
  skipToContent: 'Skip to content',
  openNavigation: 'Open navigation',
  closeNavigation: 'Close navigation',
  mainNavigation: 'Main navigation',
} as const;

export const loadingPage = {
  titles: ['Loading your workspace', 'Fetching the latest state', 'Preparing the view', 'Almost there'],
} as const;

export const errors = {
  fallbackTitle: 'Something went wrong:',
  tryAgain: 'Try again',
  routerTitle: 'Unexpected Application Error',
  goHome: 'Go to the dashboard',
  accessDeniedTitle: "You don't have permission to view this page",
  accessDeniedHint: 'Contact admin to get the access',
  default: 'Something went wrong. Please try again!',
} as const;

export const language = {
  menu: 'Language',
  choose: 'Choose language',
} as const;

export const countdown = {
  label: 'Time remaining',
} as const;
