import { Provider } from 'react-redux';
import { AppRoot } from '../app/AppRoot';
import { createStore } from '../app/store';
import { AUTH_STORAGE_KEY } from '../features/auth/auth-storage';
import { renderWithI18n } from './render';

/** A session kept from an earlier visit, as the browser would have it stored. */
export function storeSession(token: string, projectId: string | null = 'ws-1') {
  localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ token, projectId }));
}

/** The whole app (store, theme, router) at a path, as a browser opening that address. */
export function renderApp(path: string) {
  window.history.pushState({}, '', path);
  const { store, persistor } = createStore();
  const view = renderWithI18n(
    <Provider store={store}>
      <AppRoot persistor={persistor} />
    </Provider>,
  );
  return { store, ...view };
}

/** The current address, path and query. */
export function currentUrl() {
  return `${window.location.pathname}${window.location.search}`;
}
