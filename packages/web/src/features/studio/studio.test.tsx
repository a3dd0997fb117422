import { act, screen, waitFor, within } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { currentUrl, renderApp } from '../../test/app';
import { samplePipeline, sampleRun } from '../../test/pipelines-peer';
import { opts } from '../../test/settings-peer';
import { sampleTaskTemplate } from '../../test/studio-peer';
import { DAG_DEFINITION, pipelinesPeer } from '../pipelines/pipelines.test-setup';

/** The studio page: the picker, a pipeline edited on the canvas and in its YAML, a run read-only. */
const ctx = pipelinesPeer();

const DEFINITION = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: hello
spec:
  workspaces:
    - name: source
  tasks:
    # builds the image
    - name: build
      taskSpec:
        results:
          - name: image
        steps:
          - name: say
            image: alpine
            script: echo
    - name: test
      runAfter: [build]
      taskSpec:
        steps:
          - name: check
            image: alpine
            script: echo
`;

const GIT_CLONE = `apiVersion: tekton.dev/v1
kind: Task
metadata:
  name: git-clone
spec:
  params:
    - name: url
    - name: revision
      default: main
  workspaces:
    - name: output
  results:
    - name: commit
  steps: []
`;

beforeEach(() => {
  ctx.peer.pipelines.pipelines = [samplePipeline({ definition: DEFINITION })];
  ctx.peer.studio.tasks = [
    sampleTaskTemplate({
      id: 'task-git',
      name: 'git-clone',
      description: 'Clones a repository',
      definition: GIT_CLONE,
    }),
    sampleTaskTemplate({ id: 'task-lint', name: 'lint', description: 'Lints the code', builtIn: false }),
  ];
});

/** The CodeMirror view of the studio's YAML (jsdom cannot type into it like a person). */
async function yamlView() {
  const host = await screen.findByTestId('studio-yaml-editor', {}, opts);
  await waitFor(() => expect(host.querySelector('.cm-editor')).toBeTruthy(), opts);
  return EditorView.findFromDOM(host.querySelector('.cm-editor') as HTMLElement)!;
}
const yamlText = async () => (await yamlView()).state.doc.toString();

/** The canvas's tasks, once laid out. */
async function canvasTasks() {
  const dag = await screen.findByTestId('studio-dag', {}, opts);
  await waitFor(() => expect(dag.dataset.laidOut).toBe('true'), opts);
  return within(dag)
    .getAllByTestId('studio-node')
    .map((n) => n.dataset.task);
}
const canvasEdges = () => screen.getByTestId('studio-dag').dataset.edges;

async function openPipeline() {
  renderApp('/studio/pipelines/pl-1');
  await waitFor(async () => expect(await canvasTasks()).toEqual(['build', 'test']), opts);
}

/** Picks options of a select by its label (a multi-select stays open: Escape closes it). */
async function choose(user: ReturnType<typeof userEvent.setup>, label: string, ...options: string[]) {
  await user.click(screen.getByRole('combobox', { name: label }));
  for (const option of options) await user.click(await screen.findByRole('option', { name: option }));
  if (screen.queryByRole('listbox')) await user.keyboard('{Escape}');
}

describe('studio picker', () => {
  it('lists pipelines to open, searches them, and opens one on the canvas', async () => {
    ctx.peer.pipelines.pipelines.push(
      samplePipeline({ id: 'pl-2', name: 'release', definition: DAG_DEFINITION }),
    );
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-3', number: 3, status: 'failed' })];
    renderApp('/studio');
    const list = await screen.findByTestId('studio-pipelines', {}, opts);
    expect(
      within(list)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual([expect.stringContaining('hello'), expect.stringContaining('release')]);
    expect(
      within(await screen.findByTestId('studio-runs', {}, opts))
        .getByRole('link')
        .getAttribute('href'),
    ).toBe('/studio/runs/run-3');
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search pipelines' }), 'zzz');
    expect(await screen.findByTestId('studio-no-match', {}, opts)).toBeTruthy();
    await user.clear(screen.getByRole('searchbox', { name: 'Search pipelines' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search pipelines' }), 'rel');
    await waitFor(() =>
      expect(within(screen.getByTestId('studio-pipelines')).getAllByRole('link')).toHaveLength(1),
    );
    await user.click(screen.getByRole('link', { name: /release/ }));
    await waitFor(() => expect(currentUrl()).toBe('/studio/pipelines/pl-2'));
    expect(await canvasTasks()).toEqual(['build', 'test', 'report']);
    expect(canvasEdges()).toBe('build->test:runAfter test->report:result');
  });

  it('says there are no pipelines yet and links to creating one', async () => {
    ctx.peer.pipelines.pipelines = [];
    renderApp('/studio');
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No pipelines yet');
    expect(screen.getByRole('link', { name: 'Create a pipeline' }).getAttribute('href')).toBe(
      '/pipelines/new',
    );
    expect(screen.getByText('No runs yet.')).toBeTruthy();
  });

  it('opens the deep link ?pipeline= (the run test opens ?run=)', async () => {
    renderApp('/studio?pipeline=pl-1');
    await screen.findByTestId('studio-pipeline-page', {}, opts);
    expect(currentUrl()).toBe('/studio/pipelines/pl-1');
  });
});

describe('studio pipeline workspace', () => {
  it('adds a task from the catalogue, connects it after another, and saves the YAML it wrote', async () => {
    await openPipeline();
    const user = userEvent.setup();
    expect(screen.getByTestId<HTMLButtonElement>('studio-save').disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Add task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a task' });
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search tasks' }), 'clone');
    expect(
      within(dialog)
        .getAllByTestId('catalogue-item')
        .map((i) => i.textContent),
    ).toEqual(['git-cloneClones a repository']);
    await user.click(within(dialog).getByRole('button', { name: /git-clone/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await yamlText()).toBe(
      `${DEFINITION}    - name: git-clone
      taskRef:
        name: git-clone
      params:
        - name: url
          value: ""
        - name: revision
          value: main
      workspaces:
        - name: output
          workspace: source
`,
    );
    await waitFor(async () => expect(await canvasTasks()).toEqual(['build', 'test', 'git-clone']));
    // the new task is selected: its panel is open; it is connected from the keyboard
    const panel = screen.getByRole('region', { name: 'Task git-clone' });
    await choose(user, 'Runs after', 'build');
    expect(await yamlText()).toContain('    - name: git-clone\n      runAfter: [build]\n      taskRef:\n');
    await waitFor(() => expect(canvasEdges()).toBe('build->test:runAfter build->git-clone:runAfter'));

    const url = within(panel).getByRole('textbox', { name: 'Value of url' });
    await user.type(url, 'https://git.example/app{Enter}');
    expect(await yamlText()).toContain('        - name: url\n          value: https://git.example/app\n');

    expect(screen.getByTestId('studio-unsaved')).toBeTruthy();
    await user.click(screen.getByTestId('studio-save'));
    expect(await screen.findByText('Saved as version 1.', {}, opts)).toBeTruthy();
    expect(ctx.peer.calls('PUT', '/api/pipelines/pl-1').at(-1)!.body).toEqual({
      definition: await yamlText(),
    });
    expect(screen.queryByTestId('studio-unsaved')).toBeNull();
    // comments and the rest of the text were left as written
    expect(await yamlText()).toContain('    # builds the image\n    - name: build\n');
  });

  it('follows the YAML as it is typed, and keeps the last good graph while it does not parse', async () => {
    await openPipeline();
    const view = await yamlView();
    const renamed = DEFINITION.replace('- name: test', '- name: verify');
    act(() => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: renamed } }));
    await waitFor(async () => expect(await canvasTasks()).toEqual(['build', 'verify']), opts);
    expect(canvasEdges()).toBe('build->verify:runAfter');
    expect(screen.queryByTestId('studio-parse-problem')).toBeNull();

    act(() => view.dispatch({ changes: { from: view.state.doc.length, insert: '  finally: [oops\n' } }));
    expect((await screen.findByTestId('studio-parse-problem', {}, opts)).textContent).toContain(
      'does not parse',
    );
    expect(await canvasTasks()).toEqual(['build', 'verify']);
    // while it does not parse, the canvas cannot change it
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Add task' }).disabled).toBe(true);
  });

  it('refuses a cycle, reads a result through a picker, and deletes a task after asking', async () => {
    await openPipeline();
    const user = userEvent.setup();
    await choose(user, 'Task', 'build');
    await choose(user, 'Runs after', 'test');
    expect((await screen.findByRole('alert')).textContent).toContain('That would make a cycle');
    expect(await yamlText()).toBe(DEFINITION);

    await choose(user, 'Task', 'test');
    const panel = screen.getByRole('region', { name: 'Task test' });
    await user.type(within(panel).getByRole('textbox', { name: 'New param name' }), 'image');
    await user.click(within(panel).getByRole('button', { name: 'Add param' }));
    await user.click(within(panel).getByRole('button', { name: 'Use a result for image' }));
    await user.click(await screen.findByRole('menuitem', { name: 'build › image' }));
    expect(await yamlText()).toContain(
      '        - name: image\n          value: $(tasks.build.results.image)\n',
    );
    // without the runAfter, the result reference still links them: a dashed edge
    await choose(user, 'Runs after', 'build');
    await waitFor(() => expect(canvasEdges()).toBe('build->test:result'));
    expect(await yamlText()).not.toContain('runAfter');

    await user.click(within(panel).getByRole('button', { name: 'Delete task' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete task test?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect(await canvasTasks()).toEqual(['build']));
    expect(await yamlText()).not.toContain('name: test');
  });

  it('renames a task and its references, and asks before leaving unsaved changes', async () => {
    await openPipeline();
    const user = userEvent.setup();
    await choose(user, 'Task', 'build');
    const name = within(screen.getByRole('region', { name: 'Task build' })).getByRole('textbox', {
      name: 'Task name',
    });
    await user.clear(name);
    await user.type(name, 'compile{Enter}');
    await waitFor(async () => expect(await canvasTasks()).toEqual(['compile', 'test']));
    expect(await yamlText()).toContain('      runAfter: [compile]\n');
    expect(screen.getByRole('region', { name: 'Task compile' })).toBeTruthy();

    await user.click(
      within(screen.getByTestId('studio-pipeline-page')).getByRole('link', { name: 'Studio' }),
    );
    expect(await screen.findByRole('dialog', { name: 'Leave without saving?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(currentUrl()).toBe('/studio/pipelines/pl-1');
  });

  it('shows an external pipeline read-only, with a note and nothing to save', async () => {
    ctx.peer.pipelines.pipelines = [
      samplePipeline({
        definition: DEFINITION,
        source: { kind: 'git', url: 'https://git.example/p', revision: 'main', path: 'p.yaml', secret: null },
      }),
    ];
    await openPipeline();
    expect(screen.getByTestId('studio-external').textContent).toContain('https://git.example/p');
    expect(screen.queryByRole('button', { name: 'Add task' })).toBeNull();
    expect(screen.queryByTestId('studio-save')).toBeNull();
    expect((await yamlView()).state.readOnly).toBe(true);
  });
});

describe('studio on a phone', () => {
  it('tabs the canvas and the YAML at 390 px, and is linked from the pipeline page', async () => {
    const desktop = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...desktop(query), matches: /max-width/.test(query) });
    try {
      renderApp('/pipelines/pl-1');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('link', { name: 'Open in Studio' }, opts));
      await waitFor(async () => expect(await canvasTasks()).toEqual(['build', 'test']), opts);
      expect(currentUrl()).toBe('/studio/pipelines/pl-1');
      const yamlTab = screen.getByRole('tab', { name: 'YAML' });
      expect(screen.getByRole('tab', { name: 'Canvas' }).getAttribute('aria-selected')).toBe('true');
      // the editor is there (hidden), so the YAML follows canvas edits while the canvas is shown
      await choose(user, 'Task', 'test');
      await choose(user, 'Runs after', 'build');
      expect(await yamlText()).not.toContain('runAfter');
      await user.click(yamlTab);
      expect(screen.queryByTestId('studio-dag')).toBeNull();
      expect(screen.getByRole('textbox', { name: 'Pipeline YAML' })).toBeTruthy();
    } finally {
      window.matchMedia = desktop;
    }
  });
});

describe('studio run', () => {
  it('opens a run read-only as its DAG with statuses', async () => {
    ctx.peer.pipelines.pipelines = [samplePipeline({ definition: DAG_DEFINITION })];
    ctx.peer.pipelines.runs = [sampleRun({ id: 'run-5', number: 5, status: 'succeeded' })];
    renderApp('/studio?run=run-5');
    const dag = await screen.findByTestId('run-dag', {}, opts);
    await waitFor(() => expect(within(dag).getAllByTestId('dag-node')).toHaveLength(3), opts);
    expect(currentUrl()).toBe('/studio/runs/run-5');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('hello #5');
    expect(screen.getByRole('link', { name: 'Run page' }).getAttribute('href')).toBe('/pipelines/runs/run-5');
    expect(screen.queryByRole('button', { name: 'Add task' })).toBeNull();
  });
});
