import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/app';
import { sampleRun } from '../../../test/pipelines-peer';
import { opts, withSignedInPeer } from '../../../test/settings-peer';

const ctx = withSignedInPeer();

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

function runningRun() {
  return sampleRun({
    id: 'run-7',
    number: 7,
    status: 'in_progress',
    finishedAt: null,
    taskRuns: [
      {
        id: 'tr-1',
        name: 'hello-7-build',
        pipelineTask: 'build',
        isFinally: false,
        status: 'running',
        reason: null,
        attempt: 1,
        results: null,
        startedAt: '2025-05-01T10:00:00.000Z',
        finishedAt: null,
        steps: [],
      },
    ],
  });
}

describe('RunLogs without a log socket', () => {
  it('falls back to asking from the last offset every second and appends what comes', async () => {
    ctx.peer.pipelines.runs = [runningRun()];
    ctx.peer.pipelines.logs = new Map([['run-7', ['[build/say] first line']]]);
    renderApp('/pipelines/runs/run-7');
    const logs = await screen.findByTestId('run-logs', {}, opts);
    // this peer answers the socket's upgrade with 404: the view says it is polling
    await waitFor(
      () => expect(screen.getByTestId('log-state').getAttribute('data-state')).toBe('polling'),
      opts,
    );
    await waitFor(() => expect(logs.textContent).toContain('first line'), opts);
    ctx.peer.pipelines.logs.get('run-7')!.push('[build/say] second line');
    await waitFor(() => expect(logs.textContent).toMatch(/first line[\s\S]*second line/), opts);
    expect(logs.textContent!.match(/first line/g)).toHaveLength(1);
    const offsets = ctx.peer.calls('GET', '/api/pipelineruns/run-7/logs').map((c) => c.query.offset);
    expect(offsets).toContain('1');
  });
});
