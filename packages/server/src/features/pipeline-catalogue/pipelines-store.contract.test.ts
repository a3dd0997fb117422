import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PipelineListQuery } from '@slipway/contracts';
import { pipelineRuns } from '../../platform/database/schema.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { FakePipelinesStore } from './fake-pipelines-store.js';
import { SqlPipelinesStore as SqlPipelinesStore } from './pipelines-store.js';
import type { PipelinesStore } from './pipelines-store-type.js';

/** The same cases over the fake and the SQL store (decision 030); a run is started and ended as the engine would. */
const database = contractDatabase();
interface Subject {
  store: PipelinesStore;
  startRun(workspaceId: string, pipelineId: string): Promise<void>;
  endRun(pipelineId: string): Promise<void>;
}
const implementations: [string, () => Subject][] = [
  [
    'fake',
    () => {
      const store = new FakePipelinesStore();
      return {
        store,
        startRun: async (_ws, id) => store.startRun(id),
        endRun: async (id) => store.endRun(id),
      };
    },
  ],
  [
    'SQL',
    () => ({
      store: new SqlPipelinesStore(database.db()),
      startRun: async (workspaceId, pipelineId) => {
        await database
          .db()
          .insert(pipelineRuns)
          .values({
            id: randomUUID(),
            workspaceId,
            pipelineId,
            pipelineVersion: 1,
            number: 1,
            name: 'run',
            status: 'in_progress',
            timeoutMs: 60_000,
            trigger: { kind: 'manual' },
          });
      },
      endRun: async (pipelineId) => {
        await database
          .db()
          .update(pipelineRuns)
          .set({ status: 'succeeded' })
          .where(eq(pipelineRuns.pipelineId, pipelineId));
      },
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
const v = (definition: string) => ({ definition, format: 'yaml', createdBy: 'u1' });

describe.each(implementations)('PipelinesStore contract: %s', (_name, make) => {
  let s: Subject;
  let ws: string;
  let other: string;
  const add = async (workspaceId: string, name: string, kind: 'pipeline' | 'template' = 'pipeline') => {
    const id = randomUUID();
    await s.store.create({ id, workspaceId, kind, name }, v(`def of ${name}`));
    return id;
  };

  beforeAll(async () => {
    s = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
  });

  it('creates at version 1 with the defaults, read by workspace and kind', async () => {
    const id = await add(ws, 'Build');
    expect(await s.store.get(ws, 'pipeline', id)).toMatchObject({
      currentVersion: 1,
      description: '',
      source: null,
      syncError: null,
    });
    expect(await s.store.get(ws, 'template', id)).toBeNull();
    expect(await s.store.get(other, 'pipeline', id)).toBeNull();
    expect((await s.store.versions(id)).map((x) => [x.version, x.definition, x.createdBy])).toEqual([
      [1, 'def of Build', 'u1'],
    ]);
  });

  it('nameTaken ignores case; the unique index compares exactly, per kind', async () => {
    expect(await s.store.nameTaken(ws, 'pipeline', 'build')).toBe(true);
    expect(await s.store.nameTaken(ws, 'template', 'build')).toBe(false);
    expect(isUniqueViolation(await add(ws, 'Build').catch((e: unknown) => e))).toBe(true);
    await expect(add(ws, 'build')).resolves.toBeTruthy();
    await expect(add(ws, 'Build', 'template')).resolves.toBeTruthy();
  });

  it('stores a definition as the next version, or not when onlyIfChanged and the same', async () => {
    const id = await add(ws, 'versioned');
    expect(
      await s.store.update(id, { description: 'd' }, v('def of versioned'), { onlyIfChanged: true }),
    ).toBe(false);
    expect(await s.store.update(id, { syncError: null }, v('second'), { onlyIfChanged: true })).toBe(true);
    expect(await s.store.update(id, {}, v('second'))).toBe(true);
    expect(await s.store.update(id, { name: 'renamed' })).toBe(false);
    const row = await s.store.get(ws, 'pipeline', id);
    expect(row).toMatchObject({ currentVersion: 3, name: 'renamed', description: 'd' });
    expect((await s.store.versions(id)).map((x) => x.version)).toEqual([3, 2, 1]);
    expect((await s.store.version(id, 2))!.definition).toBe('second');
    expect(await s.store.version(id, 9)).toBeNull();
    expect(await s.store.update(randomUUID(), { name: 'x' })).toBe(false);
  });

  it('pages and filters one kind of one workspace, with the total', async () => {
    const page = await s.store.list(ws, 'pipeline', query({ _end: 2 }));
    // 'Build' and 'build' in either order: PostgreSQL's collation may differ from PGlite's (C)
    expect(page.rows.map((r) => r.name.toLowerCase())).toEqual(['build', 'build']);
    expect(page.total).toBe(3);
    expect((await s.store.list(ws, 'pipeline', query({ name: 'RENAM' }))).total).toBe(1);
    expect((await s.store.list(ws, 'template', query())).rows.map((r) => r.name)).toEqual(['Build']);
    expect((await s.store.list(other, 'pipeline', query())).total).toBe(0);
    const byVersion = await s.store.list(
      ws,
      'pipeline',
      query({ _sort: 'version', _order: 'DESC', _end: 1 }),
    );
    expect(byVersion.rows.map((r) => r.name)).toEqual(['renamed']);
  });

  it('does not delete a pipeline while a run of it is active', async () => {
    const id = await add(ws, 'busy');
    await s.startRun(ws, id);
    expect(await s.store.deleteUnlessActive(id)).toBe(false);
    await s.endRun(id);
    expect(await s.store.deleteUnlessActive(id)).toBe(true);
    expect(await s.store.get(ws, 'pipeline', id)).toBeNull();
    expect(await s.store.versions(id)).toEqual([]);
    expect(await s.store.deleteUnlessActive(id)).toBe(false);
  });
});
