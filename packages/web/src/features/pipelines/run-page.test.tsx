import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { samplePipeline, sampleRun } from '../../test/pipelines-peer';
import { opts } from '../../test/settings-peer';
import { durationOf, formatDuration } from './format';
import { DAG_DEFINITION, pipelinesPeer } from './pipelines.test-setup';

/** The run page: tasks and steps, the live DAG, re-run and abort; and how durations read. */
const ctx = pipelinesPeer();

describe('run page', () => {
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
          status: 'succeeded',
          reason: null,
          attempt: 1,
          results: null,
          startedAt: '2025-05-01T10:00:00.000Z',
          finishedAt: '2025-05-01T10:00:02.000Z',
          steps: [
            {
              idx: 0,
              name: 'say',
              image: 'alpine',
              status: 'succeeded',
              exitCode: 0,
              reason: null,
              startedAt: null,
              finishedAt: null,
            },
          ],
        },
      ],
    });
  }

  it('says where the run came from, in the run list and on its page', async () => {
    const run = runningRun();
    run.trigger = {
      kind: 'webhook',
      id: 'wh-1',
      by: 'github push',
      commit: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
      branch: 'main',
      author: 'Codertocat',
    };
    ctx.peer.pipelines.runs = [
      run,
      sampleRun({ id: 'run-3', number: 3, trigger: { kind: 'user', by: 'ada@example.com' } }),
    ];
    renderApp('/pipelines');
    const rows = await screen.findAllByTestId('run-row', {}, opts);
    const texts = rows.map((r) => r.textContent);
    expect(texts.find((x) => x?.includes('#7'))).toContain(
      'Webhook (github push)main @ 6113728 by Codertocat',
    );
    expect(texts.find((x) => x?.includes('#3'))).toContain('By ada@example.com');
  });

  it('offers Roll back only when the pipeline names a rollback pipeline', async () => {
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-5', number: 5, pipelineId: 'pl-1' })];
    renderApp('/pipelines/runs/run-5');
    await screen.findByTestId('run-action-rerun', {}, opts);
    expect(screen.queryByTestId('run-action-rollback')).toBeNull();
  });

  it('shows Roll back when the pipeline has a rollback pipeline', async () => {
    ctx.peer.pipelines.pipelines = [
      samplePipeline({ rollbackPipelineId: 'pl-2' }),
      samplePipeline({ id: 'pl-2', name: 'undo' }),
    ];
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-5', number: 5, pipelineId: 'pl-1' })];
    renderApp('/pipelines/runs/run-5');
    expect(await screen.findByTestId('run-action-rollback', {}, opts)).toBeTruthy();
  });

  it('shows the trigger and the code on the run page', async () => {
    const run = runningRun();
    run.trigger = { kind: 'push', id: 'app-1', by: 'ci-bot', commit: 'abcdef1234567', branch: 'main' };
    ctx.peer.pipelines.runs = [run];
    renderApp('/pipelines/runs/run-7');
    await screen.findByTestId('task-row', {}, opts);
    expect(screen.getByText('Push by ci-bot')).toBeTruthy();
    expect(screen.getByText('main @ abcdef1')).toBeTruthy();
  });

  it('shows the tasks with their steps', async () => {
    ctx.peer.pipelines.runs = [runningRun()];
    renderApp('/pipelines/runs/run-7');
    const task = await screen.findByTestId('task-row', {}, opts);
    expect(task.textContent).toContain('build');
    expect(within(task).getByTestId('step').textContent).toContain('exit 0');
    expect(within(task).getByTestId('step').textContent).toContain('alpine');
  });

  it('draws the DAG from the definition, coloured by status, and follows the run live', async () => {
    ctx.peer.pipelines.pipelines = [samplePipeline({ definition: DAG_DEFINITION })];
    const run = runningRun();
    run.taskRuns.push({
      ...run.taskRuns[0]!,
      id: 'tr-2',
      name: 'hello-7-test',
      pipelineTask: 'test',
      status: 'running',
      startedAt: '2025-05-01T10:00:02.000Z',
      finishedAt: null,
      steps: [],
    });
    ctx.peer.pipelines.runs = [run];
    renderApp('/pipelines/runs/run-7');
    const dag = await screen.findByTestId('run-dag', {}, { timeout: 15_000 });
    await waitFor(() => expect(within(dag).getAllByTestId('dag-node')).toHaveLength(3), { timeout: 15_000 });
    const status = () =>
      Object.fromEntries(
        within(dag)
          .getAllByTestId('dag-node')
          .map((n) => [n.dataset.task, n.dataset.status]),
      );
    expect(status()).toEqual({ build: 'succeeded', test: 'running', report: 'pending' });
    // (jsdom measures nothing, so xyflow draws no edge paths here; the browser test sees them)
    expect(dag.dataset.edges).toBe('build->test:runAfter test->report:result');
    const bars = screen.getAllByTestId('timeline-bar');
    expect(bars.map((b) => [b.dataset.task, b.dataset.critical])).toEqual([
      ['build', 'true'],
      ['test', 'true'],
    ]);

    // the page keeps asking while the run goes on; the next answer turns the node green
    run.taskRuns[1]!.status = 'succeeded';
    run.taskRuns[1]!.finishedAt = '2025-05-01T10:00:04.000Z';
    await waitFor(() => expect(status().test).toBe('succeeded'), opts);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Select task test' }));
    expect(screen.getByTestId('selected-task').textContent).toBe('Selected task: test');
    await user.click(screen.getByRole('tab', { name: 'Input parameters' }));
    expect(await screen.findByText('This run has no params.')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Results' }));
    expect(await screen.findByText('No results mapped!')).toBeTruthy();
  });

  it('asks before re-running, then opens the new run', async () => {
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-3', number: 3, params: { greeting: 'Hi' } })];
    renderApp('/pipelines/runs/run-3');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('run-action-rerun', {}, opts));
    const dialog = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(dialog.textContent).toContain('Re-run this pipeline?');
    expect(ctx.peer.calls('POST', '/api/pipelineruns/run-3/rerun')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Re-run' }));
    await waitFor(
      () => expect(ctx.peer.calls('POST', '/api/pipelineruns/run-3/rerun')).toHaveLength(1),
      opts,
    );
    await waitFor(() => expect(window.location.pathname).toMatch(/^\/pipelines\/runs\/run-new-/), opts);
  });

  it('asks before aborting, then aborts', async () => {
    ctx.peer.pipelines.runs = [runningRun()];
    renderApp('/pipelines/runs/run-7');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Abort' }, opts));
    const dialog = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(dialog.textContent).toContain('Abort this run?');
    expect(ctx.peer.calls('POST', '/api/pipelineruns/run-7/abort')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Abort' }));
    await waitFor(
      () => expect(ctx.peer.calls('POST', '/api/pipelineruns/run-7/abort')).toHaveLength(1),
      opts,
    );
    await waitFor(() => expect(screen.getByTestId('run-status').textContent).toBe('Cancelled'), opts);
  });
});

describe('durations', () => {
  it('reads short', () => {
    expect(formatDuration(350)).toBe('350ms');
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(4_000)).toBe('4s');
    expect(formatDuration(123_000)).toBe('2m 3s');
    expect(formatDuration(3_720_000)).toBe('1h 2m');
    expect(durationOf(null, null)).toBe('');
  });
});
