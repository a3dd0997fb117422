import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loadSession } from './auth-storage';

/** Auth state (spec §3): the login token, the project (workspace) id and a browser fingerprint. */
export interface AuthState {
  token: string | null;
  projectId: string | null;
  /** The browser fingerprint code, sent as X-BrowserFingerprint when present. */
  fingerprint: string | null;
}

export const initialAuthState: AuthState = { token: null, projectId: null, fingerprint: null };

/** Who signed in, for analytics identify (the only place user details enter the store's actions). */
export interface SignedInUser {
  id: string;
  email?: string;
  name?: string;
}

/** The stored session (see auth-storage.ts), read each time a store is made. */
export function restoredAuthState(): AuthState {
  return { ...initialAuthState, ...loadSession() };
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: restoredAuthState,
  reducers: {
    signedIn(state, action: PayloadAction<{ token: string; projectId?: string | null; user: SignedInUser }>) {
      state.token = action.payload.token;
      if (action.payload.projectId !== undefined) state.projectId = action.payload.projectId;
    },
    projectSelected(state, action: PayloadAction<string | null>) {
      state.projectId = action.payload;
    },
    fingerprintSet(state, action: PayloadAction<string | null>) {
      state.fingerprint = action.payload;
    },
    /** Clears the session; the onboarding slices reset on this action too. */
    loggedOut(state) {
      state.token = null;
      state.projectId = null;
    },
  },
});

export const { signedIn, projectSelected, fingerprintSet, loggedOut } = authSlice.actions;
