import type { ScheduleRow } from './schedules-store.js';
import type { SchedulesStore } from './schedules-store-type.js';
import { timingOf } from './schedules-service.js';
import { nextOccurrence } from './schedule-timing.js';

/** The reason as the schedule shows it: the error's own message (a validation error names the field). */
function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}

export interface SchedulerOptions {
  store: SchedulesStore;
  /** starts the schedule's run; answers its id */
  start(schedule: ScheduleRow): Promise<{ id: string }>;
  /** the clock; tests move it */
  now?: () => Date;
  tickMs?: number;
  batch?: number;
  onError?: (error: unknown, scheduleId?: string) => void;
}

/**
 * Fires due schedules. Each tick claims the schedules whose next_run_at has come (FOR UPDATE SKIP
 * LOCKED), moves next_run_at to the first occurrence after now, commits, then starts one run per
 * claimed schedule. However many occurrences were missed while no scheduler ran, a schedule fires
 * once (the catch-up run) and then keeps to its timetable: never a burst.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private readonly now: () => Date;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass: fires every due schedule (in batches) and answers how many runs started. */
  async tick(): Promise<number> {
    const batch = this.options.batch ?? 50;
    let started = 0;
    for (;;) {
      const now = this.now();
      const stalled = new Map<string, string>();
      const claimed = await this.options.store.claimDue(now, batch, (row) => {
        try {
          return nextOccurrence(timingOf(row), row.timeZone, now);
        } catch (err) {
          // a timing that no longer parses stops firing rather than blocking every other schedule
          this.options.onError?.(err, row.id);
          stalled.set(row.id, `the timing no longer works, so the schedule stopped: ${messageOf(err)}`);
          return null;
        }
      });
      for (const schedule of claimed) {
        try {
          const run = await this.options.start(schedule);
          await this.options.store.recordRun(schedule.id, run.id);
          started++;
          if (stalled.has(schedule.id))
            await this.options.store.recordError(schedule.id, stalled.get(schedule.id)!);
        } catch (err) {
          this.options.onError?.(err, schedule.id);
          const stall = stalled.has(schedule.id) ? `; ${stalled.get(schedule.id)!}` : '';
          await this.options.store
            .recordError(schedule.id, `the run could not start: ${messageOf(err)}${stall}`)
            .catch((recordErr: unknown) => this.options.onError?.(recordErr, schedule.id));
        }
      }
      if (claimed.length < batch) return started;
    }
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .then(() => undefined)
        .catch((err) => this.options.onError?.(err))
        .finally(() => this.schedule(this.options.tickMs ?? 5_000));
    }, delay);
    this.timer.unref?.();
  }
}
