import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PipelineListQuery } from '@slipway/contracts';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakePipelinesStore } from '../pipeline-catalogue/fake-pipelines-store.js';
import { SqlPipelinesStore as SqlPipelinesStore } from '../pipeline-catalogue/pipelines-store.js';
import type { PipelinesStore } from '../pipeline-catalogue/pipelines-store-type.js';
import { SqlExternalPipelinesStore as SqlExternalPipelinesStore } from './external-pipelines-store.js';
import type { ExternalPipelinesStore } from './external-pipelines-store-type.js';
import { FakeExternalPipelinesStore } from './fake-external-pipelines-store.js';

/** The same cases over the fakes and the SQL stores (decision 030): the pipelines that have a source. */
const database = contractDatabase();
const implementations: [string, () => { store: ExternalPipelinesStore; pipelines: PipelinesStore }][] = [
  [
    'fakes',
    () => {
      const pipelines = new FakePipelinesStore();
      return { store: new FakeExternalPipelinesStore(pipelines), pipelines };
    },
  ],
  [
    'SQL',
    () => ({
      store: new SqlExternalPipelinesStore(database.db()),
      pipelines: new SqlPipelinesStore(database.db()),
    }),
  ],
];
const query = (q: Partial<PipelineListQuery> = {}): PipelineListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});
const source = {
  kind: 'git',
  url: 'https://git.example.com/r.git',
  revision: 'main',
  path: 'p.yaml',
  secret: null,
};

describe.each(implementations)('ExternalPipelinesStore contract: %s', (_name, make) => {
  let s: { store: ExternalPipelinesStore; pipelines: PipelinesStore };
  let ws: string;
  let other: string;
  const ids: Record<string, string> = {};
  const add = async (
    name: string,
    extra: { source?: object | null; kind?: 'pipeline' | 'template' } = {},
  ) => {
    ids[name] = randomUUID();
    await s.pipelines.create(
      { id: ids[name], workspaceId: ws, name, ...extra },
      { definition: 'd', format: 'yaml', createdBy: null },
    );
  };

  beforeAll(async () => {
    s = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
    await add('ext-b', { source });
    await add('ext-a', { source });
    await add('own');
    await add('tpl', { source, kind: 'template' });
  });

  it('lists and reads only the workspace’s pipelines with a source', async () => {
    const { rows, total } = await s.store.list(ws, query());
    expect(rows.map((r) => r.name)).toEqual(['ext-a', 'ext-b']);
    expect(total).toBe(2);
    expect(await s.store.get(ws, ids['ext-a']!)).toMatchObject({ source });
    expect(await s.store.get(ws, ids.own!)).toBeNull();
    expect(await s.store.get(ws, ids.tpl!)).toBeNull();
    expect(await s.store.get(other, ids['ext-a']!)).toBeNull();
    expect((await s.store.list(ws, query({ name: 'B', _order: 'DESC' }))).rows.map((r) => r.name)).toEqual([
      'ext-b',
    ]);
  });

  it('a failed sync keeps its error and touches nothing else', async () => {
    const before = (await s.store.get(ws, ids['ext-a']!))!;
    await s.store.recordSyncError(ids['ext-a']!, 'the repository could not be read');
    const after = (await s.store.get(ws, ids['ext-a']!))!;
    expect(after.syncError).toBe('the repository could not be read');
    expect(after.currentVersion).toBe(before.currentVersion);
    expect(after.lastSyncedAt).toEqual(before.lastSyncedAt);
    expect(after.updatedAt).toEqual(before.updatedAt);
  });
});
