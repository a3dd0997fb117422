import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApplicationListQuery } from '@slipway/contracts';
import { environments, repositories } from '../../platform/database/schema.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation, seedPipeline } from '../../test-support/store-contract.js';
import { SqlApplicationsStore } from './applications-store.js';
import type { ApplicationsStore } from './applications-store-type.js';
import { FakeApplicationsStore } from './fake-applications-store.js';

/** The same cases over the fake and the SQL store (decision 030); the rows they point at are made in both. */
const database = contractDatabase();
let ws: string;
let other: string;
const ids = {
  dev: randomUUID(),
  prod: randomUUID(),
  theirs: randomUUID(),
  repo: randomUUID(),
  pipeline: randomUUID(),
};

beforeAll(async () => {
  const db = database.db();
  [ws, other] = (await seedOrganisation(db)).workspaceIds;
  await db.insert(environments).values([
    { id: ids.dev, workspaceId: ws, name: 'development', type: 'development' },
    { id: ids.prod, workspaceId: ws, name: 'production', type: 'production' },
    { id: ids.theirs, workspaceId: other, name: 'theirs', type: 'other' },
  ]);
  await db.insert(repositories).values({ id: ids.repo, workspaceId: ws, name: 'orders', kind: 'hosted' });
  await seedPipeline(db, { id: ids.pipeline, workspaceId: ws, name: 'build' });
});

const implementations: [string, () => ApplicationsStore][] = [
  [
    'fake',
    () => {
      const fake = new FakeApplicationsStore();
      fake.environmentNames.set(ids.dev, { workspaceId: ws, name: 'development' });
      fake.environmentNames.set(ids.prod, { workspaceId: ws, name: 'production' });
      fake.environmentNames.set(ids.theirs, { workspaceId: other, name: 'theirs' });
      fake.repositories.set(ids.repo, { workspaceId: ws, name: 'orders', kind: 'hosted', url: null });
      fake.pipelines.set(ids.pipeline, { workspaceId: ws, name: 'build' });
      return fake;
    },
  ],
  ['SQL', () => new SqlApplicationsStore(database.db())],
];
const query = (q: Partial<ApplicationListQuery> = {}): ApplicationListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

describe.each(implementations)('ApplicationsStore contract: %s', (_name, make) => {
  let store: ApplicationsStore;
  const add = async (name: string, environmentIds: string[], extra: object = {}) => {
    const id = randomUUID();
    await store.insert(
      {
        id,
        workspaceId: ws,
        name,
        image: `r.example/${name}`,
        serviceType: 'ClusterIP',
        port: 80,
        namespace: 'shop',
        ...extra,
      },
      environmentIds,
    );
    return id;
  };

  beforeAll(() => {
    store = make();
  });

  it('reads back with its repository’s and pipeline’s names, in its workspace only', async () => {
    const prefix = _name.toLowerCase();
    const id = await add(`${prefix}-orders`, [ids.dev], { repositoryId: ids.repo, pipelineId: ids.pipeline });
    expect(await store.get(ws, id)).toMatchObject({
      branch: 'main',
      repositoryName: 'orders',
      repositoryKind: 'hosted',
      pipelineName: 'build',
    });
    expect(await store.get(other, id)).toBeNull();
    expect(isUniqueViolation(await add(`${prefix}-orders`, []).catch((e: unknown) => e))).toBe(true);
    expect((await store.byRepository(ids.repo)).map((a) => a.id)).toContain(id);
  });

  it('lists by name and by environment, and replaces the environments on update', async () => {
    const prefix = `${_name.toLowerCase()}-env`;
    const a = await add(`${prefix}-a`, [ids.dev, ids.prod]);
    await add(`${prefix}-b`, [ids.dev]);
    const named = await store.list(ws, query({ name: prefix.toUpperCase() }));
    expect(named.rows.map((r) => r.name)).toEqual([`${prefix}-a`, `${prefix}-b`]);
    const inProd = await store.list(ws, query({ name: prefix, environmentId: ids.prod }));
    expect(inProd.rows.map((r) => r.name)).toEqual([`${prefix}-a`]);
    expect((await store.environments([a])).map((e) => e.environmentName)).toEqual([
      'development',
      'production',
    ]);
    await store.update(a, { port: 81 }, [ids.prod]);
    expect((await store.environments([a])).map((e) => e.environmentName)).toEqual(['production']);
    expect((await store.get(ws, a))?.port).toBe(81);
    await store.delete(a);
    expect(await store.get(ws, a)).toBeNull();
    expect(await store.environments([a])).toEqual([]);
  });

  it('says which ids are the workspace’s own', async () => {
    expect([...(await store.existing(ws, 'environment', [ids.dev, ids.theirs]))]).toEqual([ids.dev]);
    expect([...(await store.existing(ws, 'repository', [ids.repo, 'nope']))]).toEqual([ids.repo]);
    expect([...(await store.existing(other, 'pipeline', [ids.pipeline]))]).toEqual([]);
  });
});
