import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKUP_SCHEDULE_NAME_RULE_MESSAGE,
  SCHEDULE_CRON_MESSAGE,
  SCHEDULE_MINUTE_MESSAGE,
  SCHEDULE_TIME_MESSAGE,
  TIME_ZONE_MESSAGE,
  TOTAL_COUNT_HEADER,
  type Schedule,
} from '@slipway/contracts';
import { openDatabase, type AppDb } from '../../platform/database/database.js';
import { pipelineRuns, schedules } from '../../platform/database/schema.js';
import { createSignedInUser, type TestUser } from '../../test-support/identity.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { onPostgres } from '../../test-support/test-database.js';
import { PipelineRunsService } from '../pipeline-runs/pipeline-runs-service.js';
import { waitFor } from '../pipeline-runs/pipeline-runs.test-helper.js';
import { RunStore } from '../pipeline-runs/run-store.js';
import { LogStore } from '../pipeline-runs/logs/log-store.js';
import { TaskStore } from '../pipeline-runs/task-store.js';
import { Scheduler } from './scheduler.js';
import { SqlSchedulesStore } from './schedules-store.js';

const PIPELINE = `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: { name: nightly }
spec:
  params:
    - name: target
    - name: greeting
      default: hello
  tasks:
    - name: t
      taskSpec: { steps: [{ name: s, image: alpine, script: 'true' }] }
`;
const HOUR = 3_600_000;

describe('schedules', () => {
  let t: TestApp;
  let owner: TestUser;
  let stranger: TestUser;
  let pipelineId: string;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const create = async (body: object) => {
    const res = await call('POST', '/api/schedules', owner, {
      pipelineId,
      params: { target: 'prod' },
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Schedule;
  };
  /** A scheduler over the test database whose clock the test holds. */
  const schedulerAt = (clock: { now: Date }, db: AppDb = t.db.database.db) =>
    new Scheduler({
      store: new SqlSchedulesStore(db),
      now: () => clock.now,
      start: (s) =>
        new PipelineRunsService(new RunStore(db), new TaskStore(db), new LogStore(db)).create(
          s.workspaceId,
          {
            pipelineId: s.pipelineId,
            params: s.params as Record<string, string>,
            timeoutHours: s.timeoutHours,
            workspaces: [],
          },
          { kind: 'schedule', id: s.id } as { kind: string },
        ),
    });
  const runsOf = (scheduleId: string) =>
    t.db.database.db
      .select()
      .from(pipelineRuns)
      .where(sql`${pipelineRuns.trigger}->>'id' = ${scheduleId}`);
  const row = async (id: string) =>
    (await t.db.database.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createSignedInUser(t.app, t.db.database);
    stranger = await createSignedInUser(t.app, t.db.database);
    const made = await call('POST', '/api/pipelines', owner, { name: 'nightly', definition: PIPELINE });
    expect(made.statusCode, made.body).toBe(201);
    pipelineId = made.json().id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a schedule with defaults and its next run in the future', async () => {
    const before = Date.now();
    const s = await create({ name: 'hourly-build', frequency: 'hourly', minute: 15 });
    expect(s).toMatchObject({
      name: 'hourly-build',
      pipelineName: 'nightly',
      expression: '15 * * * *',
      timeZone: 'UTC',
      timeoutHours: 1,
      enabled: true,
      params: { target: 'prod' },
      lastRunAt: null,
    });
    const next = new Date(s.nextRunAt!);
    expect(next.getUTCMinutes()).toBe(15);
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime() - before).toBeLessThanOrEqual(HOUR);
    const weekly = await create({
      name: 'weekly',
      frequency: 'weekly',
      time: '18:30',
      dayOfWeek: 5,
      minute: 7,
      timeZone: 'Asia/Tokyo',
    });
    expect(weekly).toMatchObject({ expression: '30 18 * * 5', minute: null });
  });

  it('refuses bad input naming the field and the rule', async () => {
    const cases: Array<[object, string, string]> = [
      [
        { name: 'Nightly Build', frequency: 'hourly', minute: 0 },
        'body.name',
        BACKUP_SCHEDULE_NAME_RULE_MESSAGE,
      ],
      [{ name: 'a', frequency: 'hourly' }, 'body.minute', 'Minute required'],
      [{ name: 'a', frequency: 'hourly', minute: 60 }, 'body.minute', SCHEDULE_MINUTE_MESSAGE],
      [{ name: 'a', frequency: 'daily', time: '24:00' }, 'body.time', SCHEDULE_TIME_MESSAGE],
      [{ name: 'a', frequency: 'weekly', time: '10:00' }, 'body.dayOfWeek', 'Day required'],
      [{ name: 'a', frequency: 'cron', cron: 'every day' }, 'body.cron', SCHEDULE_CRON_MESSAGE],
      [{ name: 'a', frequency: 'cron', cron: '61 * * * *' }, 'body.cron', 'Cron expression is not valid'],
      [
        { name: 'a', frequency: 'daily', time: '10:00', timeZone: 'Mars/Olympus' },
        'body.timeZone',
        TIME_ZONE_MESSAGE,
      ],
      [
        { name: 'a', frequency: 'daily', time: '10:00', timeoutHours: 0 },
        'body.timeoutHours',
        'Timeout must be more than 0 hours',
      ],
      // an undeclared param is kept (Tekton propagates it); a mistyped one is refused
      [
        { name: 'a', frequency: 'daily', time: '10:00', params: { nope: 'x', target: ['y'] } },
        'body.params.target',
        'is of type string',
      ],
      [{ name: 'a', frequency: 'daily', time: '10:00', params: {} }, 'body.params.target', 'is required'],
    ];
    for (const [body, path, message] of cases) {
      const res = await call('POST', '/api/schedules', owner, {
        pipelineId,
        params: { target: 'x' },
        ...body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const found = (res.json().details as Array<{ path: string; message: string }>).find(
        (d) => d.path === path,
      );
      expect(found?.message, res.body).toContain(message);
    }
    const unknown = await call('POST', '/api/schedules', owner, {
      pipelineId: 'nope',
      name: 'a',
      frequency: 'hourly',
      minute: 1,
    });
    expect(unknown.json().message).toBe('pipelineId: no such pipeline in this workspace');
    await create({ name: 'taken', frequency: 'hourly', minute: 1 });
    const again = await call('POST', '/api/schedules', owner, {
      pipelineId,
      params: { target: 'x' },
      name: 'taken',
      frequency: 'hourly',
      minute: 2,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A schedule with this name already exists');
    expect((await call('GET', '/api/schedules', owner)).json().some((s: Schedule) => s.name === 'a')).toBe(
      false,
    );
  });

  it('updates timing, disables and enables, lists with paging, deletes', async () => {
    const s = await create({ name: 'editable', frequency: 'hourly', minute: 5 });
    const daily = await call('PUT', `/api/schedules/${s.id}`, owner, {
      frequency: 'daily',
      time: '06:45',
      timeZone: 'America/New_York',
    });
    expect(daily.statusCode, daily.body).toBe(200);
    expect(daily.json()).toMatchObject({
      frequency: 'daily',
      time: '06:45',
      minute: null,
      expression: '45 6 * * *',
    });
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(local.format(new Date(daily.json().nextRunAt))).toBe('06:45');
    const bad = await call('PUT', `/api/schedules/${s.id}`, owner, { frequency: 'weekly' });
    expect(bad.json().details[0]).toEqual({ path: 'body.dayOfWeek', message: 'Day required' });
    const off = await call('PUT', `/api/schedules/${s.id}`, owner, { enabled: false });
    expect(off.json()).toMatchObject({ enabled: false, nextRunAt: null });
    const on = await call('PUT', `/api/schedules/${s.id}`, owner, { enabled: true });
    expect(on.json().nextRunAt).not.toBeNull();
    const page = await call('GET', '/api/schedules?_start=0&_end=2&_sort=name&_order=ASC', owner);
    expect(page.json()).toHaveLength(2);
    expect(Number(page.headers[TOTAL_COUNT_HEADER.toLowerCase()])).toBeGreaterThanOrEqual(4);
    expect((await call('GET', `/api/schedules/${s.id}`, stranger)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/schedules/${s.id}`, stranger)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/schedules/${s.id}`, owner)).statusCode).toBe(204);
    expect((await call('GET', `/api/schedules/${s.id}`, owner)).statusCode).toBe(404);
  });

  it('after downtime starts exactly one catch-up run, then keeps to the timetable', async () => {
    const s = await create({
      name: 'catch-up',
      frequency: 'hourly',
      minute: 0,
      params: { target: 'staging' },
      timeoutHours: 2,
    });
    const due = new Date(s.nextRunAt!);
    const clock = { now: new Date(due.getTime() - 60_000) };
    const scheduler = schedulerAt(clock);
    const fired = async () => {
      await scheduler.tick();
      return (await runsOf(s.id)).length;
    };
    expect(await fired()).toBe(0);
    clock.now = new Date(due.getTime() + 5 * 24 * HOUR + 17 * 60_000); // five days and 120 missed hours later
    expect(await fired()).toBe(1);
    expect(await fired()).toBe(1);
    const runs = await runsOf(s.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ params: { target: 'staging', greeting: 'hello' }, timeoutMs: 2 * HOUR });
    const after = await row(s.id);
    expect(after.nextRunAt!.toISOString()).toBe(new Date(due.getTime() + 5 * 24 * HOUR + HOUR).toISOString());
    expect(after.lastRunId).toBe(runs[0]!.id);
    expect(after.lastRunAt!.toISOString()).toBe(clock.now.toISOString());
    clock.now = after.nextRunAt!;
    expect(await fired()).toBe(2);
  });

  it('keeps wall-clock time across a daylight saving change', async () => {
    const s = await create({
      name: 'london-nine',
      frequency: 'daily',
      time: '09:00',
      timeZone: 'Europe/London',
    });
    await t.db.database.db
      .update(schedules)
      .set({ nextRunAt: new Date('2090-03-25T09:00:00Z') })
      .where(eq(schedules.id, s.id));
    // 26 March 2090 is the last Sunday of March: London moves to summer time
    const clock = { now: new Date('2090-03-25T09:00:00Z') };
    const scheduler = schedulerAt(clock);
    const fired = async () => {
      await scheduler.tick();
      return (await runsOf(s.id)).length;
    };
    expect(await fired()).toBe(1);
    expect((await row(s.id)).nextRunAt!.toISOString()).toBe('2090-03-26T08:00:00.000Z');
    clock.now = new Date('2090-03-26T08:00:00Z');
    expect(await fired()).toBe(2);
    expect((await row(s.id)).nextRunAt!.toISOString()).toBe('2090-03-27T08:00:00.000Z');
  });

  it('a run that cannot start is reported and does not hold back the other schedules', async () => {
    const broken = await create({ name: 'broken', frequency: 'hourly', minute: 10 });
    const fine = await create({ name: 'fine', frequency: 'hourly', minute: 10 });
    const at = new Date(Date.UTC(2092, 0, 1));
    for (const id of [broken.id, fine.id])
      await t.db.database.db.update(schedules).set({ nextRunAt: at }).where(eq(schedules.id, id));
    const errors: Array<string | undefined> = [];
    const store = new SqlSchedulesStore(t.db.database.db);
    const scheduler = new Scheduler({
      store,
      now: () => at,
      start: async (s) => {
        if (s.id === broken.id) throw new Error('pipeline changed');
        return { id: `run-of-${s.name}` };
      },
      onError: (_err, id) => errors.push(id),
    });
    await scheduler.tick();
    expect(errors).toContain(broken.id);
    expect((await row(fine.id)).lastRunId).toBe('run-of-fine');
    expect((await row(fine.id)).lastError).toBeNull();
    expect((await row(broken.id)).lastRunId).toBeNull();
    expect((await row(broken.id)).lastError).toBe('the run could not start: pipeline changed');
    expect((await row(broken.id)).nextRunAt!.getTime()).toBeGreaterThan(at.getTime());
  });

  it('stores why a due run could not start, shows it in the view, and clears it when a run starts', async () => {
    const made = await call('POST', '/api/pipelines', owner, {
      name: 'changing',
      definition: PIPELINE.replace('name: nightly', 'name: changing'),
    });
    const changing = made.json().id as string;
    const s = await create({ name: 'will-break', pipelineId: changing, frequency: 'hourly', minute: 20 });
    expect(s.lastError).toBeNull();
    // the pipeline now needs a param the schedule does not give
    const changed = await call('PUT', `/api/pipelines/${changing}`, owner, {
      definition: PIPELINE.replace('name: nightly', 'name: changing').replace(
        '    - name: target\n',
        '    - name: target\n    - name: region\n',
      ),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const clock = { now: new Date(Date.UTC(2093, 0, 1)) };
    await t.db.database.db.update(schedules).set({ nextRunAt: clock.now }).where(eq(schedules.id, s.id));
    const scheduler = schedulerAt(clock);
    await scheduler.tick();
    expect(await runsOf(s.id)).toHaveLength(0);
    const failed = (await call('GET', `/api/schedules/${s.id}`, owner)).json() as Schedule;
    expect(failed.lastError).toMatch(/^the run could not start: .*params\.region/);
    expect(failed.lastRunId).toBeNull();
    const listed = (await call('GET', '/api/schedules?name=will-break', owner)).json() as Schedule[];
    expect(listed[0]!.lastError).toBe(failed.lastError);

    const fixed = await call('PUT', `/api/schedules/${s.id}`, owner, {
      params: { target: 'prod', region: 'eu' },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    clock.now = new Date(Date.UTC(2093, 0, 2));
    await t.db.database.db.update(schedules).set({ nextRunAt: clock.now }).where(eq(schedules.id, s.id));
    await scheduler.tick();
    const [run] = await runsOf(s.id);
    const view = (await call('GET', `/api/schedules/${s.id}`, owner)).json() as Schedule;
    expect(view).toMatchObject({ lastError: null, lastRunId: run!.id });
  });

  it('starts due schedules from the server process itself', async () => {
    const s = await create({ name: 'due-now', frequency: 'cron', cron: '0 0 1 1 *' });
    await t.db.database.db
      .update(schedules)
      .set({ nextRunAt: new Date(Date.now() - 60_000) })
      .where(eq(schedules.id, s.id));
    const [run] = await waitFor(async () => {
      const runs = await runsOf(s.id);
      return runs.length > 0 && runs;
    }, 15_000);
    expect(run!.trigger).toEqual({ kind: 'schedule', id: s.id, by: 'due-now' });
    const view = (await call('GET', `/api/schedules/${s.id}`, owner)).json() as Schedule;
    expect(view.lastRunId).toBe(run!.id);
    expect(new Date(view.nextRunAt!).getUTCMonth()).toBe(0);
    expect(new Date(view.nextRunAt!).getTime()).toBeGreaterThan(Date.now());
  });

  it.skipIf(!onPostgres)('two schedulers on one PostgreSQL never fire a schedule twice', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++)
      ids.push((await create({ name: `race-${i}`, frequency: 'hourly', minute: 30 })).id);
    const clock = { now: new Date(Date.UTC(2091, 0, 1)) };
    const others = await Promise.all(
      [0, 1].map(() => openDatabase({ databaseUrl: t.db.url, dataDir: '', inMemory: true, poolMax: 4 })),
    );
    try {
      await t.db.database.db
        .update(schedules)
        .set({ nextRunAt: new Date(Date.UTC(2090, 0, 1)) })
        .where(sql`${schedules.name} like 'race-%'`);
      const [a, b] = others.map((d) => schedulerAt(clock, d.db));
      const counts = await Promise.all([a!.tick(), b!.tick(), a!.tick(), b!.tick()]);
      expect(counts.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(20);
      for (const id of ids) expect(await runsOf(id)).toHaveLength(1);
    } finally {
      await Promise.all(others.map((d) => d.close()));
    }
  });
});
