import type { AuditEventInput } from '../../platform/audit-recorder.js';
import { copyOf } from '../../platform/database/fake-rows.js';
import type { AuditEvent, AuditFilter, AuditStore } from './audit-store.js';

/**
 * The audit trail in memory, append-only as the SQL one is, answering the same filter: an
 * organisation sees its own events, plus events recorded before anyone was signed in (no
 * organisation) whose actor label is one of its members' e-mails; an actor is matched by id or,
 * on such events, by e-mail. Members are told with addMember.
 */
export class FakeAuditStore implements AuditStore {
  private readonly events: AuditEvent[] = [];
  private readonly emails = new Map<string, string>();
  private readonly members = new Map<string, Set<string>>();
  private nextId = 1;

  constructor(private readonly clock: () => Date = () => new Date()) {}

  addMember(organisationId: string, person: { id: string; email: string }): void {
    this.emails.set(person.id, person.email);
    const set = this.members.get(organisationId) ?? new Set<string>();
    set.add(person.id);
    this.members.set(organisationId, set);
  }

  async append(event: AuditEventInput) {
    this.events.push({ ...copyOf(event), id: this.nextId++, at: this.clock() });
  }

  async list(filter: AuditFilter, window: { start: number; end: number; order: 'ASC' | 'DESC' }) {
    const matching = this.events.filter((e) => this.matches(e, filter));
    const ordered = window.order === 'ASC' ? matching : [...matching].reverse();
    return { rows: ordered.slice(window.start, window.end).map(copyOf), total: matching.length };
  }

  async scan(filter: AuditFilter, afterId: number, limit: number) {
    return this.events
      .filter((e) => e.id > afterId && this.matches(e, filter))
      .slice(0, limit)
      .map(copyOf);
  }

  private matches(e: AuditEvent, f: AuditFilter): boolean {
    const memberEmails = [...(this.members.get(f.organisationId) ?? [])].map((id) => this.emails.get(id));
    const label = e.actorLabel?.toLowerCase();
    const seen =
      e.organisationId === f.organisationId ||
      (e.organisationId === null && label !== undefined && memberEmails.includes(label));
    if (!seen) return false;
    if (f.workspaceId && e.workspaceId !== f.workspaceId) return false;
    if (f.actorId && e.actorId !== f.actorId && !(e.actorId === null && label === this.emails.get(f.actorId)))
      return false;
    if (f.action && e.action !== f.action) return false;
    if (f.targetType && e.targetType !== f.targetType) return false;
    if (f.targetId && e.targetId !== f.targetId) return false;
    if (f.outcome && e.outcome !== f.outcome) return false;
    if (f.from && e.at.getTime() < f.from.getTime()) return false;
    if (f.to && e.at.getTime() >= f.to.getTime()) return false;
    return true;
  }
}
