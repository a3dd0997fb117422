import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTAL_COUNT_HEADER } from '@slipway/contracts';
import { expectAudited, joinAs, query } from '../members/team.test-helper.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';

describe('the Registries page’s view of Slipway’s registry (/api/registry)', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let viewer: TestUser;
  let pusher: string;
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux' }));
  const layer = Buffer.from('layer bytes '.repeat(100));
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: sha256(config),
        size: config.length,
      },
      layers: [
        { mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha256(layer), size: layer.length },
      ],
    }),
  );
  const index = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [{ mediaType: OCI_MANIFEST, digest: sha256(manifest), size: manifest.length }],
    }),
  );

  const basic = (token: string) => ({
    authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
  });
  const pushBlob = async (name: string, bytes: Buffer) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/v2/${name}/blobs/uploads/?digest=${sha256(bytes)}`,
      headers: { ...basic(pusher), 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  const putManifest = async (name: string, tag: string, bytes = manifest, type = OCI_MANIFEST) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v2/${name}/manifests/${tag}`,
      headers: { ...basic(pusher), 'content-type': type },
      payload: bytes,
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  const get = (url: string, who: TestUser = owner) =>
    t.app.inject({ method: 'GET', url, headers: who.headers });
  const tagsOf = (name: string, who: TestUser = owner) =>
    get(`/api/registry/images/tags?name=${encodeURIComponent(name)}`, who);
  const deleteTag = (name: string, tag: string, who: TestUser = owner) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/registry/images/tags?name=${encodeURIComponent(name)}&tag=${tag}`,
      headers: who.headers,
    });

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    viewer = await joinAs(t, owner, 'member', 'viewer');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/service-accounts',
      headers: owner.headers,
      payload: {
        name: 'builder',
        expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
        workspaces: [{ workspaceId: owner.workspaceId, role: 'developer' }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    pusher = (res.json() as { token: string }).token;

    // shop/api: v1, then v2 and an index over the same image; web: v1
    const api = `${owner.workspaceId}/shop/api`;
    await pushBlob(api, config);
    await pushBlob(api, layer);
    await putManifest(api, 'v1');
    await putManifest(api, 'v2');
    await putManifest(api, 'multi', index, OCI_INDEX);
    const web = `${owner.workspaceId}/web`;
    await pushBlob(web, config);
    await pushBlob(web, layer);
    await putManifest(web, 'v1');
    // pushed within the same millisecond or not, v1 is the oldest and multi the newest
    await query(
      t,
      sql`UPDATE registry_tags SET updated_at = CASE tag WHEN 'v1' THEN timestamptz '2025-05-01T10:00:00Z'
        WHEN 'v2' THEN timestamptz '2025-05-02T10:00:00Z' ELSE timestamptz '2025-05-03T10:00:00Z' END`,
    );
  });
  afterAll(() => t.close());

  it('describes the registry: host, the workspace’s prefix, plain HTTP, and how to log in', async () => {
    const res = await get('/api/registry');
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json() as { host: string; prefix: string; insecure: boolean; login: string };
    expect(info.prefix).toBe(`${info.host}/${owner.workspaceId}`);
    expect(info.insecure).toBe(true);
    expect(info.login).toBe(`buildah login --tls-verify=false -u x ${info.host}`);
  });

  it('lists the workspace’s images with their tags, sizes and full references, paged and sorted', async () => {
    const res = await get('/api/registry/images?_sort=name');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('2');
    const { host } = (await get('/api/registry')).json() as { host: string };
    const images = res.json() as Array<Record<string, unknown>>;
    expect(images.map((i) => i.name)).toEqual(['shop/api', 'web']);
    expect(images[0]).toMatchObject({
      reference: `${host}/${owner.workspaceId}/shop/api`,
      tagCount: 3,
      size: config.length + layer.length,
    });
    expect(typeof images[0]!.lastPushedAt).toBe('string');

    const sorted = (await get('/api/registry/images?_sort=tagCount&_order=desc&_start=0&_end=1')).json();
    expect((sorted as Array<{ name: string }>).map((i) => i.name)).toEqual(['shop/api']);
    const found = (await get('/api/registry/images?name=WE')).json() as Array<{ name: string }>;
    expect(found.map((i) => i.name)).toEqual(['web']);
  });

  it('lists one image’s tags newest first, with each manifest’s digest, kind and size', async () => {
    const res = await tagsOf('shop/api');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('3');
    expect(res.json()).toEqual([
      expect.objectContaining({ tag: 'multi', digest: sha256(index), mediaType: OCI_INDEX, size: null }),
      expect.objectContaining({
        tag: 'v2',
        digest: sha256(manifest),
        mediaType: OCI_MANIFEST,
        size: config.length + layer.length,
      }),
      expect.objectContaining({ tag: 'v1', digest: sha256(manifest) }),
    ]);
    const page = await get('/api/registry/images/tags?name=shop/api&_start=1&_end=2');
    expect((page.json() as Array<{ tag: string }>).map((r) => r.tag)).toEqual(['v2']);
  });

  it('shows another workspace none of them', async () => {
    const images = await get('/api/registry/images', stranger);
    expect(images.statusCode).toBe(200);
    expect(images.json()).toEqual([]);
    expect(images.headers[TOTAL_COUNT_HEADER.toLowerCase()]).toBe('0');
    expect((await tagsOf('shop/api', stranger)).statusCode).toBe(404);
    expect((await deleteTag('shop/api', 'v1', stranger)).statusCode).toBe(404);
    // naming the owner's workspace does not open it either
    const named = await t.app.inject({
      method: 'GET',
      url: '/api/registry/images',
      headers: { ...stranger.headers, 'x-workspace-id': owner.workspaceId },
    });
    expect(named.statusCode).toBe(404);
  });

  it('answers 404 for an unknown image or tag and 400 naming the field for bad input', async () => {
    expect((await tagsOf('nothing-here')).statusCode).toBe(404);
    expect((await deleteTag('web', 'v9')).statusCode).toBe(404);
    const noName = await get('/api/registry/images/tags');
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toContain('querystring.name');
    const badName = await tagsOf('Shop/API');
    expect(badName.statusCode).toBe(400);
    expect(badName.json().message).toContain('querystring.name');
    const badTag = await deleteTag('web', '-nope');
    expect(badTag.statusCode).toBe(400);
    expect(badTag.json().message).toContain('querystring.tag');
    const badSort = await get('/api/registry/images?_sort=digest');
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().message).toContain('querystring._sort');
  });

  it('lets a viewer look but not delete a tag', async () => {
    expect((await get('/api/registry/images', viewer)).statusCode).toBe(200);
    expect((await tagsOf('web', viewer)).statusCode).toBe(200);
    const denied = await deleteTag('web', 'v1', viewer);
    expect(denied.statusCode).toBe(403);
    expect((await tagsOf('web')).json()).toHaveLength(1);
  });

  it('deletes a tag, keeps the manifest by its digest, and audits it as the registry’s deletions', async () => {
    const res = await deleteTag('shop/api', 'v1');
    expect(res.statusCode, res.body).toBe(204);
    const tags = (await tagsOf('shop/api')).json() as Array<{ tag: string }>;
    expect(tags.map((r) => r.tag)).toEqual(['multi', 'v2']);
    const byDigest = await t.app.inject({
      method: 'HEAD',
      url: `/v2/${owner.workspaceId}/shop/api/manifests/${sha256(manifest)}`,
      headers: basic(pusher),
    });
    expect(byDigest.statusCode).toBe(200);
    await expectAudited(t, 'registry.delete', {
      outcome: 'success',
      target_type: 'image',
      target_id: `${owner.workspaceId}/shop/api`,
      actor_id: owner.userId,
    });
    const [row] = await query(
      t,
      sql`SELECT detail FROM audit_events WHERE action = 'registry.delete' AND outcome = 'success'`,
    );
    expect(row!.detail).toEqual({ repository: 'shop/api', tag: 'v1', digest: sha256(manifest) });
    expect((await deleteTag('shop/api', 'v1')).statusCode).toBe(404);
  });
});
