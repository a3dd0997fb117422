import { describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, type AuditListQuery } from '@slipway/contracts';
import type { AuditEventInput } from '../../platform/audit-recorder.js';
import { AuditService } from './audit-service.js';
import { csvRow } from './csv.js';
import { FakeAuditStore } from './fake-audit-store.js';

const ORG = 'org-a';
const OTHER = 'org-b';
const event = (over: Partial<AuditEventInput> = {}): AuditEventInput => ({
  organisationId: ORG,
  workspaceId: null,
  actorType: 'user',
  actorId: 'u1',
  actorLabel: 'ann@example.com',
  action: 'secret.create',
  targetType: 'secret',
  targetId: 's1',
  ip: '203.0.113.1',
  userAgent: null,
  fingerprint: null,
  outcome: 'success',
  statusCode: 201,
  detail: null,
  ...over,
});
const q = (over: Partial<AuditListQuery> = {}): AuditListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'id',
  _order: 'DESC',
  ...over,
});

function setup() {
  const clock = { now: new Date('2026-03-10T12:00:00Z') };
  const store = new FakeAuditStore(() => clock.now);
  store.addMember(ORG, { id: 'u1', email: 'ann@example.com' });
  store.addMember(OTHER, { id: 'u9', email: 'zed@example.com' });
  return { store, clock, service: new AuditService(store, () => clock.now) };
}

describe('AuditService over the fake store', () => {
  it('lists the organisation’s events newest first, and sign-in events of its members before any organisation', async () => {
    const { store, service } = setup();
    await store.append(event({ action: 'a.first' }));
    await store.append(event({ organisationId: OTHER, action: 'theirs' }));
    await store.append(
      event({
        organisationId: null,
        actorId: null,
        actorLabel: 'ANN@example.com',
        action: 'auth.login',
        outcome: 'failure',
      }),
    );
    await store.append(
      event({ organisationId: null, actorId: null, actorLabel: 'zed@example.com', action: 'auth.login' }),
    );
    const { rows, total } = await service.list(ORG, q());
    expect(total).toBe(2);
    expect(rows.map((r) => r.action)).toEqual(['auth.login', 'a.first']);
    expect((await service.list(ORG, q({ _order: 'ASC', _end: 1 }))).rows.map((r) => r.action)).toEqual([
      'a.first',
    ]);
  });

  it('filters by actor (by id, or by e-mail on events without one), action, outcome and workspace', async () => {
    const { store, service } = setup();
    await store.append(event({ workspaceId: 'ws-1' }));
    await store.append(event({ actorId: 'u2', actorLabel: 'bob@example.com', action: 'pipeline.run' }));
    await store.append(
      event({
        organisationId: null,
        actorId: null,
        action: 'auth.login',
        outcome: 'failure',
        statusCode: 401,
      }),
    );
    expect((await service.list(ORG, q({ actor: 'u1' }))).total).toBe(2);
    expect((await service.list(ORG, q({ action: 'pipeline.run' }))).rows.map((r) => r.actorId)).toEqual([
      'u2',
    ]);
    expect((await service.list(ORG, q({ outcome: 'failure' }))).rows.map((r) => r.statusCode)).toEqual([401]);
    expect((await service.list(ORG, q({ workspaceId: 'ws-1' }))).total).toBe(1);
  });

  it('a date without a time means the whole day; explicit dates win over a named range', async () => {
    const { store, service, clock } = setup();
    for (const at of ['2026-03-01T23:59:00Z', '2026-03-02T00:00:00Z', '2026-03-09T10:00:00Z']) {
      clock.now = new Date(at);
      await store.append(event({ targetId: at }));
    }
    clock.now = new Date('2026-03-10T12:00:00Z');
    const day = await service.list(ORG, q({ from: '2026-03-01', to: '2026-03-01' }));
    expect(day.rows.map((r) => r.targetId)).toEqual(['2026-03-01T23:59:00Z']);
    const both = await service.list(ORG, q({ from: '2026-03-02', to: '2026-03-09', range: 'last_7_days' }));
    expect(both.total).toBe(2);
  });

  it('exports CSV oldest first, header first, in batches that follow the ids', async () => {
    const { store, service } = setup();
    for (let i = 0; i < 3; i++) await store.append(event({ targetId: `t${i}` }));
    await store.append(event({ organisationId: OTHER, targetId: 'theirs' }));
    const chunks: string[] = [];
    for await (const chunk of service.exportCsv(ORG, {})) chunks.push(chunk);
    expect(chunks[0]).toBe(csvRow([...AUDIT_CSV_COLUMNS]));
    const body = chunks.slice(1).join('');
    expect(body.indexOf('t0')).toBeLessThan(body.indexOf('t2'));
    expect(body).not.toContain('theirs');
    expect(body.trim().split('\n')).toHaveLength(3);
  });
});
