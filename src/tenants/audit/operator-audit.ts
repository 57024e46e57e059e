// The operator audit log (docs/decisions/credentials/operator-audit-log.md): who did what to which tenant,
// and when. Every operator write lands here in the transaction of the write itself; so do a vendor's or
// partner's rotations of its own credentials (they change what the operator sees). A summary names what
// changed, never a secret.

export const auditActions = [
  'vendor.create',
  'vendor.update',
  'vendor.disable',
  'vendor.enable',
  'vendor.client_secret.rotate',
  'vendor.client_secret.end_overlap',
  'vendor.webhook_secret.rotate',
  'vendor.webhook_secret.end_overlap',
  'vendor.token.revoke',
  'vendor.tokens.revoke_all',
  'partner.create',
  'partner.update',
  'partner.disable',
  'partner.enable',
  // A vendor's test partner deleted with everything it made (docs/vendor-api.md#self-serve-test-mode).
  'partner.delete',
  'partner.api_key.rotate',
  'partner.api_key.end_overlap',
  // Who gave whom access to the partner portal (by the operator or the partner itself;
  // docs/decisions/portal/user-changes-audited.md).
  'partner.user.invite',
  'partner.user.update',
  'partner.user.reset',
  'partner.user.remove',
  'integration.create',
  'integration.update',
  'integration.org_token.rotate',
  'integration.org_token.end_overlap',
  'delivery.replay',
  'deliveries.replay_dead',
] as const
export type AuditAction = (typeof auditActions)[number]

export const auditTargetTypes = ['vendor', 'partner', 'integration', 'delivery'] as const
export type AuditTargetType = (typeof auditTargetTypes)[number]

export const actorKinds = ['operator', 'vendor', 'partner'] as const
export type ActorKind = (typeof actorKinds)[number]

/** Who acted: the kind of caller and a stable identifier of the credential it used (never the credential). */
export interface Actor {
  kind: ActorKind
  id: string
  /** The request that carried the action, to find it in the logs. */
  requestId: string | null
}

export type AuditValue = string | number | boolean | null | readonly string[]
export type AuditSummary = Readonly<Record<string, AuditValue>>

/** What an action did, as its service describes it. */
export interface AuditNote {
  action: AuditAction
  targetType: AuditTargetType
  targetId: string
  summary: AuditSummary
}

export interface AuditEntry extends AuditNote {
  id: string
  at: string
  actor: Actor
}

/** The fields a change set, by name only: what a summary may say about input that can hold secrets. */
export function fieldsSet(input: object): string[] {
  return Object.entries(input)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k)
    .sort()
}

/** A URL as a summary may show it: scheme, host and port only (paths and queries can carry tokens). */
export function originOf(url: string | null | undefined): string | null | undefined {
  if (url === undefined || url === null) return url
  try {
    return new URL(url).origin
  } catch {
    return '(not a URL)'
  }
}
