import { describe, expect, it } from 'vitest';
import { fairShare, Semaphore, type Release } from './concurrency.js';

/** Acquires for a tenant and records the order in which grants happen. */
function asker(limiter: Semaphore, order: string[]) {
  return (tenant: string, label = tenant, signal?: AbortSignal) =>
    limiter.acquire(signal, tenant).then((release) => {
      order.push(label);
      return release;
    });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('fairShare', () => {
  it('is max(1, floor(limit / tenants with work))', () => {
    expect(fairShare(2, 1)).toBe(2);
    expect(fairShare(2, 2)).toBe(1);
    expect(fairShare(2, 3)).toBe(1);
    expect(fairShare(16, 3)).toBe(5);
    expect(fairShare(4, 0)).toBe(4);
  });
});

describe('Semaphore shared by tenants', () => {
  it('behaves as a FIFO semaphore with one tenant', async () => {
    const limiter = new Semaphore(2);
    const order: string[] = [];
    const ask = asker(limiter, order);
    const held = [await ask('a', 'a1'), await ask('a', 'a2')];
    const waiting = [ask('a', 'a3'), ask('a', 'a4'), ask('a', 'a5')];
    await settle();
    expect([limiter.inFlight, limiter.waiting]).toEqual([2, 3]);
    held[0]!();
    held[1]!();
    const next = await Promise.all(waiting.slice(0, 2));
    expect([limiter.inFlight, limiter.waiting]).toEqual([2, 1]);
    next.forEach((release) => release());
    (await waiting[2]!)();
    expect(order).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
    expect([limiter.inFlight, limiter.waiting]).toEqual([0, 0]);
  });

  it('lets a tenant with nothing running borrow a slot while another holds every one', async () => {
    const limiter = new Semaphore(2);
    const order: string[] = [];
    const ask = asker(limiter, order);
    const a = [await ask('a', 'a1'), await ask('a', 'a2')];
    const a3 = ask('a', 'a3');
    // b's fair share with two tenants is 1 and it holds none: it goes at once, over the limit
    const b1 = await ask('b', 'b1');
    expect(limiter.inFlight).toBe(3);
    expect(limiter.heldByTenant('b')).toBe(1);
    // b's second waits: it is at its share and every slot is taken
    const b2 = ask('b', 'b2');
    await settle();
    expect(order).toEqual(['a1', 'a2', 'b1']);
    // a's slot frees: 2 held < 2? no — 3 - 1 = 2 held, a holds 1 = its share: nobody may go
    a[0]!();
    await settle();
    expect(order).toEqual(['a1', 'a2', 'b1']);
    // another of a's frees: 1 held < 2, and it is a's turn before b's second? b asked after a3;
    // tenants take turns from the order they queued in: a (a3) first
    a[1]!();
    await settle();
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3']);
    b1();
    await b2;
    expect(order).toEqual(['a1', 'a2', 'b1', 'a3', 'b2']);
    (await a3)();
    (await b2)();
    expect([limiter.inFlight, limiter.waiting]).toEqual([0, 0]);
  });

  it('serves the tenants that may go in turn, first come first served within each', async () => {
    const limiter = new Semaphore(2);
    const order: string[] = [];
    const ask = asker(limiter, order);
    const releases = new Map<string, Release>();
    const keep = (label: string, p: Promise<Release>) => void p.then((r) => releases.set(label, r));
    const free = async (label: string) => {
      releases.get(label)!();
      await settle();
    };
    keep('a1', ask('a', 'a1'));
    keep('a2', ask('a', 'a2'));
    keep('a3', ask('a', 'a3'));
    keep('a4', ask('a', 'a4'));
    keep('b1', ask('b', 'b1'));
    keep('b2', ask('b', 'b2'));
    keep('b3', ask('b', 'b3'));
    await settle();
    expect(order).toEqual(['a1', 'a2', 'b1']); // b borrows its share of one
    await free('b1'); // b below its share again
    expect(order).toEqual(['a1', 'a2', 'b1', 'b2']);
    await free('a1'); // 2 held (a2, b2): nobody is below the limit or its share
    expect(order).toHaveLength(4);
    await free('a2'); // 1 held: a's turn (it queued first)
    expect(order.at(-1)).toBe('a3');
    // then b's turn; with a holding none now, a's next borrows its share of one as well
    await free('a3');
    expect(order.slice(-2)).toEqual(['b3', 'a4']);
    expect(limiter.inFlight).toBe(3);
    await free('b2');
    await free('b3');
    await free('a4');
    expect(order).toEqual(['a1', 'a2', 'b1', 'b2', 'a3', 'b3', 'a4']);
    expect([limiter.inFlight, limiter.waiting]).toEqual([0, 0]);
  });

  it('drops an aborted waiter and lets the others share again', async () => {
    const limiter = new Semaphore(2);
    const order: string[] = [];
    const ask = asker(limiter, order);
    const a = [await ask('a'), await ask('a')];
    const controller = new AbortController();
    const b = await ask('b');
    const b2 = ask('b', 'b2', controller.signal);
    controller.abort('gone');
    await expect(b2).rejects.toBe('gone');
    expect(limiter.waiting).toBe(0);
    [...a, b].forEach((release) => release());
    expect(limiter.inFlight).toBe(0);
  });

  it('bounds the total by the limit plus the number of tenants', async () => {
    const limiter = new Semaphore(4);
    let now = 0;
    let max = 0;
    const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
    await Promise.all(
      ['a', 'b', 'c'].flatMap((tenant) =>
        Array.from({ length: 10 }, () =>
          limiter.run(
            async () => {
              max = Math.max(max, ++now);
              await tick();
              now -= 1;
            },
            undefined,
            tenant,
          ),
        ),
      ),
    );
    expect(max).toBeLessThanOrEqual(4 + 3);
    expect(max).toBeGreaterThanOrEqual(4);
    expect(limiter.inFlight).toBe(0);
  });
});
