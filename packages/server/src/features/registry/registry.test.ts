import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { buildahAvailable, buildahRequired } from '../../test-support/oci-registry.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

const run = promisify(execFile);
const sha256 = (b: Buffer | string) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

describe('the registry Slipway serves at /v2/', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let base: string;
  let host: string;
  let pusher: string;
  let reader: string;
  let strangerToken: string;
  let scratch: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    host = `127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    base = `http://${host}`;
    scratch = mkdtempSync(path.join(tmpdir(), 'slipway-registry-client-'));
    const account = async (who: TestUser, name: string, role: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/service-accounts',
        headers: who.headers,
        payload: {
          name,
          expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          workspaces: [{ workspaceId: who.workspaceId, role }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { token: string }).token;
    };
    pusher = await account(owner, 'builder', 'developer');
    reader = await account(owner, 'puller', 'viewer');
    strangerToken = await account(stranger, 'elsewhere', 'project_admin');
  });
  afterAll(async () => {
    await t.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const basic = (token: string) => ({
    authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
  });
  const v2 = (p: string, token: string | null, init: RequestInit = {}) =>
    fetch(`${base}/v2/${p}`, {
      ...init,
      headers: { ...(token ? basic(token) : {}), ...(init.headers as Record<string, string>) },
    });
  const errorCode = async (res: Response) =>
    ((await res.json()) as { errors: Array<{ code: string }> }).errors[0]!.code;

  /** A blob pushed the monolithic way: POST with the digest and the bytes. */
  const pushBlob = async (name: string, bytes: Buffer, token = pusher) => {
    const res = await v2(`${name}/blobs/uploads/?digest=${sha256(bytes)}`, token, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return sha256(bytes);
  };
  const imageManifest = (config: Buffer, layers: Buffer[]) =>
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: OCI_MANIFEST,
        config: {
          mediaType: 'application/vnd.oci.image.config.v1+json',
          digest: sha256(config),
          size: config.length,
        },
        layers: layers.map((l) => ({
          mediaType: 'application/vnd.oci.image.layer.v1.tar',
          digest: sha256(l),
          size: l.length,
        })),
      }),
    );

  it('asks for credentials at /v2/ and answers a service account token', async () => {
    const anonymous = await v2('', null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect(await errorCode(anonymous)).toBe('UNAUTHORIZED');
    expect((await v2('', 'slw_sa_forged')).status).toBe(401);
    const ok = await v2('', reader);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('docker-distribution-api-version')).toBe('registry/2.0');
  });

  it('takes blobs in chunks, checks every digest, and stores a manifest that names only what it holds', async () => {
    const name = `${owner.workspaceId}/shop/api`;
    const layer = Buffer.from('layer bytes '.repeat(1000));
    const start = await v2(`${name}/blobs/uploads/`, pusher, { method: 'POST' });
    expect(start.status).toBe(202);
    const location = start.headers.get('location')!;
    const first = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: { ...basic(pusher), 'content-type': 'application/octet-stream', 'content-range': `0-4999` },
      body: layer.subarray(0, 5000),
    });
    expect(first.status).toBe(202);
    expect(first.headers.get('range')).toBe('0-4999');
    const out = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: { ...basic(pusher), 'content-range': '0-10' },
      body: Buffer.from('x'),
    });
    expect(out.status).toBe(416);
    const wrong = await fetch(`${base}${location}?digest=${sha256('not this')}`, {
      method: 'PUT',
      headers: basic(pusher),
      body: layer.subarray(5000),
    });
    expect(wrong.status).toBe(400);
    expect(await errorCode(wrong)).toBe('DIGEST_INVALID');

    const again = await v2(`${name}/blobs/uploads/`, pusher, { method: 'POST' });
    const at = again.headers.get('location')!;
    await fetch(`${base}${at}`, { method: 'PATCH', headers: basic(pusher), body: layer.subarray(0, 7000) });
    const done = await fetch(`${base}${at}?digest=${sha256(layer)}`, {
      method: 'PUT',
      headers: basic(pusher),
      body: layer.subarray(7000),
    });
    expect(done.status).toBe(201);
    expect(done.headers.get('docker-content-digest')).toBe(sha256(layer));

    const config = Buffer.from(
      JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] } }),
    );
    const unknown = await v2(`${name}/manifests/v1`, pusher, {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: imageManifest(config, [layer]),
    });
    expect(unknown.status).toBe(400);
    expect(await errorCode(unknown)).toBe('MANIFEST_BLOB_UNKNOWN');
    await pushBlob(name, config);
    const manifest = imageManifest(config, [layer]);
    const put = await v2(`${name}/manifests/v1`, pusher, {
      method: 'PUT',
      headers: { 'content-type': OCI_MANIFEST },
      body: manifest,
    });
    expect(put.status).toBe(201);
    expect(put.headers.get('docker-content-digest')).toBe(sha256(manifest));

    const got = await v2(`${name}/manifests/v1`, reader, { headers: { accept: OCI_MANIFEST } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe(OCI_MANIFEST);
    expect(Buffer.from(await got.arrayBuffer()).equals(manifest)).toBe(true);
    const blob = await v2(`${name}/blobs/${sha256(layer)}`, reader);
    expect(sha256(Buffer.from(await blob.arrayBuffer()))).toBe(sha256(layer));
    const head = await v2(`${name}/blobs/${sha256(layer)}`, reader, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(layer.length));

    const audit = (await t.db.database.db.execute(
      sql`SELECT actor_label, target_id, detail FROM audit_events WHERE action = 'registry.push'`,
    )) as unknown as { rows: Array<Record<string, unknown>> };
    expect(audit.rows).toContainEqual({
      actor_label: 'builder',
      target_id: name,
      detail: { repository: 'shop/api', tag: 'v1', digest: sha256(manifest) },
    });
  });

  it('keeps workspaces apart: no pull, push or mount across them, and a viewer cannot push', async () => {
    const mine = `${owner.workspaceId}/private`;
    const secret = Buffer.from('tenant secret layer');
    await pushBlob(mine, secret);
    // the stranger's token does not open this workspace, and the stranger's own repository does
    // not hold the blob even though the bytes are stored once
    const theirs = await v2(`${mine}/blobs/${sha256(secret)}`, strangerToken);
    expect(theirs.status).toBe(404);
    expect(await errorCode(theirs)).toBe('NAME_UNKNOWN');
    const own = `${stranger.workspaceId}/grab`;
    await pushBlob(own, Buffer.from('something'), strangerToken);
    expect((await v2(`${own}/blobs/${sha256(secret)}`, strangerToken)).status).toBe(404);
    const mount = await v2(`${own}/blobs/uploads/?mount=${sha256(secret)}&from=${mine}`, strangerToken, {
      method: 'POST',
    });
    expect(mount.status).toBe(202); // not mounted: an ordinary upload starts instead
    expect((await v2(`${own}/blobs/${sha256(secret)}`, strangerToken)).status).toBe(404);

    // within a workspace a mount links the blob without its bytes
    const mounted = await v2(
      `${owner.workspaceId}/other/blobs/uploads/?mount=${sha256(secret)}&from=${mine}`,
      pusher,
      {
        method: 'POST',
      },
    );
    expect(mounted.status).toBe(201);

    const denied = await v2(`${mine}/blobs/uploads/`, reader, { method: 'POST' });
    expect(denied.status).toBe(403);
    expect(await errorCode(denied)).toBe('DENIED');
    expect((await v2(`${mine}/blobs/uploads/`, null, { method: 'POST' })).status).toBe(401);
    const bad = await v2(`${owner.workspaceId}/Has-Capitals/blobs/uploads/`, pusher, { method: 'POST' });
    expect(await errorCode(bad)).toBe('NAME_INVALID');
  });

  it('lists tags in pages and deletes a manifest by digest with its tags', async () => {
    const name = `${owner.workspaceId}/tagged`;
    const config = Buffer.from('{"os":"linux"}');
    await pushBlob(name, config);
    const manifest = imageManifest(config, []);
    for (const tag of ['a', 'b', 'c']) {
      const res = await v2(`${name}/manifests/${tag}`, pusher, {
        method: 'PUT',
        headers: { 'content-type': OCI_MANIFEST },
        body: manifest,
      });
      expect(res.status).toBe(201);
    }
    const page = await v2(`${name}/tags/list?n=2`, reader);
    expect(await page.json()).toEqual({ name, tags: ['a', 'b'] });
    expect(page.headers.get('link')).toContain('last=b');
    expect(await (await v2(`${name}/tags/list?n=2&last=b`, reader)).json()).toEqual({ name, tags: ['c'] });
    expect((await v2(`${name}/manifests/${sha256(manifest)}`, pusher, { method: 'DELETE' })).status).toBe(
      403,
    );
    const admin = await t.app.inject({
      method: 'POST',
      url: '/api/service-accounts',
      headers: owner.headers,
      payload: {
        name: 'cleaner',
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        workspaces: [{ workspaceId: owner.workspaceId, role: 'project_admin' }],
      },
    });
    const cleaner = (admin.json() as { token: string }).token;
    const byTag = await v2(`${name}/manifests/a`, cleaner, { method: 'DELETE' });
    expect(byTag.status, await byTag.clone().text()).toBe(400);
    expect((await v2(`${name}/manifests/${sha256(manifest)}`, cleaner, { method: 'DELETE' })).status).toBe(
      202,
    );
    expect((await v2(`${name}/manifests/a`, reader)).status).toBe(404);
    expect(await (await v2(`${name}/tags/list`, reader)).json()).toEqual({ name, tags: [] });
  });

  it('refuses a manifest that is not JSON, of another kind, or put at a digest it does not have', async () => {
    const name = `${owner.workspaceId}/strict`;
    const put = (ref: string, body: string, type = OCI_MANIFEST) =>
      v2(`${name}/manifests/${ref}`, pusher, { method: 'PUT', headers: { 'content-type': type }, body });
    expect(await errorCode(await put('x', 'not json'))).toBe('MANIFEST_INVALID');
    expect(await errorCode(await put('x', '{"schemaVersion":1}'))).toBe('MANIFEST_INVALID');
    expect(await errorCode(await put(sha256('other'), '{"schemaVersion":2,"config":{}}'))).toBe(
      'DIGEST_INVALID',
    );
    expect(await errorCode(await put('bad tag!', '{}'))).toBe('TAG_INVALID');
  });

  describe.skipIf(!buildahAvailable && !buildahRequired)('with the real buildah', () => {
    const buildah = (...args: string[]) =>
      run(
        'buildah',
        [
          '--storage-driver',
          'vfs',
          '--root',
          path.join(scratch, 'root'),
          '--runroot',
          path.join(scratch, 'run'),
          ...args,
        ],
        {
          env: { ...process.env, BUILDAH_ISOLATION: 'chroot', HOME: scratch },
        },
      );

    it('pushes an image buildah built and pulls it back', async () => {
      const context = path.join(scratch, 'context');
      rmSync(context, { recursive: true, force: true });
      await run('mkdir', ['-p', context]);
      writeFileSync(path.join(context, 'Containerfile'), 'FROM scratch\nCOPY hello.txt /hello.txt\n');
      writeFileSync(path.join(context, 'hello.txt'), 'hello from the slipway registry\n');
      await buildah('bud', '--isolation', 'chroot', '-t', 'slipway-test/hello', context);
      const ref = `${host}/${owner.workspaceId}/hello:v1`;
      await buildah(
        'push',
        '--tls-verify=false',
        '--creds',
        `x:${pusher}`,
        'slipway-test/hello',
        `docker://${ref}`,
      );
      const tags = await v2(`${owner.workspaceId}/hello/tags/list`, reader);
      expect(await tags.json()).toEqual({ name: `${owner.workspaceId}/hello`, tags: ['v1'] });

      await buildah('rmi', '--all', '--force');
      await buildah('pull', '--tls-verify=false', '--creds', `x:${reader}`, `docker://${ref}`);
      const { stdout } = await buildah('images', '--format', '{{.Name}}:{{.Tag}}');
      expect(stdout).toContain(`${host}/${owner.workspaceId}/hello:v1`);
      await buildah('rmi', '--all', '--force');
      await expect(
        buildah('pull', '--tls-verify=false', '--creds', `x:${strangerToken}`, `docker://${ref}`),
      ).rejects.toThrow();
    }, 120_000);
  });
});
