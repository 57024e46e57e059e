// The simulated NinjaOne's state (server.ts): its API application, the grants and tokens it issued,
// organizations, ticket forms, statuses, boards, tickets with their log entries, and the webhook.

export interface NinjaStatus {
  statusId: number
  name: string
  displayName: string
  parentId: number | null
}

export interface NinjaLogEntry {
  id: number
  type: 'COMMENT' | 'DESCRIPTION' | 'SAVE' | 'DELETE'
  body: string
  publicEntry: boolean
  system: boolean
  createTime: number
  timeTracked: number
  /** Who wrote it: the API user (alertbridge) or a technician. */
  appUserContactId: number
}

export interface NinjaTicket {
  id: number
  version: number
  clientId: number
  ticketFormId: number
  subject: string
  statusId: number
  type: string | null
  priority: string
  severity: string
  tags: string[]
  /** Epoch seconds. */
  createTime: number
  /** Epoch seconds: the last change (a board's `lastUpdated` column). */
  lastUpdated: number
  deleted: boolean
  requesterUid: string | null
  totalTimeTracked: number
  log: NinjaLogEntry[]
}

export interface NinjaWebhook {
  url: string
  activities: Record<string, string[]>
  headers: { name: string; value: string }[]
}

export interface NinjaState {
  credentials: { clientId: string; clientSecret: string; refreshToken: string }
  /** Refresh tokens issued: live, or spent (a rotated one is refused afterwards). */
  refreshTokens: Record<string, 'live' | 'spent'>
  /** Whether a refresh answers a new refresh token (and spends the one used). */
  rotate: boolean
  /** Access tokens: when each expires (ms) and whether a user stands behind it. */
  accessTokens: Record<string, { expiresAt: number; user: boolean }>
  /** Authorization codes waiting to be exchanged, with their PKCE challenge and redirect URI. */
  codes: Record<string, { challenge: string; redirectUri: string; expiresAt: number }>
  tokenLifetimeSeconds: number
  /** Answer this many API calls with an HTML "rate limit" page (HTTP 200) instead. */
  htmlRateLimit: number
  organizations: { id: number; name: string; description: string }[]
  forms: { id: number; name: string; default: boolean }[]
  statuses: NinjaStatus[]
  boards: { id: number; name: string; system: boolean }[]
  tickets: NinjaTicket[]
  webhook: NinjaWebhook | null
  nextId: { ticket: number; log: number }
}

/** The API user alertbridge's token stands for, and the technician a test acts as. */
export const apiUserId = 42
export const technicianId = 7
