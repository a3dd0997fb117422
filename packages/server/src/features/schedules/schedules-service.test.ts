import { describe, expect, it } from 'vitest';
import { SCHEDULE_CRON_MESSAGE, type ScheduleCreateParsed, type ScheduleListQuery } from '@slipway/contracts';
import { ConflictError, InputError, NotFoundError } from '../../platform/errors.js';
import { FakeSchedulesStore } from './fake-schedules-store.js';
import { Scheduler } from './scheduler.js';
import { SCHEDULE_NAME_TAKEN, SchedulesService, type ParamsCheck } from './schedules-service.js';

const WS = 'ws-a';
const OTHER = 'ws-b';
const NOW = new Date('2026-03-02T10:15:00Z');
const query = (q: Partial<ScheduleListQuery> = {}): ScheduleListQuery => ({
  _start: 0,
  _end: 20,
  _sort: 'name',
  _order: 'ASC',
  ...q,
});
const hourly = (over: Partial<ScheduleCreateParsed> = {}): ScheduleCreateParsed => ({
  name: 'nightly',
  pipelineId: 'p1',
  frequency: 'hourly',
  minute: 30,
  timeZone: 'UTC',
  params: {},
  timeoutHours: 1,
  enabled: true,
  ...over,
});

function setup(checkParams: ParamsCheck = async () => []) {
  const clock = { now: NOW };
  const store = new FakeSchedulesStore();
  store.addPipeline({ id: 'p1', workspaceId: WS, name: 'build', kind: 'pipeline' });
  store.addPipeline({ id: 'p2', workspaceId: WS, name: 'deploy', kind: 'pipeline' });
  store.addPipeline({ id: 'tpl', workspaceId: WS, name: 'template', kind: 'template' });
  store.addPipeline({ id: 'theirs', workspaceId: OTHER, name: 'theirs', kind: 'pipeline' });
  const service = new SchedulesService(store, checkParams, () => clock.now);
  return { store, service, clock };
}

describe('SchedulesService over the fake store', () => {
  it('creates a schedule with its pipeline name, expression and next run in its time zone', async () => {
    const { service } = setup();
    const s = await service.create(WS, hourly({ time: '09:00', cron: '* * * * *' }), 'user-1');
    expect(s).toMatchObject({
      name: 'nightly',
      pipelineName: 'build',
      minute: 30,
      time: null,
      cron: null,
      expression: '30 * * * *',
      nextRunAt: '2026-03-02T10:30:00.000Z',
      lastRunAt: null,
    });
    const daily = await service.create(
      WS,
      hourly({ name: 'london', frequency: 'daily', time: '09:00', timeZone: 'Europe/London' }),
      null,
    );
    expect(daily).toMatchObject({
      minute: null,
      expression: '0 9 * * *',
      nextRunAt: '2026-03-03T09:00:00.000Z',
    });
  });

  it('a disabled schedule has no next run, and gets one when enabled', async () => {
    const { service } = setup();
    const s = await service.create(WS, hourly({ enabled: false }), null);
    expect(s.nextRunAt).toBeNull();
    expect((await service.update(WS, s.id, { enabled: true })).nextRunAt).toBe('2026-03-02T10:30:00.000Z');
  });

  it('refuses a pipeline of another workspace or a template, naming the field', async () => {
    const { service } = setup();
    for (const pipelineId of ['theirs', 'tpl', 'none']) {
      const err = await service.create(WS, hourly({ pipelineId }), null).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect(err).toMatchObject({
        message: 'pipelineId: no such pipeline in this workspace',
        details: [{ path: 'body.pipelineId', message: 'no such pipeline in this workspace' }],
      });
    }
  });

  it("refuses params the pipeline's check answers problems for, with body paths", async () => {
    const { service } = setup(async () => [{ path: 'params.target', message: 'target is required' }]);
    await expect(service.create(WS, hourly(), null)).rejects.toMatchObject({
      message: 'body.params.target: target is required',
      details: [{ path: 'body.params.target', message: 'target is required' }],
    });
  });

  it('refuses a timing that misses what its frequency needs, or a cron that does not parse', async () => {
    const { service } = setup();
    await expect(service.create(WS, hourly({ minute: null }), null)).rejects.toMatchObject({
      message: 'body.minute: Minute required',
    });
    await expect(
      service.create(WS, hourly({ frequency: 'cron', cron: '* * *' }), null),
    ).rejects.toMatchObject({
      message: `body.cron: ${SCHEDULE_CRON_MESSAGE}`,
    });
    const s = await service.create(WS, hourly(), null);
    await expect(service.update(WS, s.id, { frequency: 'weekly', time: '08:00' })).rejects.toMatchObject({
      details: [{ path: 'body.dayOfWeek', message: 'Day required' }],
    });
  });

  it('keeps names unique in a workspace (409), also when the index catches a race', async () => {
    const { service, store } = setup();
    await service.create(WS, hourly({ name: 'a' }), null);
    const b = await service.create(WS, hourly({ name: 'b' }), null);
    await expect(service.create(WS, hourly({ name: 'a' }), null)).rejects.toThrow(
      new ConflictError(SCHEDULE_NAME_TAKEN),
    );
    await expect(service.update(WS, b.id, { name: 'a' })).rejects.toThrow(SCHEDULE_NAME_TAKEN);
    store.nameTaken = async () => false;
    await expect(service.create(WS, hourly({ name: 'a' }), null)).rejects.toBeInstanceOf(ConflictError);
  });

  it('an update keeps omitted fields and works the next run out again from now', async () => {
    const { service, clock } = setup();
    const s = await service.create(WS, hourly({ params: { target: 'prod' } }), null);
    clock.now = new Date('2026-03-02T10:45:00Z');
    const updated = await service.update(WS, s.id, { pipelineId: 'p2' });
    expect(updated).toMatchObject({
      pipelineName: 'deploy',
      params: { target: 'prod' },
      minute: 30,
      nextRunAt: '2026-03-02T11:30:00.000Z',
    });
  });

  it("never shows, changes or deletes another workspace's schedule", async () => {
    const { service } = setup();
    const mine = await service.create(WS, hourly(), null);
    const notFound = new NotFoundError('Schedule not found');
    await expect(service.get(OTHER, mine.id)).rejects.toThrow(notFound);
    await expect(service.update(OTHER, mine.id, { enabled: false })).rejects.toThrow(notFound);
    await expect(service.remove(OTHER, mine.id)).rejects.toThrow(notFound);
    expect(await service.list(OTHER, query())).toEqual({ rows: [], total: 0 });
    await service.remove(WS, mine.id);
    await expect(service.get(WS, mine.id)).rejects.toThrow(notFound);
  });

  it('lists a page sorted by next run or name, filtered by name, with the total', async () => {
    const { service } = setup();
    await service.create(WS, hourly({ name: 'late', minute: 50 }), null);
    await service.create(WS, hourly({ name: 'early', minute: 20 }), null);
    await service.create(WS, hourly({ name: 'off', enabled: false }), null);
    const byNext = await service.list(WS, query({ _sort: 'nextRunAt' }));
    expect(byNext.rows.map((s) => s.name)).toEqual(['early', 'late', 'off']);
    const page = await service.list(WS, query({ _order: 'DESC', _end: 1 }));
    expect(page).toMatchObject({ total: 3, rows: [{ name: 'off' }] });
    expect((await service.list(WS, query({ name: 'AT' }))).rows.map((s) => s.name)).toEqual(['late']);
  });
});

describe('Scheduler over the fake store', () => {
  it('fires each due schedule once, moves its next run on and records the run or why it failed', async () => {
    const { service, store, clock } = setup();
    const ok = await service.create(WS, hourly({ name: 'ok' }), null);
    const failing = await service.create(WS, hourly({ name: 'failing' }), null);
    await service.create(WS, hourly({ name: 'off', enabled: false }), null);
    clock.now = new Date('2026-03-02T13:31:00Z');
    const started: string[] = [];
    const scheduler = new Scheduler({
      store,
      now: () => clock.now,
      start: async (s) => {
        if (s.id === failing.id) throw new Error('no agent');
        started.push(s.name);
        return { id: `run-${s.name}` };
      },
    });
    expect(await scheduler.tick()).toBe(1);
    expect(await scheduler.tick()).toBe(0);
    expect(started).toEqual(['ok']);
    expect(await service.get(WS, ok.id)).toMatchObject({
      lastRunId: 'run-ok',
      lastError: null,
      lastRunAt: '2026-03-02T13:31:00.000Z',
      nextRunAt: '2026-03-02T14:30:00.000Z',
    });
    expect(await service.get(WS, failing.id)).toMatchObject({
      lastError: 'the run could not start: no agent',
      nextRunAt: '2026-03-02T14:30:00.000Z',
    });
  });
});
