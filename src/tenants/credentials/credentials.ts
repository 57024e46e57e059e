// Rotating a credential with an overlap window, and disabled tenants
// (docs/decisions/credentials/overlap-window.md, docs/decisions/credentials/disabled-tenants.md). Pure: the
// caller compares digests and reads the clock; this decides what the answers mean.
//
// A rotation makes a new credential current and keeps the one it replaced as "previous" until the
// window ends. One previous at most: rotating again during a window retires the older one at once
// (the credential shown at the last rotation is the one that keeps working). An overlap of 0 cuts the
// old credential off at once, as after a leak. The client secret and the organization token also
// count generations: an access token remembers the generations it was issued under and stops working
// with them.

/** The bounds of an overlap window, in seconds: 0 (cut at once) up to 7 days; 24 hours unless asked. */
export const overlapSeconds = { min: 0, max: 7 * 24 * 60 * 60, default: 24 * 60 * 60 } as const

/** When the credential was last rotated and until when the one it replaced still works. */
export interface RotationState {
  rotatedAt: string | null
  /** Null when no previous credential works: never rotated, the window ended or was ended early. */
  previousValidUntil: string | null
}

/** Whether a previous credential that works until `expiresAt` still works at `now` (ISO-8601 UTC). */
export function previousLive(expiresAt: string | null, now: string): boolean {
  return expiresAt !== null && now < expiresAt
}

/** The state shown to people: a window already over reads as no window. */
export function rotationState(
  rotatedAt: string | null,
  expiresAt: string | null,
  now: string,
): RotationState {
  return { rotatedAt, previousValidUntil: previousLive(expiresAt, now) ? expiresAt : null }
}

/** Until when the replaced credential keeps working after a rotation at `now`; null: cut off at once. */
export function overlapEnd(now: Date, seconds: number): string | null {
  return seconds <= 0 ? null : new Date(now.getTime() + seconds * 1000).toISOString()
}

/** Which of a rotating credential's two values a caller presented, and whether that one still works. */
export type CredentialMatch = 'current' | 'previous' | 'none'

export function matchCredential(
  presented: { current: boolean; previous: boolean },
  previousExpiresAt: string | null,
  now: string,
): CredentialMatch {
  if (presented.current) return 'current'
  if (presented.previous && previousLive(previousExpiresAt, now)) return 'previous'
  return 'none'
}

/** A credential that counts its rotations: its generation now and until when the one before works. */
export interface Generation {
  version: number
  previousExpiresAt: string | null
}

/** The generation a caller's credential belongs to, by which of the two values it matched. */
export function generationOf(match: Exclude<CredentialMatch, 'none'>, g: Generation): number {
  return match === 'current' ? g.version : g.version - 1
}

/** Whether something issued under generation `issued` (an access token) still works at `now`. */
export function generationLive(issued: number, g: Generation, now: string): boolean {
  if (issued === g.version) return true
  return issued === g.version - 1 && previousLive(g.previousExpiresAt, now)
}

/** A disabled tenant: since when and, if the operator gave one, why. */
export interface Disabled {
  at: string
  reason: string | null
}

export type TenantKind = 'vendor' | 'partner'

/** Whether the vendor and the partner of an integration are disabled. */
export interface TenantState {
  vendorId: string
  partnerId: string
  vendorDisabled: Disabled | null
  partnerDisabled: Disabled | null
}

/** Why work of this integration must wait, and the key it waits on (the tenant to re-enable); null: it may run. */
export function tenantHold(s: TenantState): { key: string; reason: string } | null {
  if (s.vendorDisabled) return { key: holdKey('vendor', s.vendorId), reason: 'the vendor is disabled' }
  if (s.partnerDisabled) return { key: holdKey('partner', s.partnerId), reason: 'the partner is disabled' }
  return null
}

export const holdKey = (kind: TenantKind, id: string): string => `${kind}:${id}`

/** The sentence a disabled tenant's caller reads. */
export function disabledDetail(kind: TenantKind, d: Disabled, whose: 'own' | 'integration'): string {
  const who = whose === 'own' ? `This ${kind}` : `The ${kind} of this integration`
  const why = d.reason ? ` (${d.reason})` : ''
  return `${who} was disabled by the operator at ${d.at}${why}; nothing is accepted until it is enabled again.`
}
