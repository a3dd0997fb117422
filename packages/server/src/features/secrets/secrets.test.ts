import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TOTAL_COUNT_HEADER,
  VARIABLE_NAME_RULE_MESSAGE,
  type Secret,
  type Variable,
} from '@slipway/contracts';
import { Keys, loadMasterKey } from '../../platform/keys.js';
import { secrets } from '../../platform/database/schema.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { memberOf } from '../pipeline-catalogue/catalogue-test-helpers.js';
import { SecretReader } from './secret-reader.js';
import { SqlSecretsStore } from './secrets-store.js';

const TOKEN = 'ghp_SuperSecretValue_1234567890';

describe('secrets and variables', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let reader: SecretReader;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    const keys = new Keys(loadMasterKey(t.config.masterKey, t.config.dataDir));
    reader = new SecretReader(new SqlSecretsStore(t.db.database.db), keys);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('creates a secret and never returns its value, nor stores it in plain text', async () => {
    const res = await call('POST', '/api/secrets', owner, {
      name: 'git-token',
      description: 'GitHub',
      type: 'git',
      values: { token: TOKEN, user: 'octo-user-name' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).not.toContain(TOKEN);
    const secret = res.json() as Secret;
    expect(secret).toMatchObject({ name: 'git-token', type: 'git', global: true, keys: ['token', 'user'] });
    for (const url of ['/api/secrets', `/api/secrets/${secret.id}`]) {
      const got = await call('GET', url, owner);
      expect(got.statusCode).toBe(200);
      expect(got.body).not.toContain(TOKEN);
      expect(got.body).not.toContain('octo-user-name');
    }
    const [row] = await t.db.database.db.select().from(secrets).where(eq(secrets.id, secret.id));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain('octo-user-name');
    expect(await reader.value(owner.workspaceId, 'git-token', 'token')).toBe(TOKEN);
  });

  it('accepts a single value, lists with X-Total-Count, and refuses duplicates', async () => {
    const res = await call('POST', '/api/secrets', owner, { name: 'single', value: 's3cr3t-single' });
    expect(res.json()).toMatchObject({ keys: ['value'] });
    expect(await reader.value(owner.workspaceId, 'single', 'value')).toBe('s3cr3t-single');
    expect((await call('POST', '/api/secrets', owner, { name: 'single', value: 'x' })).statusCode).toBe(409);
    expect((await call('POST', '/api/secrets', owner, { name: 'empty' })).statusCode).toBe(400);
    expect((await call('POST', '/api/secrets', owner, { name: 'Bad Name', value: 'x' })).statusCode).toBe(
      400,
    );
    const list = await call('GET', '/api/secrets', owner);
    expect(Number(list.headers[TOTAL_COUNT_HEADER.toLowerCase()])).toBeGreaterThanOrEqual(2);
  });

  it('replaces given values and keeps omitted ones', async () => {
    const { id } = (
      await call('POST', '/api/secrets', owner, {
        name: 'registry',
        values: { username: 'u1', password: 'p1' },
      })
    ).json() as Secret;
    const res = await call('PUT', `/api/secrets/${id}`, owner, {
      values: { password: 'p2' },
      description: 'd',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('p2');
    expect(res.json()).toMatchObject({ keys: ['password', 'username'], description: 'd' });
    expect(await reader.value(owner.workspaceId, 'registry', 'password')).toBe('p2');
    expect(await reader.value(owner.workspaceId, 'registry', 'username')).toBe('u1');
    expect(await reader.values(owner.workspaceId, 'registry')).toEqual({ username: 'u1', password: 'p2' });
  });

  it('SecretReader names the secret and key that are missing', async () => {
    await expect(reader.value(owner.workspaceId, 'nope', 'token')).rejects.toThrow(
      'Secret "nope" (key "token") not found',
    );
    await expect(reader.value(owner.workspaceId, 'git-token', 'nokey')).rejects.toThrow(
      'Secret "git-token" has no key "nokey"',
    );
    await expect(reader.value(stranger.workspaceId, 'git-token', 'token')).rejects.toThrow('not found');
  });

  it('hides other workspaces, forbids viewers to create, and deletes', async () => {
    const { id } = (
      await call('POST', '/api/secrets', owner, { name: 'to-delete', value: 'v' })
    ).json() as Secret;
    expect((await call('GET', `/api/secrets/${id}`, stranger)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/secrets/${id}`, stranger)).statusCode).toBe(404);
    const viewer = await memberOf(t.app, t.db.database, owner, 'viewer');
    expect((await call('POST', '/api/secrets', viewer, { name: 'viewer-one', value: 'v' })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/api/secrets/${id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/secrets/${id}`, owner)).statusCode).toBe(404);
  });

  it('manages variables with the env-var name rule', async () => {
    const bad = await call('POST', '/api/variables', owner, { name: '1BAD-NAME', value: 'x' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { message: string }).message).toContain(VARIABLE_NAME_RULE_MESSAGE);
    const res = await call('POST', '/api/variables', owner, { name: 'DEPLOY_ENV', value: 'staging' });
    expect(res.statusCode, res.body).toBe(201);
    const variable = res.json() as Variable;
    expect(variable).toMatchObject({ name: 'DEPLOY_ENV', value: 'staging', description: '' });
    expect((await call('POST', '/api/variables', owner, { name: 'DEPLOY_ENV', value: 'y' })).statusCode).toBe(
      409,
    );
    const updated = await call('PUT', `/api/variables/${variable.id}`, owner, { value: 'production' });
    expect(updated.json()).toMatchObject({ value: 'production' });
    expect(((await call('GET', '/api/variables', owner)).json() as Variable[]).map((v) => v.name)).toEqual([
      'DEPLOY_ENV',
    ]);
    expect((await call('GET', `/api/variables/${variable.id}`, stranger)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/variables/${variable.id}`, owner)).statusCode).toBe(204);
  });
});
