import { describe, expect, it } from 'vitest';
import type { PipelineListQuery } from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { Keys } from '../../platform/keys.js';
import { FakeSecretsStore } from './fake-secrets-store.js';
import { SecretReader } from './secret-reader.js';
import { SECRET_NAME_TAKEN, SecretsService } from './secrets-service.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const query = (q: Partial<PipelineListQuery> = {}): PipelineListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

function setup() {
  const store = new FakeSecretsStore();
  const keys = new Keys(Buffer.alloc(32, 7));
  return { store, keys, service: new SecretsService(store, keys), reader: new SecretReader(store, keys) };
}

describe('SecretsService over the fake store', () => {
  it('creates a secret that names its keys, seals its values and applies the defaults', async () => {
    const { service, store, reader } = setup();
    const secret = await service.create(
      WS,
      { name: 'git', values: { user: 'u', token: 'plain-token-value-0001' } },
      'user-1',
    );
    expect(secret).toMatchObject({
      name: 'git',
      description: '',
      type: 'generic',
      global: true,
      keys: ['token', 'user'],
    });
    const row = await store.get(WS, secret.id);
    // a value long enough that a random ciphertext cannot hold it by chance
    expect(JSON.stringify(row?.valuesEncrypted)).not.toContain('plain-token-value-0001');
    expect(await reader.value(WS, 'git', 'token')).toBe('plain-token-value-0001');
  });

  it('a single value is stored under the key "value"', async () => {
    const { service, reader } = setup();
    const secret = await service.create(WS, { name: 'one', value: 'v1' }, null);
    expect(secret.keys).toEqual(['value']);
    expect(await reader.values(WS, 'one')).toEqual({ value: 'v1' });
  });

  it('refuses a second secret of the same name in a workspace, not in another workspace', async () => {
    const { service } = setup();
    await service.create(WS, { name: 'dup', value: 'x' }, null);
    await expect(service.create(WS, { name: 'dup', value: 'y' }, null)).rejects.toThrow(
      new ConflictError(SECRET_NAME_TAKEN),
    );
    await expect(service.create(OTHER, { name: 'dup', value: 'y' }, null)).resolves.toMatchObject({
      name: 'dup',
    });
  });

  it('answers 409 when the unique index refuses a name the check missed (a race)', async () => {
    const { store, keys } = setup();
    const service = new SecretsService(store, keys);
    await service.create(WS, { name: 'raced', value: 'x' }, null);
    store.nameTaken = async () => false;
    await expect(service.create(WS, { name: 'raced', value: 'y' }, null)).rejects.toBeInstanceOf(
      ConflictError,
    );
    const other = await service.create(WS, { name: 'other', value: 'z' }, null);
    await expect(service.update(WS, other.id, { name: 'raced' })).rejects.toThrow(SECRET_NAME_TAKEN);
  });

  it('updates keys: new values, null removes, omitted keys stay; refuses to remove the last one', async () => {
    const { service, reader } = setup();
    const s = await service.create(WS, { name: 's', values: { a: '1', b: '2' } }, null);
    const updated = await service.update(WS, s.id, { values: { a: '10', b: null, c: '3' } });
    expect(updated.keys).toEqual(['a', 'c']);
    expect(await reader.values(WS, 's')).toEqual({ a: '10', c: '3' });
    const err = await service.update(WS, s.id, { values: { a: null, c: null } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({
      message: 'values: a secret needs at least one value',
      details: [{ path: 'body.values', message: 'a secret needs at least one value' }],
    });
    expect(await reader.values(WS, 's')).toEqual({ a: '10', c: '3' });
  });

  it('renames only to a free name; keeping its own name is no conflict', async () => {
    const { service } = setup();
    const a = await service.create(WS, { name: 'a', value: '1' }, null);
    await service.create(WS, { name: 'b', value: '2' }, null);
    await expect(service.update(WS, a.id, { name: 'b' })).rejects.toThrow(
      new ConflictError(SECRET_NAME_TAKEN),
    );
    await expect(service.update(WS, a.id, { name: 'a', description: 'same' })).resolves.toMatchObject({
      name: 'a',
      description: 'same',
    });
  });

  it("never shows, changes or deletes another workspace's secret", async () => {
    const { service } = setup();
    const theirs = await service.create(OTHER, { name: 'theirs', value: 'x' }, null);
    const notFound = new NotFoundError('Secret not found');
    await expect(service.get(WS, theirs.id)).rejects.toThrow(notFound);
    await expect(service.update(WS, theirs.id, { description: 'mine now' })).rejects.toThrow(notFound);
    await expect(service.remove(WS, theirs.id)).rejects.toThrow(notFound);
    expect((await service.list(WS, query())).total).toBe(0);
    await expect(service.get(OTHER, theirs.id)).resolves.toMatchObject({ description: '' });
  });

  it('removes a secret', async () => {
    const { service } = setup();
    const s = await service.create(WS, { name: 'gone', value: 'x' }, null);
    await service.remove(WS, s.id);
    await expect(service.get(WS, s.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists a page sorted and filtered by name, with the total of all pages', async () => {
    const { service } = setup();
    for (const name of ['delta', 'alpha', 'charlie', 'bravo', 'alphabet'])
      await service.create(WS, { name, value: 'x' }, null);
    const page = await service.list(WS, query({ _start: 1, _end: 3 }));
    expect(page.rows.map((s) => s.name)).toEqual(['alphabet', 'bravo']);
    expect(page.total).toBe(5);
    const desc = await service.list(WS, query({ _order: 'DESC', _end: 2 }));
    expect(desc.rows.map((s) => s.name)).toEqual(['delta', 'charlie']);
    const found = await service.list(WS, query({ name: 'ALPHA' }));
    expect(found.rows.map((s) => s.name)).toEqual(['alpha', 'alphabet']);
    expect(found.total).toBe(2);
  });

  it('the reader names the missing secret or key', async () => {
    const { service, reader } = setup();
    await service.create(WS, { name: 'db', values: { password: 'pw' } }, null);
    await expect(reader.value(WS, 'db', 'user')).rejects.toThrow('Secret "db" has no key "user"');
    await expect(reader.value(WS, 'nope', 'user')).rejects.toThrow('Secret "nope" (key "user") not found');
    await expect(reader.value(OTHER, 'db', 'password')).rejects.toBeInstanceOf(NotFoundError);
    expect(await reader.values(OTHER, 'db')).toBeNull();
  });
});
