import { screen, waitFor, within } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../../test/app';
import { sampleCluster, sampleEnvironment } from '../../test/clusters-peer';
import { samplePipeline, sampleRun } from '../../test/pipelines-peer';
import { opts } from '../../test/settings-peer';
import { rowTexts, sortByHeader } from '../../test/sort-header';
import { pipelinesPeer } from './pipelines.test-setup';

const ctx = pipelinesPeer();

describe('pipelines page', () => {
  it('sorts pipelines by name and runs by number from their headers (the server sorts)', async () => {
    ctx.peer.pipelines.pipelines = [
      samplePipeline({ id: 'pl-b', name: 'beta' }),
      samplePipeline({ id: 'pl-a', name: 'alpha' }),
    ];
    ctx.peer.pipelines.runs = [
      sampleRun({ id: 'run-1', number: 1, pipelineId: 'pl-a' }),
      sampleRun({ id: 'run-2', number: 2, pipelineId: 'pl-a' }),
    ];
    renderApp('/pipelines');
    await waitFor(async () => expect((await rowTexts('pipeline-row'))[0]).toContain('alpha'), opts);
    const user = userEvent.setup();
    await sortByHeader(user, 'Name', 'pipeline-row', 'beta', 'descending');
    await sortByHeader(user, 'Run', 'run-row', '#1', 'ascending');
    await sortByHeader(user, 'Run', 'run-row', '#2', 'descending');
    expect(ctx.peer.calls('GET', '/api/pipelineruns').at(-1)!.query).toMatchObject({
      _sort: 'number',
      _order: 'DESC',
    });
  });

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

  it('filters by a date range preset and says when nothing matches', async () => {
    const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    ctx.peer.pipelines.runs = [
      sampleRun({ id: 'run-new', number: 2, queuedAt: days(2) }),
      sampleRun({ id: 'run-old', number: 1, queuedAt: days(400) }),
    ];
    renderApp('/pipelines');
    const user = userEvent.setup();
    expect(await screen.findAllByTestId('run-row', {}, opts)).toHaveLength(2);
    await user.click(screen.getByRole('combobox', { name: 'Date range' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All time',
      'Last 7 days',
      'This month',
      'Last month',
      'Last 3 months',
      'This year',
      'Last 6 months',
    ]);
    await user.click(screen.getByRole('option', { name: 'Last 7 days' }));
    await waitFor(() => expect(screen.getAllByTestId('run-row')).toHaveLength(1), opts);
    expect(screen.getByTestId('run-row').textContent).toContain('hello #2');
    const query = ctx.peer.calls('GET', '/api/pipelineruns').at(-1)!.query;
    expect(Date.now() - Date.parse(query.from!)).toBeGreaterThanOrEqual(7 * 86_400_000 - 60_000);
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
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

/** The CodeMirror view inside the definition editor (jsdom cannot type into it like a person). */
async function definitionView() {
  const host = await screen.findByTestId('pipeline-definition-editor', {}, opts);
  await waitFor(() => expect(host.querySelector('.cm-editor')).toBeTruthy(), opts);
  return EditorView.findFromDOM(host.querySelector('.cm-editor') as HTMLElement)!;
}

describe('initiate-run panel', () => {
  const PARAMS_DEFINITION = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: ship }
spec:
  params:
    - name: repo
      type: string
      description: Where the code is
    - name: targets
      type: array
      default: [eu, us]
    - name: labels
      type: object
      default: { team: core }
  tasks:
    - name: a
      taskSpec: { steps: [{ name: s, image: alpine, script: "true" }] }
`;

  it('builds the params form from the declared params, asks for the required ones, and sends typed values', async () => {
    ctx.peer.pipelines.pipelines = [samplePipeline({ definition: PARAMS_DEFINITION })];
    renderApp('/pipelines');
    const user = userEvent.setup();
    await screen.findByTestId('pipeline-row', {}, opts);
    await user.click(screen.getByTestId('run-pipeline-button'));
    const dialog = await screen.findByRole('dialog', {}, opts);
    const form = await within(dialog).findByTestId('run-params-form', {}, opts);
    expect(
      (within(form).getByRole('textbox', { name: 'targets (array)' }) as HTMLTextAreaElement).value,
    ).toBe('eu\nus');
    expect(
      (within(form).getByRole('textbox', { name: 'labels (object)' }) as HTMLTextAreaElement).value,
    ).toBe('team=core');
    expect(
      (within(dialog).getByRole('spinbutton', { name: 'Timeout (hours)' }) as HTMLInputElement).value,
    ).toBe('1');
    // the prerequisites say what there is: no cluster here
    expect((await within(dialog).findByTestId('prerequisite-cluster', {}, opts)).textContent).toContain(
      'No cluster attached',
    );
    const before = ctx.peer.calls('POST', '/api/pipelineruns').length;
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    expect(await within(dialog).findByText('Parameters are required')).toBeTruthy();
    expect(ctx.peer.calls('POST', '/api/pipelineruns')).toHaveLength(before);

    await user.type(within(form).getByRole('textbox', { name: 'repo (string)' }), 'https://git.example/r');
    const timeout = within(dialog).getByRole('spinbutton', { name: 'Timeout (hours)' });
    await user.clear(timeout);
    await user.type(timeout, '2');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    await screen.findByTestId('run-page', {}, opts);
    expect(ctx.peer.calls('POST', '/api/pipelineruns').at(-1)!.body).toEqual({
      pipelineId: 'pl-1',
      params: { repo: 'https://git.example/r', targets: ['eu', 'us'], labels: { team: 'core' } },
      timeoutHours: 2,
    });
  });

  it('shows the attached cluster and its registry as the prerequisites', async () => {
    ctx.peer.clusters.clusters = [
      sampleCluster({
        name: 'sample-cluster',
        status: 'active',
        publicRegistryPrefix: 'registry.example/team',
      }),
    ];
    renderApp('/pipelines');
    const user = userEvent.setup();
    await screen.findByTestId('pipeline-row', {}, opts);
    await user.click(screen.getByTestId('run-pipeline-button'));
    const dialog = await screen.findByRole('dialog', {}, opts);
    const cluster = await within(dialog).findByText('Sample cluster: sample-cluster (active)', {}, opts);
    expect(cluster.closest('[data-testid="prerequisite-cluster"]')!.getAttribute('data-ok')).toBe('true');
    expect(within(dialog).getByTestId('prerequisite-registry').textContent).toBe(
      'Registry: registry.example/team',
    );
    ctx.peer.clusters.clusters = [];
  });

  it('runs in the chosen environment, naming its cluster and namespace, and the run page says so', async () => {
    ctx.peer.clusters.environments = [
      sampleEnvironment({
        id: 'env-prod',
        name: 'production',
        type: 'production',
        clusterId: 'c-1',
        clusterName: 'prod-eu',
        clusterStatus: 'active',
        namespace: 'shop',
      }),
      sampleEnvironment({ id: 'env-scratch', name: 'scratch' }),
    ];
    renderApp('/pipelines');
    const user = userEvent.setup();
    await screen.findByTestId('pipeline-row', {}, opts);
    await user.click(screen.getByTestId('run-pipeline-button'));
    const dialog = await screen.findByRole('dialog', {}, opts);
    const select = within(dialog).getByRole('combobox', { name: 'Select environment' });
    expect(select.textContent).toBe('None — run on this server (local executor)');
    await user.click(select);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(
      expect.arrayContaining([
        'None — run on this server (local executor)',
        'production — prod-eu / shop',
        'scratch — no cluster (local executor)',
      ]),
    );
    await user.click(screen.getByRole('option', { name: 'production — prod-eu / shop' }));
    expect(
      within(dialog).getByText('The tasks run as pods on this cluster (Kubernetes executor).'),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    await screen.findByTestId('run-page', {}, opts);
    expect(ctx.peer.calls('POST', '/api/pipelineruns').at(-1)!.body).toMatchObject({
      pipelineId: 'pl-1',
      environmentId: 'env-prod',
    });
    const label = await screen.findByText('Environment', { selector: 'dt' }, opts);
    await waitFor(
      () => expect(label.nextElementSibling!.textContent).toBe('production — prod-eu / shop'),
      opts,
    );
    ctx.peer.clusters.environments = [];
  });

  it('runs a pipeline template: creates the pipeline from it, then runs that', async () => {
    ctx.peer.pipelines.templates = [
      samplePipeline({ id: 'tpl-1', kind: 'template', name: 'build-image', definition: PARAMS_DEFINITION }),
    ];
    renderApp('/pipelines');
    const user = userEvent.setup();
    await screen.findByTestId('pipeline-row', {}, opts);
    await user.click(screen.getByTestId('run-pipeline-button'));
    const dialog = await screen.findByRole('dialog', {}, opts);
    await user.click(within(dialog).getByRole('combobox', { name: 'Pipeline template' }));
    await user.click(await screen.findByRole('option', { name: 'build-image' }));
    expect(within(dialog).queryByTestId('run-pipeline-select')).toBeNull();
    const form = await within(dialog).findByTestId('run-params-form', {}, opts);
    await user.type(within(form).getByRole('textbox', { name: 'repo (string)' }), 'r');
    await user.click(within(dialog).getByRole('button', { name: 'Start' }));
    await screen.findByTestId('run-page', {}, opts);
    expect(ctx.peer.calls('POST', '/api/templates/tpl-1/instantiate').at(-1)!.body).toEqual({
      name: 'build-image',
    });
    const created = ctx.peer.pipelines.pipelines.find((p) => p.name === 'build-image')!;
    expect(ctx.peer.calls('POST', '/api/pipelineruns').at(-1)!.body).toMatchObject({
      pipelineId: created.id,
    });
  });
});

describe('pipeline editor', () => {
  it("shows the server's validation message, and each issue inline at its line", async () => {
    const message = 'spec.tasks[0].taskSpec (line 12, column 9): steps is required';
    ctx.peer.pipelines.refuseDefinition = message;
    renderApp('/pipelines/new');
    const user = userEvent.setup();
    const view = await definitionView();
    expect(view.state.doc.toString()).toContain('kind: Pipeline');
    expect(view.contentDOM.getAttribute('aria-label')).toBe('Definition (YAML or JSON)');
    // YAML is highlighted by the grammar
    expect(view.contentDOM.querySelector('.cm-line span')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'hello');
    await user.click(screen.getByRole('button', { name: 'Create pipeline' }));
    expect((await screen.findByTestId('pipeline-error', {}, opts)).textContent).toBe(message);
    expect(ctx.peer.calls('POST', '/api/pipelines').at(-1)!.body).toMatchObject({ name: 'hello' });
    await waitFor(() => expect(view.dom.querySelector('.cm-lintRange-error')).toBeTruthy(), opts);
    const marked = view.dom.querySelector('.cm-lintRange-error')!;
    const line = view.state.doc.lineAt(view.posAtDOM(marked));
    expect(line.number).toBe(12);
  });

  it('keeps the params form and the YAML in step', async () => {
    renderApp('/pipelines/new');
    const user = userEvent.setup();
    const view = await definitionView();
    await user.click(screen.getByRole('tab', { name: 'Params form' }));
    const form = await screen.findByTestId('params-form', {}, opts);
    const name = within(form).getByRole('textbox', { name: 'Param name' }) as HTMLInputElement;
    expect(name.value).toBe('greeting');
    await user.clear(within(form).getByRole('textbox', { name: 'Default' }));
    await user.type(within(form).getByRole('textbox', { name: 'Default' }), 'Hi');
    await user.click(within(form).getByRole('button', { name: 'Add a param' }));
    await user.clear(within(form).getAllByRole('textbox', { name: 'Param name' })[1]!);
    expect(within(form).getByText('Name is required')).toBeTruthy();
    await user.type(within(form).getAllByRole('textbox', { name: 'Param name' })[1]!, 'sha');
    await user.click(screen.getByRole('tab', { name: 'YAML' }));
    const yamlView = await definitionView();
    expect(yamlView.state.doc.toString()).toContain(
      '  params:\n    - name: greeting\n      type: string\n      default: Hi\n    - name: sha\n      type: string\n  tasks:',
    );
    // and an edit of the YAML shows in the form
    const text = yamlView.state.doc.toString();
    const at = text.indexOf('name: sha') + 'name: '.length;
    yamlView.dispatch({ changes: { from: at, to: at + 3, insert: 'commit' } });
    await user.click(screen.getByRole('tab', { name: 'Params form' }));
    const names = within(await screen.findByTestId('params-form', {}, opts)).getAllByRole('textbox', {
      name: 'Param name',
    }) as HTMLInputElement[];
    expect(names.map((n) => n.value)).toEqual(['greeting', 'commit']);
    expect(view).toBeTruthy();
  });
});

describe('pipeline detail', () => {
  it('asks before leaving with unsaved edits, and stays when told to', async () => {
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    const view = await definitionView();
    view.dispatch({ changes: { from: view.state.doc.length, insert: '# not saved' } });
    await user.click(screen.getByRole('link', { name: /Pipelines/ }));
    const confirm = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(confirm.textContent).toContain('Leave without saving?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull(), opts);
    expect(currentUrl()).toBe('/pipelines/pl-1');
    await user.click(screen.getByRole('link', { name: /Pipelines/ }));
    await user.click(
      within(await screen.findByTestId('confirm-dialog', {}, opts)).getByRole('button', { name: 'Leave' }),
    );
    await waitFor(() => expect(currentUrl()).toBe('/pipelines'), opts);
  });

  it('deletes the pipeline after asking, saying what goes with it, and returns to the list', async () => {
    ctx.peer.pipelines.pipelines = [samplePipeline({ id: 'pl-8', name: 'old' })];
    renderApp('/pipelines/pl-8');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('delete-pipeline', {}, opts));
    const confirm = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(confirm.textContent).toContain('Delete the pipeline old?');
    expect(confirm.textContent).toContain('its runs with their logs');
    expect(ctx.peer.calls('DELETE', '/api/pipelines/pl-8')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(ctx.peer.calls('DELETE', '/api/pipelines/pl-8')).toHaveLength(1), opts);
    await waitFor(() => expect(currentUrl()).toBe('/pipelines'), opts);
  });

  it('sets the rollback pipeline its runs roll back with, saved as it is chosen', async () => {
    ctx.peer.pipelines.pipelines = [
      samplePipeline({ id: 'pl-9' }),
      samplePipeline({ id: 'pl-2', name: 'undo' }),
    ];
    renderApp('/pipelines/pl-9');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Rollback pipeline' }, opts));
    const options = await screen.findAllByRole('option', {}, opts);
    // the pipeline itself is not offered
    expect(options.map((o) => o.textContent)).toEqual(['None: runs offer no roll back', 'undo']);
    await user.click(options[1]!);
    await waitFor(
      () =>
        expect(ctx.peer.calls('PUT', '/api/pipelines/pl-9').at(-1)?.body).toEqual({
          rollbackPipelineId: 'pl-2',
        }),
      opts,
    );
    expect(await screen.findByText('Saved.', {}, opts)).toBeTruthy();
  });

  it('lists its own runs by name, without a column repeating the pipeline (it showed the id)', async () => {
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-9', number: 9, pipelineId: 'pl-1' })];
    renderApp('/pipelines/pl-1');
    const [row] = await screen.findAllByTestId('run-row', {}, opts);
    expect(row!.textContent).toContain('#9');
    expect(row!.textContent).not.toContain('pl-1');
    const table = row!.closest('table')!;
    expect(within(table).queryByRole('columnheader', { name: 'Pipeline' })).toBeNull();
  });

  it('shows the versions, saves a changed definition and runs this pipeline', async () => {
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    expect((await screen.findByTestId('pipeline-versions', {}, opts)).textContent).toBe(
      'Version 1 · 1 version',
    );
    const view = await definitionView();
    expect(view.state.doc.toString()).toContain('kind: Pipeline');
    view.dispatch({ changes: { from: view.state.doc.length, insert: '# changed' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(ctx.peer.calls('PUT', '/api/pipelines/pl-1')).toHaveLength(1), opts);
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
