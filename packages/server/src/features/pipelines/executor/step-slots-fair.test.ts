import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './local-executor.test-helper.js';
import type { GroupProcess } from './process-group.js';
import { StepSpawner, type SpawnerMode } from './step-spawner.js';

/** The spawner's pump rule, through the helper process and in process alike. */
describe.each<SpawnerMode>(['helper', 'in-process'])('step slots shared by tenants (%s)', (mode) => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const groups: GroupProcess[] = [];
  beforeEach(async () => {
    ({ dir, cleanup } = await tempDir());
  });
  afterEach(async () => {
    for (const group of groups.splice(0)) group.terminate();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await cleanup();
  });

  function spawner(slots: number) {
    const order: string[] = [];
    const spawns = new StepSpawner(mode, slots);
    // in process, spawnGroup answers once the step has a slot: keep the promise, not the group
    const spawn = (label: string, tenant: string | undefined, seconds: number) => {
      const group = spawns.spawnGroup('sh', ['-c', `sleep ${seconds}`], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '' },
        killGraceMs: 100,
        ...(tenant !== undefined ? { tenant } : {}),
      });
      void group.then((g) => groups.push(g));
      const started = group.then((g) => g.started);
      void started.then((yes) => yes && order.push(label));
      return {
        started,
        done: group.then((g) => g.done),
        terminate: () => void group.then((g) => g.terminate()),
      };
    };
    return { order, spawn };
  }

  it("starts another tenant's step at once while one tenant holds every slot", async () => {
    const { order, spawn } = spawner(2);
    const a = [spawn('a1', 'org-a', 30), spawn('a2', 'org-a', 30), spawn('a3', 'org-a', 30)];
    await Promise.all([a[0]!.started, a[1]!.started]);
    const before = Date.now();
    const b = spawn('b1', 'org-b', 0);
    expect(await b.started).toBe(true);
    expect(Date.now() - before).toBeLessThan(1000);
    expect((await b.done).exitCode).toBe(0);
    // b's step borrowed a slot (its share of one); a's third still waits for one of a's own
    expect(order).toEqual(['a1', 'a2', 'b1']);
    a[0]!.terminate();
    expect(await a[2]!.started).toBe(true);
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  it('lets a tenant at its share wait; tenants take turns, first come first served within each', async () => {
    const { order, spawn } = spawner(1);
    const a1 = spawn('a1', 'org-a', 30);
    await a1.started;
    const a2 = spawn('a2', 'org-a', 30);
    const a3 = spawn('a3', 'org-a', 30);
    const b1 = spawn('b1', 'org-b', 30);
    await b1.started; // borrowed: b had nothing running
    const b2 = spawn('b2', 'org-b', 30);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual(['a1', 'b1']); // each tenant at its share of one, and every slot taken
    b1.terminate();
    await b2.started; // b's own slot passes to b's next
    expect(order).toEqual(['a1', 'b1', 'b2']);
    a1.terminate();
    await a2.started;
    b2.terminate();
    a2.terminate();
    await a3.started;
    expect(order).toEqual(['a1', 'b1', 'b2', 'a2', 'a3']);
  });

  it('keeps one FIFO queue for steps without a tenant', async () => {
    const { order, spawn } = spawner(1);
    const first = spawn('1', undefined, 30);
    await first.started;
    const second = spawn('2', undefined, 30);
    const third = spawn('3', undefined, 0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual(['1']);
    first.terminate();
    await second.started;
    second.terminate();
    await third.done;
    expect(order).toEqual(['1', '2', '3']);
  });
});
