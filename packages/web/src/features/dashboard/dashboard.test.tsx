import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { emptyDashboard } from '../../test/applications-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';

const ctx = withSignedInPeer();

describe('the dashboard', () => {
  it('lands a new workspace on the getting-started checklist, each step a link to where it is done', async () => {
    const d = emptyDashboard();
    d.gettingStarted[0]!.done = true;
    ctx.peer.applications.dashboard = d;
    renderApp('/dashboard');
    const steps = await screen.findAllByTestId('getting-started-step', {}, opts);
    expect(steps.map((s) => s.getAttribute('data-done'))).toEqual([
      'true',
      'false',
      'false',
      'false',
      'false',
    ]);
    expect(within(steps[1]!).getByRole('link', { name: 'Create an application' }).getAttribute('href')).toBe(
      '/applications/new',
    );
    // a done step is no longer a link
    expect(within(steps[0]!).queryByRole('link')).toBeNull();
    expect(screen.getByText('No cluster is attached.')).toBeTruthy();
  });

  it('after the first deployment shows applications failing first, runs and clusters, and hides what the person may not view', async () => {
    const d = emptyDashboard();
    d.gettingStarted = d.gettingStarted.map((s) => ({ ...s, done: true }));
    d.applications = {
      total: 2,
      byHealth: { healthy: 1, progressing: 0, degraded: 1, suspended: 0, missing: 0, unknown: 0 },
      attention: [
        { id: 'a2', name: 'web', health: 'degraded' },
        { id: 'a1', name: 'api', health: 'healthy' },
      ],
    };
    d.runs!.lastWeek.failed = 3;
    d.runs!.recent = [
      {
        id: 'r1',
        name: 'build-7',
        pipelineId: 'p1',
        pipelineName: 'build',
        status: 'failed',
        trigger: { kind: 'push', id: 'a2' },
        queuedAt: '2025-05-01T10:00:00.000Z',
        finishedAt: null,
      },
    ];
    d.clusters = null;
    ctx.peer.applications.dashboard = d;
    renderApp('/dashboard');
    const apps = await screen.findAllByTestId('dashboard-application', {}, opts);
    expect(apps.map((a) => a.textContent)).toEqual([
      expect.stringContaining('web'),
      expect.stringContaining('api'),
    ]);
    expect(screen.queryByTestId('getting-started-step')).toBeNull();
    expect(screen.getByTestId('count-failed').textContent).toContain('3');
    expect(screen.getByTestId('dashboard-run').textContent).toContain('Push');
    expect(screen.queryByRole('heading', { name: 'Clusters' })).toBeNull();
  });
});
