import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EnvironmentListQuery } from '@slipway/contracts';
import { deployments } from '../../platform/database/schema.js';
import { isUniqueViolation } from '../../platform/database/unique-violation.js';
import { contractDatabase, seedOrganisation } from '../../test-support/store-contract.js';
import { SqlClustersStore as SqlClustersStore } from '../clusters/clusters-store.js';
import type { ClustersStore } from '../clusters/clusters-store-type.js';
import { FakeClustersStore } from '../clusters/fake-clusters-store.js';
import { SqlEnvironmentsStore as SqlEnvironmentsStore } from './environments-store.js';
import type { EnvironmentsStore } from './environments-store-type.js';
import { FakeEnvironmentsStore } from './fake-environments-store.js';
import type { DeploymentRow } from './environments-store.js';

/** The same cases over the fakes and the SQL stores (decision 030): the left join to the cluster. */
const database = contractDatabase();
type NewDeployment = Pick<
  DeploymentRow,
  'id' | 'workspaceId' | 'environmentId' | 'name' | 'namespace' | 'deployedAt'
>;
interface Subject {
  store: EnvironmentsStore;
  clusters: ClustersStore;
  addDeployment(d: NewDeployment): Promise<void>;
}
const implementations: [string, () => Subject][] = [
  [
    'fakes',
    () => {
      const clusters = new FakeClustersStore();
      const store = new FakeEnvironmentsStore(clusters);
      return { store, clusters, addDeployment: async (d) => store.addDeployment(d) };
    },
  ],
  [
    'SQL',
    () => ({
      store: new SqlEnvironmentsStore(database.db()),
      clusters: new SqlClustersStore(database.db()),
      addDeployment: async (d) => {
        await database.db().insert(deployments).values(d);
      },
    }),
  ],
];
const query = (q: Partial<EnvironmentListQuery> = {}): EnvironmentListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'createdAt',
  _order: 'ASC',
  ...q,
});

describe.each(implementations)('EnvironmentsStore contract: %s', (_name, make) => {
  let s: Subject;
  let ws: string;
  let other: string;
  const cluster = randomUUID();
  const ids: Record<string, string> = {};
  const sameTime = new Date('2026-01-01T00:00:00Z');
  const add = async (name: string, extra: { clusterId?: string; namespace?: string } = {}) => {
    const id = randomUUID();
    await s.store.insert({ id, workspaceId: ws, name, type: 'development', createdAt: sameTime, ...extra });
    ids[name] = id;
    return id;
  };

  beforeAll(async () => {
    s = make();
    ({
      workspaceIds: [ws, other],
    } = await seedOrganisation(database.db()));
    await s.clusters.insert({ id: cluster, workspaceId: ws, name: 'k8s', type: 'eks' });
    await add('zeta', { clusterId: cluster, namespace: 'z' });
    await add('alpha');
    await add('mid', { clusterId: cluster, namespace: 'm' });
  });

  it('reads an environment with its cluster’s name and status, or none; in its workspace only', async () => {
    expect(await s.store.get(ws, ids.zeta!)).toMatchObject({
      clusterId: cluster,
      clusterName: 'k8s',
      clusterStatus: 'attaching',
      namespace: 'z',
      description: '',
    });
    expect(await s.store.get(ws, ids.alpha!)).toMatchObject({
      clusterId: null,
      clusterName: null,
      clusterStatus: null,
    });
    expect(await s.store.get(other, ids.zeta!)).toBeNull();
    expect(await s.store.byId(ids.zeta!)).toMatchObject({ workspaceId: ws, clusterId: cluster });
  });

  it('orders ties by name, filters by name and cluster, with the total', async () => {
    expect((await s.store.list(ws, query())).rows.map((r) => r.name)).toEqual(['alpha', 'mid', 'zeta']);
    const byCluster = await s.store.list(ws, query({ clusterId: cluster, _order: 'DESC', _sort: 'name' }));
    expect(byCluster.rows.map((r) => r.name)).toEqual(['zeta', 'mid']);
    expect(byCluster.total).toBe(2);
    expect((await s.store.list(ws, query({ name: 'LP' }))).rows.map((r) => r.name)).toEqual(['alpha']);
    expect((await s.store.list(other, query())).total).toBe(0);
  });

  it('refuses a duplicate name; updates and deletes', async () => {
    expect(isUniqueViolation(await add('alpha').catch((e: unknown) => e))).toBe(true);
    expect(await s.store.nameTaken(ws, 'alpha')).toBe(true);
    expect(await s.store.nameTaken(ws, 'alpha', ids.alpha)).toBe(false);
    await s.store.update(ids.alpha!, { clusterId: cluster, namespace: 'a', description: 'bound' });
    expect(await s.store.get(ws, ids.alpha!)).toMatchObject({
      clusterName: 'k8s',
      namespace: 'a',
      description: 'bound',
    });
  });

  it('lists deployments newest first; a removed cluster leaves its environments without one', async () => {
    const d = (name: string, deployedAt: Date) => ({
      id: randomUUID(),
      workspaceId: ws,
      environmentId: ids.mid!,
      name,
      namespace: 'm',
      deployedAt,
    });
    await s.addDeployment(d('old', new Date('2026-01-01T00:00:00Z')));
    await s.addDeployment(d('new', new Date('2026-02-01T00:00:00Z')));
    expect((await s.store.deployments(ids.mid!)).map((x) => [x.name, x.health])).toEqual([
      ['new', 'unknown'],
      ['old', 'unknown'],
    ]);
    await s.clusters.delete(cluster);
    expect(await s.store.get(ws, ids.mid!)).toMatchObject({ clusterId: null, clusterName: null });
    expect((await s.store.byId(ids.mid!))!.clusterId).toBeNull();
    await s.store.delete(ids.mid!);
    expect(await s.store.deployments(ids.mid!)).toEqual([]);
  });
});
