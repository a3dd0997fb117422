import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterListQuery } from '@slipway/contracts';
import { clusters } from '../../platform/database/schema.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import type { ClusterRow } from './clusters-store.js';
import { SqlClustersStore as SqlClustersStore } from './clusters-store.js';
import type { ClustersStore } from './clusters-store-type.js';
import { FakeClustersStore } from './fake-clusters-store.js';

/** The same cases over the fake and the SQL store (decision 030); `report` is what the agent gateway writes. */
const database = contractDatabase();
interface Subject {
  store: ClustersStore;
  report(id: string, fields: Partial<ClusterRow>): Promise<void>;
}
const implementations: [string, () => Subject][] = [
  [
    'fake',
    () => {
      const store = new FakeClustersStore();
      return { store, report: async (id, fields) => store.report(id, fields) };
    },
  ],
  [
    'SQL',
    () => ({
      store: new SqlClustersStore(database.db()),
      report: async (id, fields) => {
        await database.db().update(clusters).set(fields).where(eq(clusters.id, id));
      },
    }),
  ],
];
const query = (q: Partial<ClusterListQuery> = {}): ClusterListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});

describe.each(implementations)('ClustersStore contract: %s', (_name, make) => {
  let s: Subject;
  let ws: string;
  let other: string;
  const ids: Record<string, string> = {};
  const add = async (workspaceId: string, name: string) => {
    const id = randomUUID();
    await s.store.insert({ id, workspaceId, name, type: 'eks' });
    return id;
  };

  beforeAll(async () => {
    s = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
    for (const name of ['quiet', 'fresh', 'slow', 'never', 'attaching']) ids[name] = await add(ws, name);
  });

  it('fills the defaults, scopes reads to the workspace and refuses a duplicate name', async () => {
    const row = await s.store.get(ws, ids.quiet!);
    expect(row).toMatchObject({
      status: 'attaching',
      private: false,
      allowedNamespaces: ['ozone'],
      selectedNamespaces: [],
      heartbeatSeconds: 30,
      tokenHash: null,
    });
    expect(await s.store.get(other, ids.quiet!)).toBeNull();
    expect(await s.store.byId(ids.quiet!)).toMatchObject({ name: 'quiet' });
    expect(isUniqueViolation(await add(ws, 'quiet').catch((e: unknown) => e))).toBe(true);
    expect(await s.store.nameTaken(ws, 'quiet')).toBe(true);
    expect(await s.store.nameTaken(other, 'quiet')).toBe(false);
  });

  it('marks silent the active clusters past three of their own heartbeat intervals', async () => {
    const now = new Date('2026-05-01T12:00:00Z');
    const ago = (sec: number) => new Date(now.getTime() - sec * 1000);
    await s.report(ids.quiet!, { status: 'active', lastHeartbeatAt: ago(91), heartbeatSeconds: 30 });
    await s.report(ids.fresh!, { status: 'active', lastHeartbeatAt: ago(89), heartbeatSeconds: 30 });
    await s.report(ids.slow!, { status: 'active', lastHeartbeatAt: ago(91), heartbeatSeconds: 60 });
    await s.report(ids.never!, { status: 'active', lastHeartbeatAt: null });
    const silent = await s.store.markSilent(now, 3, 'Agent not active');
    expect(silent.sort()).toEqual([ids.quiet, ids.never].sort());
    expect(await s.store.get(ws, ids.quiet!)).toMatchObject({
      status: 'not_active',
      statusMessage: 'Agent not active',
    });
    expect((await s.store.get(ws, ids.fresh!))!.status).toBe('active');
    expect((await s.store.get(ws, ids.attaching!))!.status).toBe('attaching');
  });

  it('pages, sorts and filters by name and status, with the total', async () => {
    const active = await s.store.list(ws, query({ status: 'active' }));
    expect(active.rows.map((r) => r.name)).toEqual(['fresh', 'slow']);
    expect(active.total).toBe(2);
    const page = await s.store.list(ws, query({ _start: 1, _end: 3, _order: 'DESC' }));
    expect(page.rows.map((r) => r.name)).toEqual(['quiet', 'never']);
    expect(page.total).toBe(5);
    expect((await s.store.list(ws, query({ name: 'ES' }))).rows.map((r) => r.name)).toEqual(['fresh']);
    expect((await s.store.list(other, query())).total).toBe(0);
  });

  it('updates (stamping updatedAt) and deletes', async () => {
    const before = (await s.store.get(ws, ids.slow!))!;
    await s.store.update(ids.slow!, { selectedNamespaces: ['a'], status: 'detached' });
    const after = (await s.store.get(ws, ids.slow!))!;
    expect(after).toMatchObject({ selectedNamespaces: ['a'], status: 'detached' });
    expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    await s.store.delete(ids.slow!);
    expect(await s.store.byId(ids.slow!)).toBeNull();
  });
});
