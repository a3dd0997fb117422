import { act, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultRuntimeSettings, type RuntimeSettings } from '@slipway/contracts';
import { storeSession } from '../test/app';
import { emptyDashboard } from '../test/applications-peer';
import { ADMIN_PERMISSIONS } from '../test/org-peer';
import { renderWithI18n } from '../test/render';
import { AppRoot } from './AppRoot';
import { useFeatures } from './features-context';
import { Startup } from './Startup';
import { createStore } from './store';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function ShowFeatures() {
  const f = useFeatures();
  return <p data-testid="features">{JSON.stringify(f)}</p>;
}

describe('start-up', () => {
  it('shows plain "Loading..." until the settings settle, then exposes them as features', async () => {
    const settings = deferred<RuntimeSettings>();
    renderWithI18n(
      <Startup load={() => settings.promise}>
        <ShowFeatures />
      </Startup>,
    );
    expect(screen.getByTestId('startup-loading').textContent).toBe('Loading...');
    expect(screen.queryByTestId('features')).toBeNull();
    await act(async () => settings.resolve(defaultRuntimeSettings));
    expect(screen.queryByTestId('startup-loading')).toBeNull();
    expect(JSON.parse(screen.getByTestId('features').textContent!)).toEqual(defaultRuntimeSettings);
  });
});

describe('the routed app', () => {
  beforeEach(() => {
    // The layout needs a session; the stored one is accepted by the stub below.
    storeSession('tok-1');
    // The sidebar's status line and the top bar ask the API; answer like the server does.
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const body = url.endsWith('/access/permissions')
        ? ADMIN_PERMISSIONS
        : url.endsWith('/api/dashboard')
          ? emptyDashboard()
          : url.endsWith('/healthz')
            ? { status: 'ok', version: '0.1.0', uptimeSeconds: 1 }
            : url.endsWith('/profile')
              ? {
                  id: 'u1',
                  email: 'ada@example.com',
                  firstName: 'Ada',
                  lastName: 'Lovelace',
                  organisationId: 'o1',
                  organisations: [],
                  workspaces: [],
                }
              : {
                  status: 'ready',
                  database: {
                    driver: 'pglite',
                    reachable: true,
                    migrationsApplied: 1,
                    migrationsExpected: 1,
                  },
                  instance: null,
                };
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
  });
  afterEach(() => window.history.pushState({}, '', '/'));

  function renderApp(path: string) {
    window.history.pushState({}, '', path);
    const { store, persistor } = createStore();
    return renderWithI18n(
      <Provider store={store}>
        <AppRoot persistor={persistor} />
      </Provider>,
    );
  }

  it('shows an area that is not built as coming soon inside the layout', async () => {
    renderApp('/releases');
    await screen.findByTestId('area-releases', {}, { timeout: 15_000 });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Releases');
    expect(screen.getByText('Coming soon')).toBeTruthy();
    expect(screen.getByTestId('nav-releases').className).toContain('active');
    await waitFor(() => expect(screen.getByTestId('system-status').textContent).toContain('ready'));
    expect(screen.getByTestId('system-status').textContent).toBe('Server 0.1.0 · embedded database · ready');
  });

  it('groups the sidebar as build, deploy, operate, insight, settings', async () => {
    renderApp('/dashboard');
    const sidebar = await screen.findByTestId('sidebar', {}, { timeout: 15_000 });
    const headers = [...sidebar.querySelectorAll('[id^="nav-group-"]')].map((h) => h.textContent);
    expect(headers).toEqual(['Build', 'Deploy', 'Operate', 'Insight', 'Settings']);
    expect(sidebar.querySelector('[data-tour="microservice-library"]')?.textContent).toBe(
      'Microservice library',
    );
  });

  it('ends an unknown path at the router fallback with a 404, inside the layout', async () => {
    renderApp('/no/such/page');
    const fallback = await screen.findByTestId('router-error', {}, { timeout: 15_000 });
    expect(fallback.textContent).toContain('Unexpected Application Error');
    expect(fallback.textContent).toContain('404 Not Found');
    // the sidebar stays: the way back is one click away
    expect(screen.getByTestId('sidebar')).toBeTruthy();
  });

  it('redirects the root to the dashboard', async () => {
    renderApp('/');
    await screen.findByTestId('area-dashboard', {}, { timeout: 15_000 });
    expect(window.location.pathname).toBe('/dashboard');
  });
});
