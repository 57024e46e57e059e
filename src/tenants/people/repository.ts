// The partner portal's users and their sessions (docs/partner-api.md#portal-users-and-sessions). Emails are
// stored trimmed and lower-cased by the caller; invite tokens and session cookies only as digests.
import { type Kysely, type Selectable, sql, type Updateable } from 'kysely'
import type { CreatedKey, KeyPage } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { PartnerUsersTable } from '../tables.js'
import type { PortalRole, PortalUser } from './portal.js'

function toUser(r: Selectable<PartnerUsersTable>): PortalUser {
  return {
    id: r.id,
    partnerId: r.partner_id,
    email: r.email,
    name: r.name,
    role: r.role as PortalRole,
    hasPassword: r.password_hash !== null,
    invite:
      r.invite_digest !== null && r.invite_expires_at !== null ? { expiresAt: r.invite_expires_at } : null,
    disabledAt: r.disabled_at,
    lastSignInAt: r.last_sign_in_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }
}

export interface NewPortalUser {
  id: string
  partnerId: string
  email: string
  name: string | null
  role: PortalRole
  inviteDigest: string
  inviteExpiresAt: string
  now: string
}

export interface PortalUserPatch {
  name?: string | null
  role?: PortalRole
  disabledAt?: string | null
  passwordHash?: string | null
  /** A new invite (a reset), or null once it is accepted. */
  invite?: { digest: string; expiresAt: string } | null
  lastSignInAt?: string
}

/** One of a user's sessions, as its user sees it. */
export interface UserSession {
  id: string
  createdAt: string
  expiresAt: string
  lastSeenAt: string
  userAgent: string | null
  address: string | null
}

/** A session with what each request needs of its user and partner. */
export interface StoredSession {
  id: string
  createdAt: string
  expiresAt: string
  lastSeenAt: string
  user: PortalUser
  partnerDisabled: { at: string; reason: string | null } | null
}

export class PortalUserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the user; false when its email is taken (by a user of any partner). */
  async insert(u: NewPortalUser): Promise<boolean> {
    const r = await this.db
      .insertInto('partner_users')
      .values({
        id: u.id,
        partner_id: u.partnerId,
        email: u.email,
        name: u.name,
        role: u.role,
        password_hash: null,
        invite_digest: u.inviteDigest,
        invite_expires_at: u.inviteExpiresAt,
        disabled_at: null,
        last_sign_in_at: null,
        created_at: u.now,
        updated_at: u.now,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst()
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1
  }

  async findById(id: string): Promise<PortalUser | null> {
    const r = await this.db.selectFrom('partner_users').selectAll().where('id', '=', id).executeTakeFirst()
    return r ? toUser(r) : null
  }

  /** The user with this (normalised) email, and its password hash. */
  async findByEmail(email: string): Promise<{ user: PortalUser; passwordHash: string | null } | null> {
    const r = await this.db
      .selectFrom('partner_users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst()
    return r ? { user: toUser(r), passwordHash: r.password_hash } : null
  }

  async findByInviteDigest(digest: string): Promise<PortalUser | null> {
    const r = await this.db
      .selectFrom('partner_users')
      .selectAll()
      .where('invite_digest', '=', digest)
      .executeTakeFirst()
    return r ? toUser(r) : null
  }

  /** A partner's users in the order they were invited. */
  async list(partnerId: string, page: KeyPage<CreatedKey>): Promise<PortalUser[]> {
    let q = this.db.selectFrom('partner_users').selectAll().where('partner_id', '=', partnerId)
    if (page.after) {
      const [createdAt, id] = page.after
      q = q.where((eb) =>
        eb.or([
          eb('created_at', '>', createdAt),
          eb.and([eb('created_at', '=', createdAt), eb('id', '>', id)]),
        ]),
      )
    }
    const rows = await q.orderBy('created_at').orderBy('id').limit(page.limit).execute()
    return rows.map(toUser)
  }

  /** The partner's admins that are not disabled. */
  async activeAdmins(partnerId: string): Promise<{ id: string }[]> {
    return this.db
      .selectFrom('partner_users')
      .select('id')
      .where('partner_id', '=', partnerId)
      .where('role', '=', 'admin')
      .where('disabled_at', 'is', null)
      .execute()
  }

  /**
   * Serialises changes to one partner's users until the transaction ends: on PostgreSQL the partner's
   * row is locked (two admins demoting each other at once cannot both pass the last-admin guard);
   * SQLite has one writer. Call first in the transaction.
   */
  async lockPartner(partnerId: string): Promise<void> {
    await this.db
      .updateTable('partners')
      .set({ updated_at: sql<string>`updated_at` })
      .where('id', '=', partnerId)
      .execute()
  }

  /** Changes the user; a sign-in alone (lastSignInAt, a rehash) leaves updated_at as it was. */
  async update(id: string, patch: PortalUserPatch, now: string): Promise<void> {
    const set: Updateable<PartnerUsersTable> =
      patch.name !== undefined ||
      patch.role !== undefined ||
      patch.disabledAt !== undefined ||
      patch.invite !== undefined
        ? { updated_at: now }
        : {}
    if (patch.name !== undefined) set.name = patch.name
    if (patch.role !== undefined) set.role = patch.role
    if (patch.disabledAt !== undefined) set.disabled_at = patch.disabledAt
    if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash
    if (patch.invite !== undefined) {
      set.invite_digest = patch.invite?.digest ?? null
      set.invite_expires_at = patch.invite?.expiresAt ?? null
    }
    if (patch.lastSignInAt !== undefined) set.last_sign_in_at = patch.lastSignInAt
    await this.db.updateTable('partner_users').set(set).where('id', '=', id).execute()
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('partner_users').where('id', '=', id).execute()
  }

  async insertSession(s: {
    id: string
    userId: string
    expiresAt: string
    now: string
    userAgent?: string | null
    address?: string | null
  }): Promise<void> {
    await this.db
      .insertInto('partner_sessions')
      .values({
        id: s.id,
        user_id: s.userId,
        created_at: s.now,
        expires_at: s.expiresAt,
        last_seen_at: s.now,
        user_agent: s.userAgent ?? null,
        address: s.address ?? null,
      })
      .execute()
  }

  /** The user's sessions (ended ones too, until pruned), the most recently seen first. */
  async sessionsOf(userId: string): Promise<UserSession[]> {
    const rows = await this.db
      .selectFrom('partner_sessions')
      .select(['id', 'created_at', 'expires_at', 'last_seen_at', 'user_agent', 'address'])
      .where('user_id', '=', userId)
      .orderBy('last_seen_at', 'desc')
      .orderBy('id')
      .execute()
    return rows.map((r) => ({
      id: r.id,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      lastSeenAt: r.last_seen_at,
      userAgent: r.user_agent,
      address: r.address,
    }))
  }

  /** Ends the user's sessions but `keep`; answers how many ended. */
  async deleteSessionsOfExcept(userId: string, keep: string): Promise<number> {
    const r = await this.db
      .deleteFrom('partner_sessions')
      .where('user_id', '=', userId)
      .where('id', '<>', keep)
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  async session(id: string): Promise<StoredSession | null> {
    const r = await this.db
      .selectFrom('partner_sessions as s')
      .innerJoin('partner_users as u', 'u.id', 's.user_id')
      .innerJoin('partners as p', 'p.id', 'u.partner_id')
      .selectAll('u')
      .select([
        's.id as session_id',
        's.created_at as session_created_at',
        's.expires_at',
        's.last_seen_at',
        'p.disabled_at as partner_disabled_at',
        'p.disabled_reason as partner_disabled_reason',
      ])
      .where('s.id', '=', id)
      .executeTakeFirst()
    if (!r) return null
    return {
      id: r.session_id,
      createdAt: r.session_created_at,
      expiresAt: r.expires_at,
      lastSeenAt: r.last_seen_at,
      user: toUser(r),
      partnerDisabled:
        r.partner_disabled_at === null
          ? null
          : { at: r.partner_disabled_at, reason: r.partner_disabled_reason },
    }
  }

  async touchSession(id: string, now: string): Promise<void> {
    await this.db.updateTable('partner_sessions').set({ last_seen_at: now }).where('id', '=', id).execute()
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.deleteFrom('partner_sessions').where('id', '=', id).execute()
  }

  /** Ends every session of the user; answers how many there were. */
  async deleteSessionsOf(userId: string): Promise<number> {
    const r = await this.db.deleteFrom('partner_sessions').where('user_id', '=', userId).executeTakeFirst()
    return Number(r.numDeletedRows)
  }

  /** Deletes up to `limit` sessions past their absolute end or idle since before `idleBefore`. */
  async pruneSessions(now: string, idleBefore: string, limit: number): Promise<number> {
    const r = await this.db
      .deleteFrom('partner_sessions')
      .where(
        'id',
        'in',
        this.db
          .selectFrom('partner_sessions')
          .select('id')
          .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
          .limit(limit),
      )
      .executeTakeFirst()
    return Number(r.numDeletedRows)
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    /** The partner portal's users and their sessions. */
    portalUsers: PortalUserRepository
  }
}
defineRepository('portalUsers', (kysely) => new PortalUserRepository(kysely))
