import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEventInput } from '../../platform/audit-recorder.js';
import { organisationMembers, organisations, users } from '../../platform/database/schema.js';
import { contractDatabase } from '../../test-support/store-contract.js';
import { SqlAuditStore, type AuditStore } from './audit-store.js';
import { FakeAuditStore } from './fake-audit-store.js';

/**
 * The same cases over the fake and the SQL store (decision 030): which events an organisation
 * sees, and how an actor is matched. The SQL database is shared by both runs' organisations, so
 * each run uses its own ids.
 */
const database = contractDatabase();
type AddMember = (organisationId: string, person: { id: string; email: string }) => Promise<void>;
const implementations: [string, () => { store: AuditStore; addMember: AddMember }][] = [
  [
    'fake',
    () => {
      const store = new FakeAuditStore();
      return { store, addMember: async (org, p) => store.addMember(org, p) };
    },
  ],
  [
    'SQL',
    () => {
      const db = database.db();
      const orgs = new Set<string>();
      return {
        store: new SqlAuditStore(db),
        addMember: async (organisationId, p) => {
          if (!orgs.has(organisationId))
            await db.insert(organisations).values({ id: organisationId, name: 'o' });
          orgs.add(organisationId);
          await db.insert(users).values({ ...p, firstName: 'F', lastName: 'L' });
          await db.insert(organisationMembers).values({ organisationId, userId: p.id, role: 'member' });
        },
      };
    },
  ],
];

describe.each(implementations)('AuditStore contract: %s', (_name, make) => {
  let store: AuditStore;
  const tag = randomUUID().slice(0, 8);
  const org = `org-${tag}`;
  const other = `other-${tag}`;
  const ann = { id: `ann-${tag}`, email: `ann-${tag}@example.com` };
  const zed = { id: `zed-${tag}`, email: `zed-${tag}@example.com` };
  const event = (over: Partial<AuditEventInput>): AuditEventInput => ({
    organisationId: org,
    workspaceId: null,
    actorType: 'user',
    actorId: ann.id,
    actorLabel: ann.email,
    action: 'thing.do',
    targetType: null,
    targetId: null,
    ip: null,
    userAgent: null,
    fingerprint: null,
    outcome: 'success',
    statusCode: 200,
    detail: null,
    ...over,
  });

  beforeAll(async () => {
    const made = make();
    store = made.store;
    await made.addMember(org, ann);
    await made.addMember(other, zed);
    await store.append(event({ action: 'a1', workspaceId: 'ws-1', detail: { n: 1 } }));
    await store.append(
      event({ action: 'a2', organisationId: other, actorId: zed.id, actorLabel: zed.email }),
    );
    await store.append(
      event({
        action: 'login',
        organisationId: null,
        actorId: null,
        actorLabel: ann.email.toUpperCase(),
        outcome: 'failure',
      }),
    );
    await store.append(
      event({ action: 'login', organisationId: null, actorId: null, actorLabel: zed.email }),
    );
    await store.append(
      event({ action: 'a3', actorId: 'sa-1', actorType: 'service_account', actorLabel: 'bot' }),
    );
  });

  const actions = (rows: { action: string }[]) => rows.map((r) => r.action);
  const win = { start: 0, end: 20, order: 'ASC' as const };

  it('an organisation sees its events and its members’ sign-ins before any organisation', async () => {
    const { rows, total } = await store.list({ organisationId: org }, win);
    expect(actions(rows)).toEqual(['a1', 'login', 'a3']);
    expect(total).toBe(3);
    expect(rows[0]).toMatchObject({ workspaceId: 'ws-1', detail: { n: 1 }, statusCode: 200 });
    expect(rows[0]!.at).toBeInstanceOf(Date);
    expect(actions((await store.list({ organisationId: other }, win)).rows)).toEqual(['a2', 'login']);
  });

  it('pages newest first and filters by actor (id, or e-mail without one), outcome, action, workspace', async () => {
    const page = await store.list({ organisationId: org }, { start: 0, end: 2, order: 'DESC' });
    expect(actions(page.rows)).toEqual(['a3', 'login']);
    expect(page.total).toBe(3);
    expect(actions((await store.list({ organisationId: org, actorId: ann.id }, win)).rows)).toEqual([
      'a1',
      'login',
    ]);
    expect(actions((await store.list({ organisationId: org, outcome: 'failure' }, win)).rows)).toEqual([
      'login',
    ]);
    expect((await store.list({ organisationId: org, action: 'a3' }, win)).total).toBe(1);
    expect((await store.list({ organisationId: org, workspaceId: 'ws-1' }, win)).total).toBe(1);
  });

  it('scans by id after a key, oldest first', async () => {
    const all = await store.scan({ organisationId: org }, 0, 2);
    expect(actions(all)).toEqual(['a1', 'login']);
    expect(actions(await store.scan({ organisationId: org }, Number(all[1]!.id), 10))).toEqual(['a3']);
  });
});
