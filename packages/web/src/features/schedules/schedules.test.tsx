import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BACKUP_SCHEDULE_NAME_RULE_MESSAGE, type Schedule } from '@slipway/contracts';
import { renderApp } from '../../test/app';
import { samplePipeline } from '../../test/pipelines-peer';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { forwardTriggers, startTriggersPeer, type TriggersPeer } from '../webhooks/triggers-peer';
import { describeFrequency, timeZoneOptions } from './schedule-format';

const ctx = withSignedInPeer();
let triggers: TriggersPeer;
let restore: () => void;

beforeAll(async () => {
  triggers = await startTriggersPeer((id) => ctx.peer.pipelines.pipelines.find((p) => p.id === id)?.name);
});
afterAll(() => triggers.close());
beforeEach(() => {
  restore = forwardTriggers(triggers);
  ctx.peer.pipelines.pipelines.splice(0, Infinity, samplePipeline({ id: 'pl-1', name: 'hello' }));
  triggers.state.schedules = [];
  triggers.state.requests.length = 0;
});
afterEach(() => restore());

function seedSchedule(patch: Partial<Schedule> = {}): Schedule {
  const s: Schedule = {
    id: 'sc-1',
    name: 'nightly',
    pipelineId: 'pl-1',
    pipelineName: 'hello',
    frequency: 'daily',
    minute: null,
    time: '02:00',
    dayOfWeek: null,
    cron: null,
    expression: '0 2 * * *',
    timeZone: 'Europe/London',
    params: {},
    timeoutHours: 1,
    enabled: true,
    nextRunAt: '2026-05-02T01:00:00.000Z',
    lastRunAt: '2026-05-01T01:00:00.000Z',
    lastRunId: 'run-7',
    lastError: null,
    createdAt: '2026-04-01T00:00:00.000Z',
    updatedAt: '2026-04-01T00:00:00.000Z',
    ...patch,
  };
  triggers.state.schedules.push(s);
  return s;
}

async function choose(
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  field: string,
  option: string,
) {
  await user.click(within(dialog).getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('schedules page', () => {
  it('creates a weekly schedule in a time zone, with params', async () => {
    renderApp('/schedules');
    expect(await screen.findByText('No schedules yet', {}, opts)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New schedule' });
    await user.type(within(dialog).getByLabelText('Name'), 'weekly-release');
    await choose(user, dialog, 'Pipeline', 'hello');
    await choose(user, dialog, 'Frequency', 'Weekly');
    await choose(user, dialog, 'Day', 'Friday');
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '18:30' } });
    const zone = within(dialog).getByRole('combobox', { name: 'Time zone' });
    await user.clear(zone);
    await user.type(zone, 'Asia/Tok');
    await user.click(await screen.findByRole('option', { name: 'Asia/Tokyo' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add param' }));
    await user.type(within(dialog).getByLabelText('Param name'), 'target');
    await user.type(within(dialog).getByLabelText('Value'), 'prod');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const row = await screen.findByTestId('schedule-row', {}, opts);
    expect(row.textContent).toContain('weekly-release');
    expect(row.textContent).toContain('Weekly on Friday at 18:30');
    expect(row.textContent).toContain('Asia/Tokyo');
    expect(triggers.calls('POST', '/api/schedules').at(-1)!.body).toEqual({
      name: 'weekly-release',
      pipelineId: 'pl-1',
      frequency: 'weekly',
      minute: null,
      time: '18:30',
      dayOfWeek: 5,
      cron: null,
      timeZone: 'Asia/Tokyo',
      timeoutHours: 1,
      enabled: true,
      params: { target: 'prod' },
    });
  });

  it("explains the name rule and a missing cron expression, and shows the server's refusal", async () => {
    seedSchedule({ name: 'taken' });
    renderApp('/schedules');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New schedule' }, opts));
    const dialog = await screen.findByRole('dialog', { name: 'New schedule' });
    await user.type(within(dialog).getByLabelText('Name'), 'Nightly Build');
    await choose(user, dialog, 'Pipeline', 'hello');
    await choose(user, dialog, 'Frequency', 'Cron expression');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(BACKUP_SCHEDULE_NAME_RULE_MESSAGE)).toBeTruthy();
    expect(within(dialog).getByText('Cron expression required')).toBeTruthy();
    expect(triggers.calls('POST', '/api/schedules')).toHaveLength(0);

    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'taken');
    await user.type(within(dialog).getByRole('textbox', { name: 'Cron expression' }), '0 2 * * 1-5');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await within(dialog).findByRole('alert', {}, opts)).textContent).toBe(
      'A schedule with this name already exists',
    );
  });

  it('edits the frequency, disables, links the last run and deletes after confirmation', async () => {
    seedSchedule();
    renderApp('/schedules');
    const row = await screen.findByTestId('schedule-row', {}, opts);
    expect(row.textContent).toContain('Daily at 02:00');
    expect(within(row).getByRole('link').getAttribute('href')).toBe('/pipelines/runs/run-7');
    const user = userEvent.setup();
    const actions = () => user.click(screen.getByRole('button', { name: 'Actions for schedule nightly' }));

    await actions();
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit schedule nightly' });
    await choose(user, dialog, 'Frequency', 'Hourly');
    const minute = within(dialog).getByLabelText('Minute past the hour');
    await user.clear(minute);
    await user.type(minute, '15');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(
      () => expect(screen.getByTestId('schedule-row').textContent).toContain('Hourly at minute 15'),
      opts,
    );
    expect(triggers.calls('PUT', '/api/schedules/sc-1').at(-1)!.body).toMatchObject({
      frequency: 'hourly',
      minute: 15,
      time: null,
      dayOfWeek: null,
    });

    await actions();
    await user.click(await screen.findByRole('menuitem', { name: 'Disable' }));
    await waitFor(() => expect(screen.getByTestId('schedule-row').textContent).toContain('Disabled'), opts);
    expect(screen.getByTestId('schedule-row').textContent).toContain('—');

    await actions();
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const ask = await screen.findByRole('dialog', { name: 'Delete schedule nightly?' });
    await user.click(within(ask).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No schedules yet', {}, opts)).toBeTruthy();
    expect(triggers.calls('DELETE', '/api/schedules/sc-1')).toHaveLength(1);
  });

  it('shows why the last due run could not start, and nothing when the last one started', async () => {
    seedSchedule({
      lastRunId: null,
      lastRunAt: '2026-05-01T01:00:00.000Z',
      lastError: 'the run could not start: params.region: the param "region" is required',
    });
    seedSchedule({ id: 'sc-2', name: 'healthy' });
    renderApp('/schedules');
    const rows = await screen.findAllByTestId('schedule-row', {}, opts);
    expect(rows).toHaveLength(2);
    const broken = rows.find((r) => r.textContent?.includes('nightly'))!;
    expect(within(broken).getByTestId('schedule-last-error').textContent).toBe(
      'Last error: the run could not start: params.region: the param "region" is required',
    );
    expect(within(broken).queryByRole('link')).toBeNull();
    const healthy = rows.find((r) => r.textContent?.includes('healthy'))!;
    expect(within(healthy).queryByTestId('schedule-last-error')).toBeNull();
  });

  it('describes frequencies and offers IANA time zones', () => {
    const t = ((key: string, v?: Record<string, string>) => `${key}${v ? JSON.stringify(v) : ''}`) as never;
    expect(
      describeFrequency(
        { frequency: 'cron', cron: '0 2 * * 1-5', minute: null, time: null, dayOfWeek: null },
        t,
      ),
    ).toBe('schedules.describe.cron{"cron":"0 2 * * 1-5"}');
    const zones = timeZoneOptions();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/London');
    expect(new Set(zones).size).toBe(zones.length);
  });
});
