import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOUR_SERVER_STEPS, TOUR_TIMING } from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { AUTH_STORAGE_KEY } from '../auth/auth-storage';
import { sampleApplication } from '../../test/applications-peer';
import { sampleCluster, sampleEnvironment } from '../../test/clusters-peer';
import { ADMIN_PERMISSIONS } from '../../test/org-peer';
import { samplePipeline, sampleRun } from '../../test/pipelines-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { isAvailable, previousAvailable, skipFrom, TOUR_STEPS } from './steps';
import { useTourTarget } from './useTourTarget';

const ctx = withSignedInPeer();
const SET = '/api/admin/onboarding/setTourStatus';

/** The Onboardingstate bodies sent so far. */
let before = 0;
const sent = () =>
  ctx.peer.requests
    .slice(before)
    .filter((r) => r.method === 'POST' && r.path === SET)
    .map((r) => (r.body as { Onboardingstate: object }).Onboardingstate);
const popover = (o = opts) => screen.findByTestId('tour-popover', {}, o);
const stepShown = async (step: number, timeout = 5000) =>
  waitFor(() => expect(screen.getByTestId('tour-popover').getAttribute('data-step')).toBe(String(step)), {
    timeout,
  });

beforeEach(() => {
  before = ctx.peer.requests.length;
  ctx.peer.tour.state = { is_onboarding_completed: false, currentstep: 0 };
  ctx.peer.clusters.clusters = [];
  ctx.peer.pipelines.pipelines = [samplePipeline()];
  ctx.peer.pipelines.runs = [];
  ctx.peer.applications.applications = [];
  ctx.peer.state.slowAnswers.clear();
});

describe('tour steps', () => {
  it('follow the spec table: each action records the server step of the next tour step', () => {
    expect(TOUR_STEPS).toHaveLength(23);
    TOUR_STEPS.forEach((step, i) => {
      if (step.id === 'provisioning') expect(step.serverStep).toBe(TOUR_SERVER_STEPS.provisioningPage);
      else expect(step.serverStep, step.id).toBe(i + 5);
    });
    expect(TOUR_STEPS.filter((s) => !isAvailable(s)).map((s) => s.id)).toEqual(['provisioning']);
    expect(TOUR_STEPS.slice(0, 4).map((s) => s.targets[0])).toEqual([
      'microservice-library',
      'microservice-initiate',
      'microservice-general-details',
      'microservice-proceed',
    ]);
    expect(TOUR_STEPS[22]!.targets[0]).toBe('microservice-overview-link');
    expect(TOUR_STEPS.find((s) => s.id === 'attachConfigure')!.pollMs).toBe(150);
    expect(TOUR_STEPS.find((s) => s.id === 'runPanel')!.pollMs).toBe(500);
    expect(TOUR_STEPS.find((s) => s.id === 'runList')!.pollMs).toBe(300);
  });

  it('pass over the provisioning page, which Slipway does not have', () => {
    expect(skipFrom(5, true)).toEqual({ index: 10, serverStep: 14 });
    expect(skipFrom(5, false)).toEqual({ index: 6, serverStep: 10 });
    expect(previousAvailable(0, false)).toBe(0);
    expect(previousAvailable(4, false)).toBe(3);
    expect(previousAvailable(6, false)).toBe(4);
    expect(previousAvailable(10, true)).toBe(4);
    expect(previousAvailable(10, false)).toBe(9);
  });
});

describe('useTourTarget', () => {
  afterEach(() => vi.useRealTimers());

  function Probe({ targets, pollMs }: { targets: string[]; pollMs: number }) {
    const found = useTourTarget(targets, pollMs, true);
    return <output data-testid="probe">{found ? `${found.element.id}:${found.rank}` : 'none'}</output>;
  }

  it('polls for the target every pollMs until it exists, and prefers the step’s own screen', () => {
    vi.useFakeTimers();
    render(<Probe targets={['own', 'way-there']} pollMs={TOUR_TIMING.clusterDetailsPollMs} />);
    const probe = screen.getByTestId('probe');
    expect(probe.textContent).toBe('none');
    const way = Object.assign(document.createElement('a'), { id: 'nav' });
    way.dataset.tour = 'way-there';
    document.body.append(way);
    act(() => vi.advanceTimersByTime(149));
    expect(probe.textContent).toBe('none');
    act(() => vi.advanceTimersByTime(1));
    expect(probe.textContent).toBe('nav:1');
    const own = Object.assign(document.createElement('div'), { id: 'panel' });
    own.dataset.tour = 'own';
    document.body.append(own);
    act(() => vi.advanceTimersByTime(150));
    expect(probe.textContent).toBe('panel:0');
    own.remove();
    way.remove();
    act(() => vi.advanceTimersByTime(150));
    expect(probe.textContent).toBe('none');
  });
});

describe('the guided tour', () => {
  it('stays closed until currentstep is 4 or more', async () => {
    renderApp('/pipelines');
    await screen.findByTestId('run-pipeline-button', {}, opts);
    await waitFor(() =>
      expect(
        ctx.peer.requests.slice(before).some((r) => r.path === '/api/admin/onboarding/getTourStatus'),
      ).toBe(true),
    );
    await new Promise((r) => setTimeout(r, TOUR_TIMING.targetPollMs * 2));
    expect(screen.queryByTestId('tour-popover')).toBeNull();
  });

  it('opens at the run list, moves with the arrow keys and buttons, and Escape closes it', async () => {
    ctx.peer.tour.state = {
      is_onboarding_completed: false,
      currentstep: TOUR_SERVER_STEPS.proceedToPipeline,
    };
    const { store } = renderApp('/pipelines');
    const card = await popover();
    await stepShown(4);
    expect(within(card).getByRole('heading').textContent).toBe('Pipeline runs');
    const dots = within(card).getAllByTestId('tour-dot');
    expect(dots).toHaveLength(22);
    expect(dots.filter((d) => d.dataset.active === 'true')).toHaveLength(1);
    expect(dots[4]!.dataset.active).toBe('true');
    expect(within(card).getByRole('button', { name: 'Previous' })).toHaveProperty('disabled', false);

    // Right: the initiate action's server step (9); the provisioning page has no screen, and with
    // no cluster attached the tour goes to the attach modal (server step 10), leading to Clusters.
    fireEvent.keyDown(document, { key: 'ArrowRight', keyCode: 39 });
    await stepShown(6);
    await waitFor(() => expect(sent()).toEqual([{ currentstep: 9 }, { currentstep: 10 }]));
    expect(await screen.findByTestId('tour-leading')).toBeTruthy();
    expect(store.getState().onboardingV2.isVClusterPresent).toBe(false);

    fireEvent.keyDown(document, { key: 'ArrowLeft', keyCode: 37 });
    await stepShown(4);
    expect(sent()).toHaveLength(2);
    await userEvent.setup().click(within(await popover()).getByRole('button', { name: 'Next' }));
    await stepShown(6);

    fireEvent.keyDown(document, { key: 'Escape', keyCode: 27 });
    await waitFor(() => expect(screen.queryByTestId('tour-popover')).toBeNull());
    expect(store.getState().onboardingV2.isTourOpen).toBe(false);
    expect(ctx.peer.tour.state).toEqual({ is_onboarding_completed: false, currentstep: 10 });
  });

  it('advances when the expected element is clicked, past the attach modal when a cluster is attached', async () => {
    ctx.peer.clusters.clusters = [sampleCluster()];
    ctx.peer.tour.state = {
      is_onboarding_completed: false,
      currentstep: TOUR_SERVER_STEPS.proceedToPipeline,
    };
    renderApp('/pipelines');
    await popover();
    await stepShown(4);
    const user = userEvent.setup();
    await user.click(screen.getByTestId('run-pipeline-button'));
    await stepShown(10);
    await waitFor(() => expect(sent()).toEqual([{ currentstep: 9 }, { currentstep: 14 }]));
    expect(document.querySelector('[data-tour="run-start"]')?.textContent).toBe('Start');
    expect(within(await popover()).getByRole('heading').textContent).toBe('Pipeline run input');
  });

  it('sends its status writes one at a time, in order, however slowly the server answers', async () => {
    ctx.peer.tour.state = {
      is_onboarding_completed: false,
      currentstep: TOUR_SERVER_STEPS.proceedToPipeline,
    };
    ctx.peer.state.slowAnswers.set(`POST ${SET}`, 600);
    renderApp('/pipelines');
    await stepShown(4, 10_000);
    // Right records server step 9, and the provisioning step (no screen) records 10 at once
    fireEvent.keyDown(document, { key: 'ArrowRight', keyCode: 39 });
    await waitFor(() => expect(sent()).toEqual([{ currentstep: 9 }]));
    // the second write waits for the first one's answer
    await new Promise((r) => setTimeout(r, 300));
    expect(sent()).toEqual([{ currentstep: 9 }]);
    await waitFor(() => expect(sent()).toEqual([{ currentstep: 9 }, { currentstep: 10 }]), opts);
    await waitFor(() => expect(ctx.peer.tour.state.currentstep).toBe(10), opts);
  });

  it('"Skip tour" sets is_onboarding_completed and closes the tour', async () => {
    ctx.peer.tour.state = { is_onboarding_completed: false, currentstep: 8 };
    const { store } = renderApp('/pipelines');
    await userEvent.setup().click(within(await popover()).getByRole('button', { name: 'Skip tour' }));
    await waitFor(() => expect(screen.queryByTestId('tour-popover')).toBeNull());
    await waitFor(() => expect(ctx.peer.tour.state.is_onboarding_completed).toBe(true));
    expect(sent()).toEqual([{ is_onboarding_completed: true }]);
    expect(store.getState().onboardingV2).toMatchObject({
      isOnboardingSkipped: true,
      isOnboardingInProgress: false,
    });
  });

  it('"Take the tour" restarts it from the first step, the library’s sidebar entry', async () => {
    ctx.peer.tour.state = { is_onboarding_completed: true, currentstep: 27 };
    renderApp('/dashboard');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-menu', {}, opts));
    await user.click(await screen.findByTestId('take-tour'));
    await stepShown(0);
    expect(within(await popover()).getByRole('heading').textContent).toBe('Microservice library');
    expect(window.location.pathname).toBe('/dashboard');
    await waitFor(() => expect(sent()).toEqual([{ restart: true, currentstep: 4 }]));
    expect(ctx.peer.tour.state).toEqual({ is_onboarding_completed: false, currentstep: 4 });
  });

  it('auto-advances from the canvas after 5 s, then the input parameters tab click', async () => {
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-1' })];
    ctx.peer.tour.state = { is_onboarding_completed: false, currentstep: TOUR_SERVER_STEPS.runClick };
    renderApp('/pipelines/runs/run-1');
    await popover({ timeout: 10_000 });
    await stepShown(11);
    const shownAt = Date.now();
    await stepShown(12, 9000);
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(TOUR_TIMING.autoAdvanceMs - 400);
    await waitFor(() => expect(sent()).toEqual([{ currentstep: 16 }]));
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Input parameters' }));
    await stepShown(13);
    await waitFor(() => expect(sent()).toEqual([{ currentstep: 16 }, { currentstep: 17 }]));
  }, 20_000);

  it('ends the final canvas step when the run finishes; the overview link brings the counter to 23, completing onboarding', async () => {
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-1', status: 'succeeded' })];
    ctx.peer.applications.applications = [sampleApplication()];
    ctx.peer.tour.state = { is_onboarding_completed: false, currentstep: TOUR_SERVER_STEPS.canvas };
    const { store } = renderApp('/pipelines/runs/run-1');
    await popover({ timeout: 10_000 });
    await stepShown(22, 10_000);
    expect(within(await popover()).getByRole('heading').textContent).toBe('Microservice overview');
    // on the run page the step leads to the library
    expect(await screen.findByTestId('tour-leading')).toBeTruthy();
    expect(store.getState().onboarding.pipelineId).toBe('pl-1');
    const user = userEvent.setup();
    await user.click(document.querySelector<HTMLElement>('[data-tour="microservice-library"]')!);
    await waitFor(() => expect(window.location.pathname).toBe('/applications'), opts);
    await user.click(await screen.findByRole('link', { name: 'orders' }, opts));
    await waitFor(() => expect(store.getState().onboardingV2.isOnboardingInProgress).toBe(false), opts);
    expect(screen.queryByTestId('tour-popover')).toBeNull();
    await waitFor(() =>
      expect(sent()).toEqual([
        { currentstep: 26 },
        { currentstep: 27 },
        { currentstep: 27, is_onboarding_completed: true },
      ]),
    );
    expect(ctx.peer.tour.state).toEqual({ is_onboarding_completed: true, currentstep: 27 });
    expect(store.getState().onboarding).toMatchObject({ tourComplete: true, pipelineId: 'pl-1' });
  }, 90_000);

  it('a failed run ends the step too, without marking the pipeline completed', async () => {
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-2', status: 'failed' })];
    ctx.peer.tour.state = { is_onboarding_completed: false, currentstep: TOUR_SERVER_STEPS.canvas };
    const { store } = renderApp('/pipelines/runs/run-2');
    await popover({ timeout: 10_000 });
    await stepShown(22, 10_000);
    expect(store.getState().onboarding.pipelineId).toBeNull();
    await userEvent.setup().click(within(await popover()).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(store.getState().onboarding.tourComplete).toBe(true), opts);
    await waitFor(() =>
      expect(ctx.peer.tour.state).toEqual({ is_onboarding_completed: true, currentstep: 27 }),
    );
  }, 15_000);

  it('walks the microservice library: its sidebar entry, New application, the general details, the success page', async () => {
    ctx.peer.clusters.environments = [sampleEnvironment({ id: 'env-dev', name: 'development' })];
    ctx.peer.tour.state = { is_onboarding_completed: false, currentstep: 4 };
    renderApp('/dashboard');
    await stepShown(0, 10_000);
    const user = userEvent.setup();
    await user.click(document.querySelector<HTMLElement>('[data-tour="microservice-library"]')!);
    await stepShown(1);
    await user.click(await screen.findByRole('button', { name: 'New application' }, opts));
    await stepShown(2);
    expect(within(await popover()).getByRole('heading').textContent).toBe('General details');
    const form = await screen.findByRole('form', { name: 'New application' }, opts);
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'orders-api');
    await user.click(within(form).getByRole('combobox', { name: 'Environments' }));
    await user.click(await screen.findByRole('option', { name: 'development' }));
    await user.keyboard('{Escape}');
    // the tour stays open: Escape closed the select's menu
    await user.click(within(form).getByRole('button', { name: 'Next' }));
    await stepShown(3);
    await user.click(within(form).getByRole('combobox', { name: 'Service type' }));
    await user.click(await screen.findByRole('option', { name: 'NodePort' }));
    await user.type(within(form).getByRole('textbox', { name: 'Service port' }), '8080');
    await user.type(within(form).getByRole('textbox', { name: 'Namespace' }), 'shop');
    await user.click(within(form).getByRole('combobox', { name: 'Pipeline' }));
    await user.click(await screen.findByRole('option', { name: 'hello' }));
    await user.click(within(form).getByRole('button', { name: 'Create application' }));
    await user.click(await screen.findByRole('button', { name: 'Proceed to pipeline run' }, opts));
    await stepShown(4);
    await waitFor(() => expect(window.location.pathname).toBe('/pipelines/pl-1'));
    // on the pipeline's own run button once its page has loaded
    await waitFor(() => expect(screen.queryByTestId('tour-leading')).toBeNull(), opts);
    await waitFor(() =>
      expect(sent()).toEqual([
        { currentstep: 5 },
        { currentstep: 6 },
        { currentstep: 7 },
        { currentstep: 8 },
      ]),
    );
  }, 30_000);

  it('starts at a first sign-in, and stays closed at a sign-in after Skip', async () => {
    localStorage.removeItem(AUTH_STORAGE_KEY);
    ctx.peer.addUser({ email: 'newcomer@example.com', password: 'Engine#1843' });
    const signInAt = async () => {
      const view = renderApp('/login');
      const user = userEvent.setup();
      await user.type(await screen.findByLabelText('Email', {}, opts), 'newcomer@example.com');
      await user.type(screen.getByLabelText('Password'), 'Engine#1843');
      await user.keyboard('{Enter}');
      await screen.findByTestId('app-shell', {}, opts);
      return { view, user };
    };
    const first = await signInAt();
    await stepShown(0, 10_000);
    expect(sent()).toEqual([{ currentstep: 4 }]);
    await first.user.click(within(await popover()).getByRole('button', { name: 'Skip tour' }));
    await waitFor(() => expect(ctx.peer.tour.state.is_onboarding_completed).toBe(true));
    first.view.unmount();
    localStorage.removeItem(AUTH_STORAGE_KEY);

    const second = await signInAt();
    await waitFor(() => expect(second.view.store.getState().onboardingV2.shoulCallOnboarding).toBe(false));
    await new Promise((r) => setTimeout(r, TOUR_TIMING.targetPollMs * 2));
    expect(screen.queryByTestId('tour-popover')).toBeNull();
    expect(sent()).toEqual([{ currentstep: 4 }, { is_onboarding_completed: true }]);
  }, 30_000);

  it('does not start at the sign-in of someone who may not create applications', async () => {
    localStorage.removeItem(AUTH_STORAGE_KEY);
    const viewer = ctx.peer.addUser({ email: 'viewer@example.com', password: 'Engine#1843' });
    ctx.peer.org.permissions.set(viewer.id, {
      ...ADMIN_PERMISSIONS,
      workspaceRole: 'viewer',
      workspace: [{ permission: 'applications:view' }, { permission: 'pipelines:view' }],
    });
    const { store } = renderApp('/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email', {}, opts), 'viewer@example.com');
    await user.type(screen.getByLabelText('Password'), 'Engine#1843');
    await user.keyboard('{Enter}');
    await screen.findByTestId('app-shell', {}, opts);
    await waitFor(() => expect(store.getState().onboardingV2.shoulCallOnboarding).toBe(false), opts);
    await new Promise((r) => setTimeout(r, TOUR_TIMING.targetPollMs * 2));
    expect(screen.queryByTestId('tour-popover')).toBeNull();
    expect(sent()).toEqual([]);
  }, 30_000);

  it('sets hasRefreshed when the page is reloaded mid-tour', async () => {
    ctx.peer.tour.state = { is_onboarding_completed: false, currentstep: 8 };
    const first = renderApp('/pipelines');
    await popover({ timeout: 10_000 });
    expect(first.store.getState().onboardingV2.hasRefreshed).toBe(false);
    // the onboarding slice is kept in session storage; a reload starts a new store from it
    await waitFor(() => expect(sessionStorage.getItem('onboarding-root')).toContain('"showGuide":"true"'));
    first.unmount();
    const second = renderApp('/pipelines');
    await popover({ timeout: 10_000 });
    expect(second.store.getState().onboardingV2.hasRefreshed).toBe(true);
  }, 20_000);
});
