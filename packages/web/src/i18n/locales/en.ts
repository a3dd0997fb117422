import type { enApp } from './en-app';
import { app, loadingPage, errors, language, countdown } from './en/app';
import { status } from './en/system';
import { auth } from './en/auth';
import { common } from './en/common';
import { invite } from './en/invites';

/**
 * English for the shell and the sign-in screens, bundled in the entry chunk; one file per area in
 * ./en/ (app.ts is the shell's). The application's areas are in en-app.ts.
 */
export const en = {
  app,
  loadingPage,
  errors,
  language,
  status,
  countdown,
  auth,
  common,
  invite,
} as const;

/** The shape every other dictionary follows (partially). */
export type Dictionary = typeof en & typeof enApp;
