import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/app';
import { samplePipeline, sampleRun } from '../../../test/pipelines-peer';
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

describe('RunLogs and the DAG', () => {
  it('shows the logs of the task whose node is clicked', async () => {
    ctx.peer.pipelines.pipelines = [
      samplePipeline({
        definition: `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: hello }
spec:
  tasks:
    - name: build
      taskSpec: { steps: [{ name: say, image: alpine, script: echo }] }
    - name: test
      runAfter: [build]
      taskSpec: { steps: [{ name: check, image: alpine, script: echo }] }
`,
      }),
    ];
    const run = runningRun();
    run.taskRuns.push({ ...run.taskRuns[0]!, id: 'tr-2', name: 'hello-7-test', pipelineTask: 'test' });
    ctx.peer.pipelines.runs = [run];
    ctx.peer.pipelines.logs = new Map([['run-7', ['[build/say] building now', '[test/check] testing now']]]);
    renderApp('/pipelines/runs/run-7');
    const logs = await screen.findByTestId('run-logs', {}, opts);
    await waitFor(() => expect(logs.textContent).toMatch(/building now[\s\S]*testing now/), opts);
    const dag = await screen.findByTestId('run-dag', {}, { timeout: 15_000 });
    await waitFor(() => expect(within(dag).getAllByTestId('dag-node')).toHaveLength(2), { timeout: 15_000 });
    const node = within(dag)
      .getAllByTestId('dag-node')
      .find((n) => n.dataset.task === 'test')!;
    // a plain click: jsdom's mousedown has no view, which d3-zoom's pan handler needs
    fireEvent.click(node);
    expect(screen.getByTestId('selected-task').textContent).toBe('Selected task: test');
    expect(screen.getByRole('combobox', { name: 'Task' }).textContent).toBe('test');
    await waitFor(() => expect(screen.getByTestId('run-logs').textContent).toContain('testing now'), opts);
    expect(screen.getByTestId('run-logs').textContent).not.toContain('building now');
    const asked = ctx.peer.calls('GET', '/api/pipelineruns/run-7/logs').map((c) => c.query.task);
    expect(asked).toContain('test');
  });
});
