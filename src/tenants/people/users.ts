// The people of a partner who use the portal: invited by a partner admin or the operator,
// they set their password by accepting the invite. An invite token is random, shown once and stored as
// a digest; it is good for a week and once. Every change is audited (who gave whom access) and keeps
// the partner with an admin that is not disabled. Disabling or resetting a user ends its sessions; a
// role change takes effect on the user's next request (sessions read the role each time).
import { v7 as uuidv7 } from 'uuid'
import type { Clock } from '../../platform/clock.js'
import { done, notFound, ok, type Result, refuse } from '../../platform/core/result.js'
import type { CreatedKey, KeyPage } from '../../platform/db/rows.js'
import type { Store } from '../../platform/db/store.js'
import { type PasswordHasher, weakPasswordReason } from '../../platform/security/passwords.js'
import { digest, newSecret } from '../../platform/security/secrets.js'
import type { Actor } from '../audit/operator-audit.js'
import { keepsAnAdmin, normalEmail, type PortalRole, type PortalUser } from './portal.js'

/** How long an invite (or a reset) can be accepted. */
export const inviteTtlMs = 7 * 24 * 3600_000

export interface InviteInput {
  email: string
  name?: string
  role: PortalRole
}

export interface UserPatch {
  role?: PortalRole
  name?: string | null
  disabled?: boolean
}

export interface Invitation {
  user: PortalUser
  inviteToken: string
  inviteExpiresAt: string
}

const lastAdmin = (user: PortalUser) =>
  refuse(
    'CONFLICT',
    `${user.email} is the last admin of this partner; make another user admin before demoting, disabling or removing this one.`,
  )

export class PortalUsers {
  constructor(
    private readonly d: {
      store: Store
      clock: Clock
      passwords: PasswordHasher
    },
  ) {}

  async list(partnerId: string, page: KeyPage<CreatedKey>): Promise<PortalUser[]> {
    return this.d.store.portalUsers.list(partnerId, page)
  }

  /** Invites a user into the partner; 409 when the email already belongs to a user (of any partner). */
  async invite(partnerId: string, input: InviteInput, by: Actor): Promise<Result<Invitation>> {
    const { store, clock } = this.d
    const now = clock()
    const nowIso = now.toISOString()
    const inviteToken = newSecret('portalInvite')
    const inviteExpiresAt = new Date(now.getTime() + inviteTtlMs).toISOString()
    const id = uuidv7()
    const email = normalEmail(input.email)
    // A refusal comes before anything is written: the transaction that answers it changes nothing.
    const invited = await store.transaction(async (tx) => {
      if (!(await tx.partners.psaKind(partnerId))) return notFound(`Partner '${partnerId}'`)
      const inserted = await tx.portalUsers.insert({
        id,
        partnerId,
        email,
        name: input.name ?? null,
        role: input.role,
        inviteDigest: digest(inviteToken),
        inviteExpiresAt,
        now: nowIso,
      })
      if (!inserted)
        return refuse('CONFLICT', `A portal user with email ${email} exists already; emails are unique.`)
      await tx.audit.record(
        by,
        audit('partner.user.invite', partnerId, { userId: id, email, role: input.role }),
        nowIso,
      )
      return done
    })
    if (!invited.ok) return invited
    return ok({ user: (await store.portalUsers.findById(id))!, inviteToken, inviteExpiresAt })
  }

  /**
   * Accepts an invite: sets the password (and name). Answers the user, who may then be given a
   * session. An unknown, used or expired token is one answer (401): it tells nothing about which. A
   * password too easy to guess is refused (400) with the reason, before anything changes.
   */
  async accept(
    inviteToken: string,
    password: string,
    name: string | undefined,
    /** Refuses a user who may not sign in (its partner is disabled), before anything changes. */
    mayStart: (user: PortalUser) => Promise<Result<void>>,
  ): Promise<Result<PortalUser>> {
    const { store, clock, passwords } = this.d
    const inviteDigest = digest(inviteToken)
    const refused = refuse(
      'INVALID_CREDENTIALS',
      'This invite is not valid: it was used, replaced or has expired; ask an admin for a new one.',
    )
    const user = await store.portalUsers.findByInviteDigest(inviteDigest)
    if (!user?.invite || user.disabledAt !== null || user.invite.expiresAt <= clock().toISOString())
      return refused
    const may = await mayStart(user)
    if (!may.ok) return may
    const partner = await store.partners.findById(user.partnerId)
    const weak = weakPasswordReason(password, {
      email: user.email,
      name: name ?? user.name,
      partnerName: partner?.name,
    })
    if (weak) return refuse('VALIDATION_FAILED', weak)
    const passwordHash = await passwords.hash(password)
    const nowIso = clock().toISOString()
    const accepted = await store.transaction(async (tx) => {
      // The invite may have been used or replaced while the password was being hashed.
      const again = await tx.portalUsers.findByInviteDigest(inviteDigest)
      if (!again || again.id !== user.id) return refused
      await tx.portalUsers.update(
        user.id,
        { passwordHash, invite: null, ...(name !== undefined ? { name } : {}) },
        nowIso,
      )
      return done
    })
    if (!accepted.ok) return accepted
    return ok((await store.portalUsers.findById(user.id))!)
  }

  async update(partnerId: string, userId: string, patch: UserPatch, by: Actor): Promise<Result<PortalUser>> {
    const { store, clock } = this.d
    const nowIso = clock().toISOString()
    // Refusals come before any write (the partner's lock changes nothing).
    const updated = await store.transaction(async (tx) => {
      await tx.portalUsers.lockPartner(partnerId)
      const own = await this.own(tx, partnerId, userId)
      if (!own.ok) return own
      const user = own.value
      const disabledAt =
        patch.disabled === undefined ? user.disabledAt : patch.disabled ? (user.disabledAt ?? nowIso) : null
      const after = { role: patch.role ?? user.role, disabledAt }
      if (!keepsAnAdmin(user, after, await tx.portalUsers.activeAdmins(partnerId))) return lastAdmin(user)
      await tx.portalUsers.update(
        userId,
        {
          ...(patch.role !== undefined ? { role: patch.role } : {}),
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.disabled !== undefined ? { disabledAt } : {}),
        },
        nowIso,
      )
      if (disabledAt !== null && user.disabledAt === null) await tx.portalUsers.deleteSessionsOf(userId)
      const changed = Object.keys(patch).filter((k) => patch[k as keyof UserPatch] !== undefined)
      await tx.audit.record(
        by,
        audit('partner.user.update', partnerId, {
          userId,
          email: user.email,
          changed: changed.sort(),
          role: after.role,
          disabled: disabledAt !== null,
        }),
        nowIso,
      )
      return done
    })
    if (!updated.ok) return updated
    return ok((await store.portalUsers.findById(userId))!)
  }

  /** Clears the password and issues a new invite (shown once); the user's sessions end. */
  async reset(partnerId: string, userId: string, by: Actor): Promise<Result<Invitation>> {
    const { store, clock } = this.d
    const now = clock()
    const nowIso = now.toISOString()
    const inviteToken = newSecret('portalInvite')
    const inviteExpiresAt = new Date(now.getTime() + inviteTtlMs).toISOString()
    const reset = await store.transaction(async (tx) => {
      const own = await this.own(tx, partnerId, userId)
      if (!own.ok) return own
      const user = own.value
      await tx.portalUsers.update(
        userId,
        { passwordHash: null, invite: { digest: digest(inviteToken), expiresAt: inviteExpiresAt } },
        nowIso,
      )
      await tx.portalUsers.deleteSessionsOf(userId)
      await tx.audit.record(by, audit('partner.user.reset', partnerId, { userId, email: user.email }), nowIso)
      return done
    })
    if (!reset.ok) return reset
    return ok({ user: (await store.portalUsers.findById(userId))!, inviteToken, inviteExpiresAt })
  }

  /** Removes the user and with it its sessions. */
  async remove(partnerId: string, userId: string, by: Actor): Promise<Result<void>> {
    const { store, clock } = this.d
    const nowIso = clock().toISOString()
    return store.transaction(async (tx) => {
      await tx.portalUsers.lockPartner(partnerId)
      const own = await this.own(tx, partnerId, userId)
      if (!own.ok) return own
      const user = own.value
      if (!keepsAnAdmin(user, null, await tx.portalUsers.activeAdmins(partnerId))) return lastAdmin(user)
      await tx.portalUsers.deleteSessionsOf(userId)
      await tx.portalUsers.remove(userId)
      await tx.audit.record(
        by,
        audit('partner.user.remove', partnerId, { userId, email: user.email }),
        nowIso,
      )
      return done
    })
  }

  /** The partner's own user, or 404: another partner's users do not exist for it. */
  private async own(tx: Store, partnerId: string, userId: string): Promise<Result<PortalUser>> {
    const user = await tx.portalUsers.findById(userId)
    return user && user.partnerId === partnerId ? ok(user) : notFound(`User '${userId}'`)
  }
}

function audit(
  action: 'partner.user.invite' | 'partner.user.update' | 'partner.user.reset' | 'partner.user.remove',
  partnerId: string,
  summary: Record<string, string | boolean | readonly string[]>,
) {
  return { action, targetType: 'partner' as const, targetId: partnerId, summary }
}
