import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import {
  persistReducer,
  persistStore,
  FLUSH,
  PAUSE,
  PERSIST,
  PURGE,
  REGISTER,
  REHYDRATE,
} from 'redux-persist';
import type { Storage } from 'redux-persist';
import { ONBOARDING_PERSIST_KEY, PERSIST_TIMEOUT_MS } from '@slipway/contracts';
import { authSlice, type AuthState } from '../features/auth/auth-slice';
import { saveSession } from '../features/auth/auth-storage';
import { clusterSlice } from '../features/clusters/cluster-slice';
import { onboardingSlice } from '../features/onboarding/onboarding-slice';
import { onboardingV2Slice } from '../features/onboarding/onboarding-v2-slice';
import { api } from './api';
import { analyticsListener } from './telemetry/analytics-listener';

/** redux-persist's storage over sessionStorage; a browser without it keeps state in memory only. */
export const sessionStorageEngine: Storage = {
  getItem: (key: string) => Promise.resolve(safely(() => sessionStorage.getItem(key), null)),
  setItem: (key: string, value: string) =>
    Promise.resolve(safely(() => sessionStorage.setItem(key, value), undefined)),
  removeItem: (key: string) => Promise.resolve(safely(() => sessionStorage.removeItem(key), undefined)),
};

function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/**
 * The onboarding slice is kept in sessionStorage under `onboarding-root` (spec §3, §9). If the
 * restore takes longer than 5000 ms the app proceeds without the stored state.
 */
export const onboardingPersistConfig = {
  key: ONBOARDING_PERSIST_KEY,
  // Keyed exactly `onboarding-root` in storage, not redux-persist's default `persist:` prefix.
  keyPrefix: '',
  storage: sessionStorageEngine,
  timeout: PERSIST_TIMEOUT_MS,
};

export function createRootReducer() {
  return combineReducers({
    auth: authSlice.reducer,
    onboarding: persistReducer(onboardingPersistConfig, onboardingSlice.reducer),
    onboardingV2: onboardingV2Slice.reducer,
    cluster: clusterSlice.reducer,
    [api.reducerPath]: api.reducer,
  });
}

export function createStore() {
  const store = configureStore({
    reducer: createRootReducer(),
    middleware: (getDefault) =>
      getDefault({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
      })
        .prepend(analyticsListener.middleware)
        .concat(api.middleware),
  });
  setupListeners(store.dispatch);
  keepSessionStored(store);
  const persistor = persistStore(store);
  return { store, persistor };
}

/** Writes the token and workspace to localStorage whenever they change (see auth-storage.ts). */
function keepSessionStored(store: {
  getState: () => { auth: AuthState };
  subscribe: (l: () => void) => unknown;
}) {
  let last = store.getState().auth;
  store.subscribe(() => {
    const auth = store.getState().auth;
    if (auth.token === last.token && auth.projectId === last.projectId) return;
    last = auth;
    saveSession({ token: auth.token, projectId: auth.projectId });
  });
}

export type AppStore = ReturnType<typeof createStore>['store'];
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
