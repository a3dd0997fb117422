import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BUILTIN_ROLE_GRANTS,
  type CallerPermissions,
  type RegistryImage,
  type RegistryInfo,
  type RegistryTag,
} from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { fail, forwardPaths, page, serveRoutes, type RecordedRequest } from '../../test/route-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';

const ctx = withSignedInPeer();

/**
 * The shared API peer knows nothing of the registry: this one answers `/api/registry…` in the
 * API's shapes, in front of it, and records what the page asked.
 */
const registry = {
  info: {
    host: '127.0.0.1:8080',
    prefix: '127.0.0.1:8080/ws-1',
    insecure: true,
    login: 'buildah login --tls-verify=false -u x 127.0.0.1:8080',
  } as RegistryInfo,
  images: [] as RegistryImage[],
  tags: new Map<string, RegistryTag[]>(),
  imagesStatus: null as number | null,
};
const requests: RecordedRequest[] = [];
const queries: URLSearchParams[] = [];
let peer: Awaited<ReturnType<typeof serveRoutes>>;
let unforward: () => void;

beforeAll(async () => {
  peer = await serveRoutes(requests, (method, path, query) => {
    queries.push(query);
    if (method === 'GET' && path === '/api/registry') return [200, registry.info];
    if (method === 'GET' && path === '/api/registry/images') {
      if (registry.imagesStatus)
        return fail(registry.imagesStatus, 'Something went wrong. Please try again!');
      const name = query.get('name') ?? '';
      return page(
        registry.images.filter((i) => i.name.includes(name)),
        query,
      );
    }
    const tags = registry.tags.get(query.get('name') ?? '');
    if (path !== '/api/registry/images/tags') return fail(404, 'Not found');
    if (!tags) return fail(404, 'Image not found');
    if (method === 'GET') return page(tags, query);
    if (method === 'DELETE') {
      const tag = query.get('tag');
      if (!tags.some((t) => t.tag === tag)) return fail(404, 'Tag not found');
      registry.tags.set(
        query.get('name')!,
        tags.filter((t) => t.tag !== tag),
      );
      return [204];
    }
    return fail(405, 'Method not allowed');
  });
});
afterAll(() => peer.close());
beforeEach(() => {
  unforward = forwardPaths(peer.origin, /^\/api\/registry(\/|$)/);
  registry.images = [];
  registry.tags.clear();
  registry.imagesStatus = null;
  requests.length = 0;
  queries.length = 0;
});
afterEach(() => unforward());

const DIGEST = `sha256:${'ab12cd34ef56'.repeat(5)}abcd`;
const image = (name: string, more: Partial<RegistryImage> = {}): RegistryImage => ({
  name,
  reference: `127.0.0.1:8080/ws-1/${name}`,
  tagCount: 2,
  lastPushedAt: '2025-05-01T10:00:00.000Z',
  size: 12_345_678,
  ...more,
});
const tag = (name: string, pushedAt: string): RegistryTag => ({
  tag: name,
  digest: DIGEST,
  mediaType: 'application/vnd.oci.image.manifest.v1+json',
  size: 2_500_000,
  pushedAt,
});

const viewer: CallerPermissions = {
  organisationRole: 'member',
  organisation: [],
  workspaceId: 'ws-1',
  workspaceRole: 'viewer',
  workspace: BUILTIN_ROLE_GRANTS.viewer,
};

describe('registries', () => {
  it('shows Slipway’s registry: the prefix to copy, plain HTTP, and how to log in and push', async () => {
    renderApp('/registries');
    const prefix = (await screen.findByTestId('registry-prefix', {}, opts)) as HTMLInputElement;
    expect(prefix.value).toBe('127.0.0.1:8080/ws-1');
    expect(prefix.getAttribute('dir')).toBe('ltr');
    expect(screen.getByTestId('registry-insecure').textContent).toContain('plain HTTP');
    const buildah = screen.getByTestId('registry-buildah');
    expect(buildah.getAttribute('dir')).toBe('ltr');
    expect(buildah.textContent).toContain('buildah login --tls-verify=false -u x 127.0.0.1:8080');
    expect(buildah.textContent).toContain('buildah push --tls-verify=false 127.0.0.1:8080/ws-1/my-app:v1');
    expect(screen.getByTestId('registry-docker').textContent).toContain('docker push 127.0.0.1:8080/ws-1/');
    const card = screen.getByTestId('registry-card');
    expect(within(card).getByRole('link', { name: 'Service accounts' }).getAttribute('href')).toBe(
      '/settings/service-accounts',
    );
    expect(screen.getByTestId('registry-providers-later').textContent).toContain('later release');
  });

  it('says there are no images yet and points to quick setup', async () => {
    renderApp('/registries');
    const empty = await screen.findByTestId('empty-state', {}, opts);
    expect(empty.textContent).toContain('No images yet');
    expect(within(empty).getByRole('link', { name: 'Quick setup' }).getAttribute('href')).toBe(
      '/applications/quick-setup',
    );
  });

  it('lists the images newest first, searched and sorted by the server', async () => {
    registry.images = [image('shop/api', { tagCount: 3 }), image('web', { tagCount: 1 })];
    renderApp('/registries');
    const rows = await screen.findAllByTestId('image-row', {}, opts);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('shop/api');
    expect(queries.find((q) => q.get('_sort'))?.get('_order')).toBe('DESC');
    expect(queries.find((q) => q.get('_sort'))?.get('_sort')).toBe('lastPushedAt');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Tags' }));
    await waitFor(() => expect(queries.some((q) => q.get('_sort') === 'tagCount')).toBe(true), opts);
    await user.type(screen.getByRole('searchbox', { name: 'Search by image' }), 'web');
    await waitFor(() => expect(screen.getAllByTestId('image-row')).toHaveLength(1), opts);
    expect(screen.getByTestId('image-row').textContent).toContain('web');
    await user.clear(screen.getByRole('searchbox', { name: 'Search by image' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search by image' }), 'nothing');
    expect((await screen.findByTestId('empty-state', {}, opts)).textContent).toContain('No images match');
  });

  it('opens an image’s tags and deletes one after a confirmation, with the keyboard', async () => {
    registry.images = [image('shop/api')];
    registry.tags.set('shop/api', [
      tag('v2', '2025-05-02T10:00:00.000Z'),
      tag('v1', '2025-05-01T10:00:00.000Z'),
    ]);
    renderApp('/registries');
    const user = userEvent.setup();
    const open = await screen.findByRole('button', { name: 'Show the tags of shop/api' }, opts);
    open.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Tags of shop/api' }, opts);
    const rows = await within(dialog).findAllByTestId('tag-row', {}, opts);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('v2'),
      expect.stringContaining('v1'),
    ]);
    const short = within(rows[0]!).getByText('sha256:ab12cd34ef56');
    expect(short.getAttribute('title')).toBe(DIGEST);
    expect(within(dialog).getByTestId('image-reference').textContent).toBe('127.0.0.1:8080/ws-1/shop/api');

    // the delete button is live once the caller's permissions have loaded (slower under load)
    const remove = within(rows[1]!).getByRole<HTMLButtonElement>('button', { name: 'Delete tag v1' });
    await waitFor(() => expect(remove.disabled).toBe(false), opts);
    await user.click(remove);
    const confirm = await screen.findByRole('dialog', { name: 'Delete tag v1?' }, opts);
    expect(confirm.textContent).toContain('127.0.0.1:8080/ws-1/shop/api:v1');
    await user.click(within(confirm).getByRole('button', { name: 'Delete tag' }));
    await waitFor(() => expect(within(dialog).getAllByTestId('tag-row')).toHaveLength(1), opts);
    const deleted = requests.filter((r) => r.method === 'DELETE');
    expect(deleted).toHaveLength(1);
    expect(queries.some((q) => q.get('tag') === 'v1' && q.get('name') === 'shop/api')).toBe(true);
    // Escape closes the tags dialog once the confirmation has gone, from a control inside it
    // (under load, focus may not yet be back in it when the confirmation's exit ends)
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete tag v1?' })).toBeNull(), opts);
    // the tags dialog is accessible again (the confirmation's aria-hidden is lifted)
    const inside = await within(dialog).findAllByRole('button', {}, opts);
    inside[0]!.focus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Tags of shop/api' })).toBeNull(), opts);
  });

  it('offers no deletion to a viewer', async () => {
    ctx.peer.org.permissions.set(ctx.peer.sessions.get(ctx.token)!, viewer);
    registry.images = [image('web')];
    registry.tags.set('web', [tag('v1', '2025-05-01T10:00:00.000Z')]);
    renderApp('/registries');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show the tags of web' }, opts));
    const dialog = await screen.findByRole('dialog', { name: 'Tags of web' }, opts);
    const [row] = await within(dialog).findAllByTestId('tag-row', {}, opts);
    await waitFor(
      () =>
        expect(
          (within(row!).getByRole('button', { name: 'Delete tag v1' }) as HTMLButtonElement).disabled,
        ).toBe(true),
      opts,
    );
  });

  it('says so when the images cannot be loaded, and retries', async () => {
    registry.imagesStatus = 500;
    renderApp('/registries');
    const error = await screen.findByTestId('load-error', {}, opts);
    expect(error.textContent).toContain('The images could not be loaded.');
    registry.imagesStatus = null;
    registry.images = [image('web')];
    await userEvent.setup().click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByTestId('image-row', {}, opts)).toHaveLength(1);
  });
});
