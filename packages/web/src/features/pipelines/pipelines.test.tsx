import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { samplePipeline, sampleRun } from '../../test/pipelines-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { durationOf, formatDuration } from './format';

const ctx = withSignedInPeer();

beforeEach(() => {
  const state = ctx.peer.pipelines;
  state.pipelines = [samplePipeline()];
  state.runs = [];
  state.logs = new Map();
  state.refuseDefinition = null;
});

describe('pipelines page', () => {
  it('lists pipelines and runs, and asks for the chosen status', async () => {
    ctx.peer.pipelines.runs = [
      sampleRun({ id: 'run-2', number: 2, status: 'failed' }),
      sampleRun({ id: 'run-1', number: 1, status: 'succeeded' }),
    ];
    renderApp('/pipelines');
    expect((await screen.findByTestId('pipeline-row', {}, opts)).textContent).toContain('hello');
    const rows = await screen.findAllByTestId('run-row', {}, opts);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('hello #2'),
      expect.stringContaining('hello #1'),
    ]);
    expect(within(rows[0]!).getByTestId('status-chip').textContent).toBe('Failed');
    expect((screen.getByTestId('run-pipeline-button') as HTMLButtonElement).disabled).toBe(false);

    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'In progress' }));
    await waitFor(() =>
      expect(ctx.peer.calls('GET', '/api/pipelineruns').at(-1)!.query).toMatchObject({
        status: 'in progress',
        _start: '0',
        _end: '10',
      }),
    );
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain(
      'No pipeline runs match this filter',
    );
  });

  it('says so when there are no runs yet', async () => {
    renderApp('/pipelines');
    expect(await screen.findByText('No pipeline runs yet', {}, opts)).toBeTruthy();
  });

  it("starts a run from the page's Run pipeline button and opens it", async () => {
    renderApp('/pipelines');
    const user = userEvent.setup();
    await screen.findByTestId('pipeline-row', {}, opts);
    await user.click(screen.getByTestId('run-pipeline-button'));
    const dialog = await screen.findByRole('dialog', {}, opts);
    await user.click(within(dialog).getByRole('button', { name: 'Add param' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'greeting');
    await user.type(within(dialog).getByRole('textbox', { name: 'Value' }), 'Hi');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    await screen.findByTestId('run-page', {}, opts);
    expect(ctx.peer.calls('POST', '/api/pipelineruns').at(-1)!.body).toEqual({
      pipelineId: 'pl-1',
      params: { greeting: 'Hi' },
      timeoutHours: 1,
    });
    expect(await screen.findByTestId('queue-position', {}, opts)).toBeTruthy();
  });
});

describe('pipeline editor', () => {
  it("shows the server's validation message when creating a pipeline", async () => {
    const message = 'Invalid pipeline at spec.tasks[0].taskSpec (line 12, column 9): steps is required';
    ctx.peer.pipelines.refuseDefinition = message;
    renderApp('/pipelines/new');
    const user = userEvent.setup();
    const definition = (await screen.findByTestId('pipeline-definition', {}, opts)) as HTMLTextAreaElement;
    expect(definition.value).toContain('kind: Pipeline');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'hello');
    await user.click(screen.getByRole('button', { name: 'Create pipeline' }));
    expect((await screen.findByTestId('pipeline-error', {}, opts)).textContent).toBe(message);
    expect(ctx.peer.calls('POST', '/api/pipelines').at(-1)!.body).toMatchObject({ name: 'hello' });
  });
});

describe('pipeline detail', () => {
  it('shows the versions, saves a changed definition and runs this pipeline', async () => {
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    expect((await screen.findByTestId('pipeline-versions', {}, opts)).textContent).toBe(
      'Version 1 · 1 version',
    );
    const definition = screen.getByTestId('pipeline-definition') as HTMLTextAreaElement;
    expect(definition.value).toContain('kind: Pipeline');
    await user.type(definition, '# changed');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(ctx.peer.calls('PUT', '/api/pipelines/pl-1')).toHaveLength(1));
    expect(ctx.peer.calls('PUT', '/api/pipelines/pl-1')[0]!.body).toEqual({
      definition: 'apiVersion: tekton.dev/v1\nkind: Pipeline\n# changed',
    });
    expect(await screen.findByText('Saved. The pipeline is at version 1.', {}, opts)).toBeTruthy();

    await user.click(screen.getByTestId('run-this-pipeline'));
    const dialog = await screen.findByRole('dialog', {}, opts);
    expect(within(dialog).queryByTestId('run-pipeline-select')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    await screen.findByTestId('run-page', {}, opts);
    expect(ctx.peer.calls('POST', '/api/pipelineruns').at(-1)!.body).toMatchObject({ pipelineId: 'pl-1' });
  });
});

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

  it('shows the tasks and appends log lines across polls', async () => {
    ctx.peer.pipelines.runs = [runningRun()];
    ctx.peer.pipelines.logs.set('run-7', ['[build/say] first line']);
    renderApp('/pipelines/runs/run-7');
    const task = await screen.findByTestId('task-row', {}, opts);
    expect(task.textContent).toContain('build');
    expect(within(task).getByTestId('step').textContent).toContain('exit 0');
    const logs = screen.getByTestId('run-logs');
    await waitFor(() => expect(logs.textContent).toContain('first line'), opts);
    ctx.peer.pipelines.logs.get('run-7')!.push('[build/say] second line');
    await waitFor(
      () => expect(logs.textContent).toBe('[build/say] first line\n[build/say] second line\n'),
      opts,
    );
    expect(ctx.peer.calls('GET', '/api/pipelineruns/run-7/logs').map((c) => c.query.offset)).toContain('1');
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
    await waitFor(() => expect(ctx.peer.calls('POST', '/api/pipelineruns/run-7/abort')).toHaveLength(1));
    await waitFor(() =>
      expect(screen.getByRole('heading', { level: 1 }).parentElement!.textContent).toContain('Cancelled'),
    );
  });
});

describe('durations', () => {
  it('reads short', () => {
    expect(formatDuration(4_000)).toBe('4s');
    expect(formatDuration(123_000)).toBe('2m 3s');
    expect(formatDuration(3_720_000)).toBe('1h 2m');
    expect(durationOf(null, null)).toBe('');
  });
});
