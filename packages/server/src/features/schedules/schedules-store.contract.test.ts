import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleListQuery } from '@slipway/contracts';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation, seedPipeline } from '../../test-support/store-contract.js';
import { FakeSchedulesStore } from './fake-schedules-store.js';
import { SqlSchedulesStore as SqlSchedulesStore } from './schedules-store.js';
import type { SchedulesStore } from './schedules-store-type.js';

/** The same cases over the fake and the SQL store (decision 030). */
const database = contractDatabase();
interface Subject {
  store: SchedulesStore;
  addPipeline(p: {
    id: string;
    workspaceId: string;
    name: string;
    kind: 'pipeline' | 'template';
  }): Promise<void>;
}
const implementations: [string, () => Subject][] = [
  [
    'fake',
    () => {
      const store = new FakeSchedulesStore();
      return { store, addPipeline: async (p) => store.addPipeline(p) };
    },
  ],
  [
    'SQL',
    () => ({
      store: new SqlSchedulesStore(database.db()),
      addPipeline: (p) => seedPipeline(database.db(), p),
    }),
  ],
];
const query = (q: Partial<ScheduleListQuery> = {}): ScheduleListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});
const at = (iso: string) => new Date(iso);

describe.each(implementations)('SchedulesStore contract: %s', (_name, make) => {
  let s: Subject;
  let ws: string;
  let other: string;
  const pipelineId = randomUUID();
  const ids: Record<string, string> = {};
  const add = async (workspaceId: string, name: string, nextRunAt: Date | null, enabled = true) => {
    const id = randomUUID();
    await s.store.insert({
      id,
      workspaceId,
      pipelineId,
      name,
      frequency: 'hourly',
      minute: 0,
      nextRunAt,
      enabled,
    });
    return id;
  };

  beforeAll(async () => {
    s = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
    await s.addPipeline({ id: pipelineId, workspaceId: ws, name: 'build', kind: 'pipeline' });
    await s.addPipeline({ id: `${pipelineId}-t`, workspaceId: ws, name: 'tpl', kind: 'template' });
    ids.late = await add(ws, 'late', at('2026-01-01T10:00:00Z'));
    ids.early = await add(ws, 'early', at('2026-01-01T09:00:00Z'));
    ids.future = await add(ws, 'future', at('2026-01-02T09:00:00Z'));
    ids.off = await add(ws, 'off', at('2026-01-01T08:00:00Z'), false);
    ids.none = await add(ws, 'none', null);
  });

  it('reads a schedule with its pipeline’s name and the defaults, in its workspace only', async () => {
    expect(await s.store.get(ws, ids.late!)).toMatchObject({
      pipelineName: 'build',
      timeZone: 'UTC',
      params: {},
      timeoutHours: 1,
      lastRunAt: null,
      lastError: null,
    });
    expect(await s.store.get(other, ids.late!)).toBeNull();
    expect(await s.store.pipeline(ws, pipelineId)).toEqual({ id: pipelineId, name: 'build' });
    expect(await s.store.pipeline(ws, `${pipelineId}-t`)).toBeNull();
    expect(await s.store.pipeline(other, pipelineId)).toBeNull();
  });

  it('refuses a duplicate name in the workspace with a unique violation', async () => {
    expect(isUniqueViolation(await add(ws, 'late', null).catch((e: unknown) => e))).toBe(true);
    expect(await s.store.nameTaken(ws, 'late')).toBe(true);
    expect(await s.store.nameTaken(ws, 'late', ids.late)).toBe(false);
    const err = await s.store.update(ids.early!, { name: 'late' }).catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
  });

  it('sorts by next run with no next run last, pages, and counts', async () => {
    const byNext = await s.store.list(ws, query({ _sort: 'nextRunAt' }));
    expect(byNext.rows.map((r) => r.name)).toEqual(['off', 'early', 'late', 'future', 'none']);
    const desc = await s.store.list(ws, query({ _sort: 'nextRunAt', _order: 'DESC', _end: 2 }));
    expect(desc.rows.map((r) => r.name)).toEqual(['none', 'future']);
    expect(desc.total).toBe(5);
    expect((await s.store.list(ws, query({ name: 'AT' }))).rows.map((r) => r.name)).toEqual(['late']);
  });

  it('claims the enabled due schedules oldest first, once, moving their next run on', async () => {
    const now = at('2026-01-01T12:00:00Z');
    const claimed = await s.store.claimDue(now, 1, () => at('2026-01-01T13:00:00Z'));
    expect(claimed.map((r) => r.name)).toEqual(['early']);
    const rest = await s.store.claimDue(now, 10, () => null);
    expect(rest.map((r) => r.name)).toEqual(['late']);
    expect(await s.store.claimDue(now, 10, () => null)).toEqual([]);
    expect(await s.store.get(ws, ids.early!)).toMatchObject({
      nextRunAt: at('2026-01-01T13:00:00Z'),
      lastRunAt: now,
    });
    expect((await s.store.get(ws, ids.late!))!.nextRunAt).toBeNull();
  });

  it('records a run (clearing the error) and an error', async () => {
    await s.store.recordError(ids.early!, 'no agent');
    expect((await s.store.get(ws, ids.early!))!.lastError).toBe('no agent');
    await s.store.recordRun(ids.early!, 'run-1');
    expect(await s.store.get(ws, ids.early!)).toMatchObject({ lastRunId: 'run-1', lastError: null });
    await s.store.delete(ids.early!);
    expect(await s.store.get(ws, ids.early!)).toBeNull();
  });
});
