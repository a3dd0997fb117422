import { screen, waitFor, within } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallerPermissions, PipelineDetail } from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { samplePipeline } from '../../test/pipelines-peer';
import { fail, serveRoutes, type RecordedRequest } from '../../test/route-peer';
import { opts } from '../../test/settings-peer';
import { pipelinesPeer } from './pipelines.test-setup';

const ctx = pipelinesPeer();
const AT = '2025-05-01T10:00:00.000Z';

const V1 = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata:
  name: hello
spec:
  tasks:
    - name: build
      taskSpec:
        steps:
          - name: compile
            image: golang:1.21
            script: go build ./...
`;
const V2 = V1.replace('golang:1.21', 'golang:1.22');
const V3 = `${V2}    - name: test
      runAfter: [build]
`;

/**
 * The shared API peer answers every version with the current definition; this one keeps each
 * version's own (`definitions`, by pipeline id then version) and serves them under
 * `/api/pipelines/:id/versions/:version`, the rest of the API going to the shared peer.
 */
const VERSION_PATH = /^\/api\/pipelines\/[^/]+\/versions\/[^/]+$/;

/**
 * Sends GETs of a version to `origin`, every other call on untouched. (`forwardPaths` reads each
 * call into a new Request first, which uses up the body of a PUT it then passes on.)
 */
const realFetch = globalThis.fetch;
function forwardVersions(origin: string): () => void {
  const previous = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    if (method !== 'GET' || !VERSION_PATH.test(url.pathname)) return previous(input, init);
    return realFetch(`${origin}${url.pathname}`);
  }) as typeof fetch;
  return () => {
    globalThis.fetch = previous;
  };
}
const definitions = new Map<string, Map<number, string>>();
const versionRequests: RecordedRequest[] = [];
let versionsPeer: Awaited<ReturnType<typeof serveRoutes>>;
let unforward: () => void;
beforeAll(async () => {
  versionsPeer = await serveRoutes(versionRequests, (method, path) => {
    const [, , , id = '', , version = ''] = path.split('/');
    const definition = definitions.get(id)?.get(Number(version));
    if (method !== 'GET' || definition === undefined) return fail(404, 'Version not found');
    return [200, { version: Number(version), format: 'yaml', createdBy: null, createdAt: AT, definition }];
  });
});
afterAll(() => versionsPeer.close());
beforeEach(() => {
  unforward = forwardVersions(versionsPeer.origin);
  definitions.clear();
  versionRequests.length = 0;
});
afterEach(() => unforward());

const info = (version: number) => ({
  version,
  format: 'yaml' as const,
  createdBy: null,
  createdAt: `2025-05-0${version}T10:00:00.000Z`,
});

/** pl-1 at version 3 of three, its versions listed out of order (the page sorts them). */
function threeVersions(patch: Partial<PipelineDetail> = {}) {
  definitions.set(
    'pl-1',
    new Map([
      [1, V1],
      [2, V2],
      [3, V3],
    ]),
  );
  ctx.peer.pipelines.pipelines = [
    samplePipeline({ version: 3, definition: V3, versions: [info(1), info(3), info(2)], ...patch }),
  ];
}

/** The saves of pl-1 since the test began (the shared peer records every test's requests). */
let savesBefore = 0;
beforeEach(() => {
  savesBefore = ctx.peer.calls('PUT', '/api/pipelines/pl-1').length;
});
const saves = () => ctx.peer.calls('PUT', '/api/pipelines/pl-1').slice(savesBefore);

const versionRows = () => screen.findAllByTestId('version-row', {}, opts);

/** The row of version `n` ("vN" in its first cell). */
async function rowOf(version: number) {
  const rows = await versionRows();
  const row = rows.find((r) => r.querySelector('td')?.textContent?.startsWith(`v${version}`));
  if (!row) throw new Error(`no row for v${version}`);
  return row;
}

/** A line of the diff as it reads: its marker (+, - or a space), a space, the line. */
const marked = (marker: '+' | '-' | ' ', line: string) => `${marker} ${line}`;

/** What the diff shows of one kind, each line as "+ text" / "- text". */
const diffLines = (kind: 'added' | 'removed') =>
  within(screen.getByTestId('version-diff'))
    .queryAllByTestId(`diff-${kind}`)
    .map((l) => l.textContent);

const viewer: CallerPermissions = {
  organisationRole: 'member',
  organisation: [],
  workspaceId: 'ws-1',
  workspaceRole: 'viewer',
  workspace: [{ permission: 'pipelines:view' }],
};

describe('pipeline versions', () => {
  it('lists the versions newest first, the current one marked, and shows one read-only', async () => {
    threeVersions();
    renderApp('/pipelines/pl-1');
    const rows = await versionRows();
    expect(rows.map((r) => r.querySelector('td > span')!.textContent)).toEqual(['v3Current', 'v2', 'v1']);
    expect(rows[0]!.textContent).toContain('YAML');
    expect(rows[1]!.textContent).toContain('Not recorded');
    expect(within(rows[0]!).queryByRole('button', { name: 'Restore' })).toBeNull();
    expect(screen.queryByTestId('versions-only-one')).toBeNull();

    const user = userEvent.setup();
    await user.click(within(rows[2]!).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Version 1' }, opts);
    const host = await within(dialog).findByTestId('version-definition', {}, opts);
    await waitFor(() => expect(host.querySelector('.cm-editor')).toBeTruthy(), opts);
    const view = EditorView.findFromDOM(host.querySelector('.cm-editor') as HTMLElement)!;
    expect(view.state.doc.toString()).toBe(V1);
    expect(view.state.readOnly).toBe(true);
    expect(versionRequests.map((r) => r.path)).toEqual(['/api/pipelines/pl-1/versions/1']);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
  });

  it('says when there is only one version, with nothing to compare', async () => {
    renderApp('/pipelines/pl-1');
    const [row] = await versionRows();
    expect(screen.getByTestId('versions-only-one').textContent).toContain('Only one version so far');
    expect(within(row!).queryByRole('button', { name: 'Compare' })).toBeNull();
    expect(within(row!).getByRole('button', { name: 'View' })).toBeTruthy();
  });

  it('says why a version could not be loaded, and loads it on retry', async () => {
    threeVersions();
    definitions.get('pl-1')!.delete(2);
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    await user.click(within(await rowOf(2)).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Version 2' }, opts);
    const error = await within(dialog).findByTestId('load-error', {}, opts);
    expect(error.textContent).toContain('This version could not be loaded. Version not found');
    definitions.get('pl-1')!.set(2, V2);
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByTestId('version-definition', {}, opts)).toBeTruthy();
  });

  it('compares a version with the current one: + and − lines, collapsed context, swap, other versions', async () => {
    threeVersions();
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    await user.click(within(await rowOf(1)).getByRole('button', { name: 'Compare' }));
    const panel = await screen.findByTestId('version-compare', {}, opts);
    expect(within(panel).getByRole('combobox', { name: 'From' }).textContent).toBe('v1');
    expect(within(panel).getByRole('combobox', { name: 'To' }).textContent).toBe('v3 (current)');
    await within(panel).findByTestId('version-diff', {}, opts);
    expect(diffLines('removed')).toEqual([marked('-', '            image: golang:1.21')]);
    expect(diffLines('added')).toEqual([
      marked('+', '            image: golang:1.22'),
      marked('+', '    - name: test'),
      marked('+', '      runAfter: [build]'),
    ]);
    expect(within(panel).getByTestId('diff-summary').textContent).toBe('+3 \u22121');
    // the diff reads left to right in any language, and scrolls inside its own box
    expect(within(panel).getByTestId('version-diff').getAttribute('dir')).toBe('ltr');
    // lines 1–7 sit far from the change: one gap; 8–10 and 12 are its context
    const gap = within(panel).getByTestId('diff-gap');
    expect(gap.textContent).toBe('… 7 unchanged lines');
    expect(
      within(panel)
        .getAllByTestId('diff-same')
        .map((l) => l.textContent),
    ).toEqual([
      marked(' ', '      taskSpec:'),
      marked(' ', '        steps:'),
      marked(' ', '          - name: compile'),
      marked(' ', '            script: go build ./...'),
    ]);
    await user.click(gap);
    expect(within(panel).queryByTestId('diff-gap')).toBeNull();
    expect(within(panel).getAllByTestId('diff-same')[0]!.textContent).toBe(
      marked(' ', 'apiVersion: tekton.dev/v1'),
    );

    await user.click(within(panel).getByRole('button', { name: 'Swap sides' }));
    expect(within(panel).getByRole('combobox', { name: 'From' }).textContent).toBe('v3 (current)');
    expect(diffLines('added')).toEqual([marked('+', '            image: golang:1.21')]);
    expect(diffLines('removed')).toEqual([
      marked('-', '            image: golang:1.22'),
      marked('-', '    - name: test'),
      marked('-', '      runAfter: [build]'),
    ]);
    expect(within(panel).getByTestId('diff-summary').textContent).toBe('+1 \u22123');

    await user.click(within(panel).getByRole('combobox', { name: 'To' }));
    await user.click(await screen.findByRole('option', { name: 'v2' }, opts));
    await waitFor(() => expect(diffLines('removed')).toHaveLength(2), opts);
    expect(diffLines('added')).toEqual([]);
    expect(within(panel).getByTestId('diff-summary').textContent).toBe('+0 \u22122');

    await user.click(within(panel).getByRole('button', { name: 'Close the comparison' }));
    expect(screen.queryByTestId('version-compare')).toBeNull();
  });

  it('says when two versions have the same definition', async () => {
    threeVersions();
    definitions.get('pl-1')!.set(2, V3);
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    await user.click(within(await rowOf(2)).getByRole('button', { name: 'Compare' }));
    expect((await screen.findByTestId('diff-identical', {}, opts)).textContent).toBe(
      'These two versions have the same definition.',
    );
  });

  it('restores an earlier version after asking: its definition saved as a new version', async () => {
    threeVersions();
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    await user.click(within(await rowOf(1)).getByRole('button', { name: 'Restore' }));
    let confirm = await screen.findByRole('dialog', { name: 'Restore version 1?' }, opts);
    expect(confirm.textContent).toContain('saved as a new version');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    expect(saves()).toHaveLength(0);

    // from the version's own dialog this time
    await user.click(within(await rowOf(1)).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Version 1' }, opts);
    await user.click(within(dialog).getByRole('button', { name: 'Restore this version' }));
    confirm = await screen.findByRole('dialog', { name: 'Restore version 1?' }, opts);
    await user.click(within(confirm).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(saves()).toHaveLength(1), opts);
    expect(saves()[0]!.body).toEqual({ definition: V1 });
    expect(
      await screen.findByText('Version 1 restored: the pipeline is at version 3.', {}, opts),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), opts);
    // the page's editor shows the restored definition
    const host = await screen.findByTestId('pipeline-definition-editor', {}, opts);
    await waitFor(() => {
      const view = EditorView.findFromDOM(host.querySelector('.cm-editor') as HTMLElement);
      expect(view?.state.doc.toString()).toBe(V1);
    }, opts);
  });

  it('keeps the restore refused by the server in its dialog', async () => {
    threeVersions();
    ctx.peer.pipelines.refuseDefinition = 'The definition refers to a task that no longer exists';
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    await user.click(within(await rowOf(2)).getByRole('button', { name: 'Restore' }));
    const confirm = await screen.findByRole('dialog', { name: 'Restore version 2?' }, opts);
    await user.click(within(confirm).getByRole('button', { name: 'Restore' }));
    expect((await within(confirm).findByRole('alert', {}, opts)).textContent).toContain(
      'a task that no longer exists',
    );
    expect(saves().map((r) => r.body)).toEqual([{ definition: V2 }]);
  });

  it('offers no restore for an external pipeline, and says why', async () => {
    threeVersions({
      source: {
        kind: 'git',
        url: 'https://git.example/ci.git',
        revision: 'main',
        path: 'ci.yaml',
        secret: null,
      },
    });
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    const row = await rowOf(1);
    expect(within(row).getByRole('button', { name: 'Compare' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Restore' })).toBeNull();
    expect(screen.getByTestId('versions-external').textContent).toContain('comes from its git repository');
    await user.click(within(row).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Version 1' }, opts);
    await within(dialog).findByTestId('version-definition', {}, opts);
    expect(within(dialog).queryByRole('button', { name: 'Restore this version' })).toBeNull();
  });

  it('offers no restore to a viewer, who can still view and compare', async () => {
    threeVersions();
    ctx.peer.org.permissions.set(ctx.peer.sessions.get(ctx.token)!, viewer);
    renderApp('/pipelines/pl-1');
    const user = userEvent.setup();
    const row = await rowOf(1);
    // the permissions have answered once the page's own Delete is disabled
    await waitFor(
      () => expect((screen.getByTestId('delete-pipeline') as HTMLButtonElement).disabled).toBe(true),
      opts,
    );
    expect(within(row).queryByRole('button', { name: 'Restore' })).toBeNull();
    expect(screen.queryByTestId('versions-external')).toBeNull();
    await user.click(within(row).getByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'Version 1' }, opts);
    expect(within(dialog).queryByRole('button', { name: 'Restore this version' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Compare with current' })).toBeTruthy();
  });
});
