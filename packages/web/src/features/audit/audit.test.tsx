import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/app';
import { opts, withSignedInPeer } from '../../test/settings-peer';
import { exportPath, listParams, NO_FILTERS } from './audit-query';

const ctx = withSignedInPeer();

describe('audit trails', () => {
  it('asks for the chosen date range and outcome, a page at a time', async () => {
    ctx.peer.org.audit = [
      {
        id: 1,
        at: '2025-05-01T10:00:00Z',
        organisationId: 'org-1',
        workspaceId: null,
        actorType: 'user',
        actorId: 'u1',
        actorLabel: 'ada@example.com',
        action: 'member.invite',
        targetType: 'invite',
        targetId: 'inv-1',
        ip: '127.0.0.1',
        userAgent: null,
        fingerprint: null,
        outcome: 'success',
        statusCode: 201,
        detail: null,
      },
    ];
    renderApp('/audit-trails');
    expect((await screen.findByTestId('audit-row', {}, opts)).textContent).toContain('member.invite');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Date range' }));
    await user.click(await screen.findByRole('option', { name: 'Last month' }));
    await user.click(screen.getByRole('combobox', { name: 'Outcome' }));
    await user.click(await screen.findByRole('option', { name: 'Denied' }));
    await screen.findByTestId('audit-row', {}, opts);
    await waitFor(() => expect(ctx.peer.calls('GET', '/api/audit').at(-1)!.query.outcome).toBe('denied'));
    expect(ctx.peer.calls('GET', '/api/audit').at(-1)!.query).toEqual({
      range: 'last_month',
      outcome: 'denied',
      _start: '0',
      _end: '25',
      _order: 'DESC',
    });
    // the Time header turns the trail oldest first
    await user.click(
      within(screen.getByRole('columnheader', { name: 'Time' })).getByRole('button', { name: 'Time' }),
    );
    await waitFor(() => expect(ctx.peer.calls('GET', '/api/audit').at(-1)!.query._order).toBe('ASC'), opts);
    expect(screen.getByRole('columnheader', { name: 'Time' }).getAttribute('aria-sort')).toBe('ascending');
  });
});

describe('audit query', () => {
  it('sends only the filters that are set, and the same ones to the export', () => {
    const filters = { ...NO_FILTERS, range: 'this_year' as const, action: ' role.create ' };
    expect(listParams(filters, 2, 25)).toEqual({
      range: 'this_year',
      action: 'role.create',
      _start: '50',
      _end: '75',
      _order: 'DESC',
    });
    expect(exportPath(filters)).toBe('audit/export.csv?range=this_year&action=role.create');
    expect(exportPath(NO_FILTERS)).toBe('audit/export.csv');
  });
});
