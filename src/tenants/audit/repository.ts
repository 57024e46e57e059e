// The operator audit log: one row per action, written with the action's own transaction (the caller
// passes its transaction's Store), read newest first with a keyset cursor (ids are UUIDv7).
import type { Kysely, Selectable } from 'kysely'
import { v7 as uuidv7 } from 'uuid'
import { parseJson } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { OperatorAuditTable } from '../tables.js'
import type {
  Actor,
  ActorKind,
  AuditAction,
  AuditEntry,
  AuditNote,
  AuditSummary,
  AuditTargetType,
} from './operator-audit.js'

export interface AuditFilter {
  targetType?: AuditTargetType
  targetId?: string
  action?: AuditAction
  actor?: string
  /** Inclusive. */
  since?: string
  /** Exclusive. */
  until?: string
  before?: string
  limit: number
}

function toEntry(r: Selectable<OperatorAuditTable>): AuditEntry {
  return {
    id: r.id,
    at: r.at,
    actor: { kind: r.actor_kind as ActorKind, id: r.actor, requestId: r.request_id },
    action: r.action as AuditAction,
    targetType: r.target_type as AuditTargetType,
    targetId: r.target_id,
    summary: parseJson<AuditSummary>(r.summary),
  }
}

export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records an action by `actor`; nothing when there is none (the change was not made through an API). */
  async record(actor: Actor | undefined, note: AuditNote, at: string): Promise<void> {
    if (!actor) return
    await this.db
      .insertInto('operator_audit')
      .values({
        id: uuidv7(),
        at,
        actor_kind: actor.kind,
        actor: actor.id,
        request_id: actor.requestId,
        action: note.action,
        target_type: note.targetType,
        target_id: note.targetId,
        summary: JSON.stringify(note.summary),
      })
      .execute()
  }

  async list(f: AuditFilter): Promise<AuditEntry[]> {
    let q = this.db.selectFrom('operator_audit').selectAll()
    if (f.targetType) q = q.where('target_type', '=', f.targetType)
    if (f.targetId) q = q.where('target_id', '=', f.targetId)
    if (f.action) q = q.where('action', '=', f.action)
    if (f.actor) q = q.where('actor', '=', f.actor)
    if (f.since) q = q.where('at', '>=', f.since)
    if (f.until) q = q.where('at', '<', f.until)
    if (f.before) q = q.where('id', '<', f.before)
    const rows = await q.orderBy('id', 'desc').limit(f.limit).execute()
    return rows.map(toEntry)
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    /** The operator audit log. */
    audit: AuditRepository
  }
}
defineRepository('audit', (kysely) => new AuditRepository(kysely))
