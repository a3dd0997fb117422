import { screen, waitFor, within } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { currentUrl, renderApp } from '../../test/app';
import { sampleRun } from '../../test/pipelines-peer';
import { opts } from '../../test/settings-peer';
import { pipelinesPeer } from './pipelines.test-setup';

const ctx = pipelinesPeer();

const DOCUMENT = `apiVersion: tekton.dev/v1
kind: PipelineRun
metadata:
  name: greet-bob
spec:
  pipelineRef:
    name: nope
`;

describe('Run from YAML', () => {
  it('posts the pasted document as YAML, shows a refusal at its line, and opens the created run', async () => {
    renderApp('/pipelines');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('run-from-yaml-button', {}, opts));
    await screen.findByTestId('run-from-yaml-page', {}, opts);
    const host = await screen.findByTestId('run-document-editor', {}, opts);
    await waitFor(() => expect(host.querySelector('.cm-editor')).toBeTruthy(), opts);
    const view = EditorView.findFromDOM(host.querySelector('.cm-editor') as HTMLElement)!;
    expect(view.state.doc.toString()).toContain('kind: TaskRun');
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: DOCUMENT } });

    const message = 'spec.pipelineRef.name (line 7, column 11): no pipeline "nope" in this workspace';
    ctx.peer.pipelines.refuseDocument = {
      message,
      details: [
        {
          path: 'spec.pipelineRef.name (line 7, column 11)',
          message: 'no pipeline "nope" in this workspace [unknown-pipeline]',
        },
      ],
    };
    await user.click(screen.getByRole('button', { name: 'Create run' }));
    expect((await screen.findByTestId('run-from-yaml-error', {}, opts)).textContent).toBe(message);
    await waitFor(() => expect(view.dom.querySelector('.cm-lintRange-error')).toBeTruthy(), opts);
    const marked = view.dom.querySelector('.cm-lintRange-error')!;
    expect(view.state.doc.lineAt(view.posAtDOM(marked)).number).toBe(7);
    const sent = ctx.peer.calls('POST', '/api/pipelineruns').at(-1)!;
    expect(sent.body).toBe(DOCUMENT);
    expect(sent.headers['content-type']).toContain('application/yaml');

    ctx.peer.pipelines.refuseDocument = null;
    await user.click(screen.getByRole('button', { name: 'Create run' }));
    await screen.findByTestId('run-page', {}, opts);
    expect(currentUrl()).toMatch(/^\/pipelines\/runs\/run-new-\d+$/);
    expect(ctx.peer.pipelines.runs[0]).toMatchObject({
      name: 'greet-bob',
      trigger: { document: { kind: 'PipelineRun' } },
    });
  });

  it("draws a run document's own pipeline from the run's export", async () => {
    const step = { name: 's', image: 'alpine', script: 'echo' };
    ctx.peer.pipelines.runs = [
      sampleRun({
        id: 'run-doc',
        pipelineId: 'adhoc-9',
        name: 'greet-bob',
        trigger: { kind: 'user', document: { kind: 'PipelineRun' } },
      }),
    ];
    ctx.peer.pipelines.exports.set('run-doc', {
      apiVersion: 'tekton.dev/v1',
      kind: 'PipelineRun',
      spec: {
        pipelineSpec: {
          tasks: [
            { name: 'build', taskSpec: { steps: [step] } },
            { name: 'test', runAfter: ['build'], taskSpec: { steps: [step] } },
          ],
        },
      },
    });
    renderApp('/pipelines/runs/run-doc');
    const dag = await screen.findByTestId('run-dag', {}, { timeout: 15_000 });
    await waitFor(() => expect(within(dag).getAllByTestId('dag-node')).toHaveLength(2), { timeout: 15_000 });
    expect(dag.dataset.edges).toBe('build->test:runAfter');
    expect(ctx.peer.calls('GET', '/api/pipelineruns/run-doc/export')).toHaveLength(1);

    // the run as a Tekton PipelineRun, downloaded as YAML
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:run';
    });
    URL.revokeObjectURL = vi.fn();
    HTMLAnchorElement.prototype.click = vi.fn();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export as Tekton YAML' }));
    await waitFor(() => expect(saved).toHaveLength(1), opts);
    expect(ctx.peer.calls('GET', '/api/pipelineruns/run-doc/export').at(-1)!.query).toEqual({
      format: 'yaml',
    });
    expect(await saved[0]!.text()).toContain('PipelineRun');
  });
});
