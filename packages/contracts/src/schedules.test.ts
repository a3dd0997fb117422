import { describe, expect, it } from 'vitest';
import { isTimeZone, scheduleCreateSchema, scheduleCron, scheduleTimingIssues } from './schedules.js';

describe('schedule contracts', () => {
  it('turns each frequency into its five-field cron expression', () => {
    expect(scheduleCron({ frequency: 'hourly', minute: 5 })).toBe('5 * * * *');
    expect(scheduleCron({ frequency: 'daily', time: '06:45' })).toBe('45 6 * * *');
    expect(scheduleCron({ frequency: 'weekly', time: '18:30', dayOfWeek: 5 })).toBe('30 18 * * 5');
    expect(scheduleCron({ frequency: 'cron', cron: ' 0  2 * * 1-5 ' })).toBe('0 2 * * 1-5');
  });

  it('names the field each frequency needs', () => {
    expect(scheduleTimingIssues({ frequency: 'weekly', time: '10:00' })).toEqual([
      { path: 'dayOfWeek', message: 'Day required' },
    ]);
    expect(scheduleTimingIssues({ frequency: 'hourly', minute: 0 })).toEqual([]);
    const parsed = scheduleCreateSchema.safeParse({ name: 'x', pipelineId: 'p', frequency: 'daily' });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['time', 'Time required'],
    ]);
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
