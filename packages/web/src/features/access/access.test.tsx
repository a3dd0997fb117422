import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, type CallerPermissions, type PermissionGrant } from '@slipway/contracts';
import { forwardFetchTo, startApiPeer, type ApiPeer } from '../../test/api-peer';
import { renderApp, storeSession } from '../../test/app';
import { callerAllows } from './permission-check';

let peer: ApiPeer;
let restoreFetch: () => void;
let userId: string;
beforeAll(async () => {
  peer = await startApiPeer();
});
afterAll(() => peer.close());
beforeEach(() => {
  restoreFetch = forwardFetchTo(peer);
  const user = peer.addUser({ email: `dev-${Math.random()}@example.com`, password: 'Engine#1843' });
  userId = user.id;
  storeSession(peer.signIn(user).token);
});
afterEach(() => {
  restoreFetch();
  window.history.pushState({}, '', '/');
});

const opts = { timeout: 15_000 };

/** A custom role that may look at microservices but has no pipeline rights at all. */
function customRole(workspace: PermissionGrant[]): CallerPermissions {
  return {
    organisationRole: 'member',
    organisation: [{ permission: 'organisation:view' }, { permission: 'members:view' }],
    workspaceId: 'ws-1',
    workspaceRole: 'role-no-pipelines',
    workspace,
  };
}

describe('permission guards', () => {
  it('shows the access denied screen on /pipelines to a role without pipeline rights', async () => {
    peer.org.permissions.set(userId, customRole([{ permission: 'applications:view' }]));
    renderApp('/pipelines');
    const denied = await screen.findByTestId('access-denied', {}, opts);
    expect(denied.textContent).toContain("You don't have permission to view this page");
    expect(denied.textContent).toContain('Contact admin to get the access');
    expect(screen.queryByTestId('area-pipelines')).toBeNull();
  });

  it("disables 'Run pipeline' elsewhere with 'Action not allowed contact Admin'", async () => {
    peer.org.permissions.set(userId, customRole([{ permission: 'pipelines:view' }]));
    renderApp('/pipelines');
    const run = (await screen.findByTestId('run-pipeline-button', {}, opts)) as HTMLButtonElement;
    expect(run.textContent).toBe('Run pipeline');
    expect(run.disabled).toBe(true);
    // the new-pipeline button is refused too; the run button's wrapper is the one around it
    const wrapper = run.closest('[data-testid="not-allowed"]')!;
    await userEvent.setup().hover(wrapper);
    expect((await screen.findByRole('tooltip', {}, opts)).textContent).toBe(MESSAGES.actionNotAllowed);
  });

  it('lists in the sidebar only the areas the caller may open', async () => {
    peer.org.permissions.set(userId, customRole([{ permission: 'applications:view' }]));
    renderApp('/applications');
    await screen.findByTestId('area-applications', {}, opts);
    const sidebar = screen.getByTestId('sidebar');
    await within(sidebar).findByTestId('nav-applications', {}, opts);
    // Grants arrive asynchronously; once they have, the pipelines and releases links are gone.
    await within(sidebar).findByTestId('nav-dashboard', {}, opts);
    const gone = async (id: string) => {
      for (let i = 0; i < 50 && within(sidebar).queryByTestId(id); i++)
        await new Promise((r) => setTimeout(r, 50));
      return within(sidebar).queryByTestId(id) === null;
    };
    expect(await gone('nav-pipelines')).toBe(true);
    expect(await gone('nav-releases')).toBe(true);
    expect(within(sidebar).getByTestId('nav-applications')).toBeTruthy();
  });

  it('lets a role with pipeline rights open the page and run a pipeline', async () => {
    renderApp('/pipelines');
    const page = await screen.findByTestId('area-pipelines', {}, opts);
    expect(within(page).queryByTestId('not-allowed')).toBeNull();
    expect((within(page).getByTestId('run-pipeline-button') as HTMLButtonElement).disabled).toBe(false);
  });

  it('keeps organisation pages behind organisation grants', async () => {
    peer.org.permissions.set(userId, customRole([{ permission: 'pipelines:view' }]));
    renderApp('/settings/service-accounts');
    expect(await screen.findByTestId('access-denied', {}, opts)).toBeTruthy();
  });
});

describe('callerAllows', () => {
  const caller = customRole([{ permission: 'pipelines:execute', environments: ['staging'] }]);
  it('reads organisation permissions from the organisation grants', () => {
    expect(callerAllows(caller, 'members:view')).toBe(true);
    expect(callerAllows(caller, 'members:edit')).toBe(false);
    expect(callerAllows(caller, 'workspace:create')).toBe(false);
  });
  it('honours environment limits when an environment is named', () => {
    expect(callerAllows(caller, 'pipelines:execute')).toBe(true);
    expect(callerAllows(caller, 'pipelines:execute', 'staging')).toBe(true);
    expect(callerAllows(caller, 'pipelines:execute', 'production')).toBe(false);
    expect(callerAllows(undefined, 'pipelines:view')).toBe(false);
  });
});
