export type AuditOutcome = 'success' | 'failure' | 'denied';

export interface AuditEventInput {
  organisationId: string | null;
  workspaceId: string | null;
  actorType: 'user' | 'service_account' | 'anonymous';
  actorId: string | null;
  actorLabel: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  fingerprint: string | null;
  outcome: AuditOutcome;
  statusCode: number | null;
  detail: Record<string, unknown> | null;
}

/** Where the audit trail is written; the audit feature's SqlAuditStore implements it. */
export interface AuditRecorder {
  append(event: AuditEventInput): Promise<void>;
}
