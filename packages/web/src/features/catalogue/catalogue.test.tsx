import { EditorView } from '@codemirror/view';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { samplePipeline } from '../../test/pipelines-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { rowTexts, sortByHeader } from '../../test/sort-header';
import { sampleTaskTemplate } from '../../test/studio-peer';

const ctx = withSignedInPeer();

// jsdom has no client rects for text ranges; the editor measures with them
Range.prototype.getClientRects ??= () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

beforeEach(() => {
  ctx.peer.pipelines.pipelines = [];
  ctx.peer.pipelines.templates = [];
  ctx.peer.pipelines.refuseDefinition = null;
  ctx.peer.studio.tasks = [];
  ctx.peer.studio.refuseTask = null;
});

async function editorIn(dialog: HTMLElement, testId: string) {
  const host = await within(dialog).findByTestId(testId, {}, opts);
  await waitFor(() => expect(host.querySelector('.cm-editor')).toBeTruthy(), opts);
  return EditorView.findFromDOM(host.querySelector('.cm-editor') as HTMLElement)!;
}

describe('pipeline templates page', () => {
  it('lists templates by name and sorts them the other way from the Name header', async () => {
    ctx.peer.pipelines.templates = [
      samplePipeline({ id: 'tpl-b', kind: 'template', name: 'build' }),
      samplePipeline({ id: 'tpl-a', kind: 'template', name: 'audit' }),
    ];
    renderApp('/pipeline-templates');
    await waitFor(async () => expect((await rowTexts('template-row'))[0]).toContain('audit'), opts);
    await sortByHeader(userEvent.setup(), 'Name', 'template-row', 'build', 'descending');
  });

  it('says when there are none, creates one from the editor, and uses it as a new pipeline', async () => {
    renderApp('/pipeline-templates');
    const user = userEvent.setup({ delay: null });
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain(
      'No pipeline templates yet',
    );
    await user.click(screen.getByRole('button', { name: 'New pipeline template' }));
    const dialog = await screen.findByRole('dialog', {}, opts);
    const view = await editorIn(dialog, 'template-definition-editor');
    expect(view.state.doc.toString()).toContain('kind: Pipeline');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'build-image');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Builds an image');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(ctx.peer.calls('POST', '/api/templates').at(-1)!.body).toMatchObject({
      name: 'build-image',
      description: 'Builds an image',
      definition: expect.stringContaining('kind: Pipeline'),
    });
    const row = await screen.findByTestId('template-row', {}, opts);
    expect(row.textContent).toContain('Builds an image');

    await user.click(within(row).getByRole('button', { name: 'Use template' }));
    const use = await screen.findByRole('dialog', {}, opts);
    const name = within(use).getByRole('textbox', { name: 'New pipeline name' });
    await user.clear(name);
    await user.type(name, 'shop-build');
    await user.click(within(use).getByRole('button', { name: 'Create pipeline' }));
    await screen.findByTestId('pipeline-detail-page', {}, opts);
    expect(ctx.peer.pipelines.pipelines.map((p) => p.name)).toEqual(['shop-build']);
  });

  it("shows the server's refusal inline when saving an edited template, and deletes after asking", async () => {
    ctx.peer.pipelines.templates = [
      samplePipeline({
        id: 'tpl-1',
        kind: 'template',
        name: 'deploy',
        definition: 'kind: Pipeline\nspec:\n  tasks: []\n',
      }),
    ];
    renderApp('/pipeline-templates');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Open' }, opts));
    const dialog = await screen.findByRole('dialog', {}, opts);
    const view = await editorIn(dialog, 'template-definition-editor');
    expect(view.state.doc.toString()).toBe('kind: Pipeline\nspec:\n  tasks: []\n');
    ctx.peer.pipelines.refuseDefinition = 'spec.tasks (line 3, column 3): a pipeline needs at least one task';
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect((await within(dialog).findByTestId('template-error', {}, opts)).textContent).toContain(
      'a pipeline needs at least one task',
    );
    await waitFor(() => expect(view.dom.querySelector('.cm-lintRange-error')).toBeTruthy(), opts);
    expect(view.state.doc.lineAt(view.posAtDOM(view.dom.querySelector('.cm-lintRange-error')!)).number).toBe(
      3,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByTestId('confirm-dialog', {}, opts);
    expect(confirm.textContent).toContain('Delete deploy?');
    expect(ctx.peer.calls('DELETE', '/api/templates/tpl-1')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain(
      'No pipeline templates yet',
    );
  });
});

describe('task templates page', () => {
  it('sorts the templates from their headers in the page (the list comes whole)', async () => {
    ctx.peer.studio.tasks = [
      sampleTaskTemplate({ id: 't-b', name: 'build', builtIn: false }),
      sampleTaskTemplate({ id: 't-a', name: 'audit', builtIn: false }),
    ];
    renderApp('/task-templates');
    const user = userEvent.setup();
    await rowTexts('task-template-row');
    await sortByHeader(user, 'Name', 'task-template-row', 'audit', 'ascending');
    await sortByHeader(user, 'Name', 'task-template-row', 'build', 'descending');
  });

  it('shows built-ins read-only, and creates, edits and deletes custom ones', async () => {
    ctx.peer.studio.tasks = [sampleTaskTemplate()];
    renderApp('/task-templates');
    const user = userEvent.setup({ delay: null });
    const builtIn = await screen.findByTestId('task-template-row', {}, opts);
    expect(within(builtIn).getByTestId('built-in').textContent).toBe('Built-in');
    expect(within(builtIn).queryByRole('button', { name: 'Delete' })).toBeNull();
    await user.click(within(builtIn).getByRole('button', { name: 'View' }));
    let dialog = await screen.findByRole('dialog', {}, opts);
    const view = await editorIn(dialog, 'template-definition-editor');
    expect(view.state.readOnly).toBe(true);
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await user.click(screen.getByRole('button', { name: 'New task template' }));
    dialog = await screen.findByRole('dialog', {}, opts);
    await editorIn(dialog, 'template-definition-editor');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'say-hello');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByTestId('task-template-row')).toHaveLength(2), opts);
    expect(ctx.peer.calls('POST', '/api/tasks').at(-1)!.body).toMatchObject({
      name: 'say-hello',
      definition: expect.stringContaining('kind: Task'),
    });

    const custom = screen.getAllByTestId('task-template-row')[1]!;
    await user.click(within(custom).getByRole('button', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog', {}, opts);
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Greets');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(
      () => expect(screen.getAllByTestId('task-template-row')[1]!.textContent).toContain('Greets'),
      opts,
    );

    await user.click(
      within(screen.getAllByTestId('task-template-row')[1]!).getByRole('button', { name: 'Delete' }),
    );
    await user.click(
      within(await screen.findByTestId('confirm-dialog', {}, opts)).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.getAllByTestId('task-template-row')).toHaveLength(1), opts);
    expect(ctx.peer.studio.tasks.map((x) => x.name)).toEqual(['git-clone']);
  });
});
