// Rotating the tenants' credentials with an overlap window: a vendor's client secret and
// webhook signing secret, an integration's organization token and a partner's API key. The new value
// is shown once; the replaced one keeps working until the window ends (tenants/credentials/credentials.ts), or at
// once stops when the window is ended early. Each change and its audit row commit together.
import { type Clock, iso } from '../../platform/clock.js'
import { notFound, ok, type Refused, type Result } from '../../platform/core/result.js'
import type { Store } from '../../platform/db/store.js'
import { digest, newSecret, newWebhookSecret } from '../../platform/security/secrets.js'
import type { Actor, AuditAction, AuditTargetType } from '../audit/operator-audit.js'
import { overlapEnd, type RotationState, rotationState } from './credentials.js'

/** The credentials that rotate, with the names the APIs and the audit log use for them. */
const kinds = {
  clientSecret: {
    target: 'vendor',
    what: 'Vendor',
    rotate: 'vendor.client_secret.rotate',
    end_overlap: 'vendor.client_secret.end_overlap',
  },
  webhookSecret: {
    target: 'vendor',
    what: 'Vendor',
    rotate: 'vendor.webhook_secret.rotate',
    end_overlap: 'vendor.webhook_secret.end_overlap',
  },
  orgToken: {
    target: 'integration',
    what: 'Integration',
    rotate: 'integration.org_token.rotate',
    end_overlap: 'integration.org_token.end_overlap',
  },
  apiKey: {
    target: 'partner',
    what: 'Partner',
    rotate: 'partner.api_key.rotate',
    end_overlap: 'partner.api_key.end_overlap',
  },
} as const satisfies Record<
  string,
  { target: AuditTargetType; what: string; rotate: AuditAction; end_overlap: AuditAction }
>

export type RotatingCredential = keyof typeof kinds

/** A rotation's answer: the new value (shown this once) and the window of the one it replaced. */
export interface Rotated {
  value: string
  rotation: RotationState
}

interface Rotator {
  /** Whether the owner exists (the answer is 404 otherwise). */
  exists(tx: Store, id: string): Promise<boolean>
  /** A fresh value for the credential. */
  generate(): string
  /** Makes `value` current; the replaced one works until `previousExpiresAt` (null: not at all). */
  rotate(tx: Store, id: string, value: string, previousExpiresAt: string | null, now: string): Promise<void>
  endOverlap(tx: Store, id: string, now: string): Promise<void>
  /** The rotation state as stored: when it last rotated and until when the replaced value works. */
  state(tx: Store, id: string): Promise<{ rotatedAt: string | null; previousExpiresAt: string | null }>
}

const rotators: Record<RotatingCredential, Rotator> = {
  clientSecret: {
    exists: async (tx, id) => (await tx.vendors.findById(id)) !== null,
    generate: () => newSecret('clientSecret'),
    rotate: (tx, id, value, until, now) => tx.vendors.rotateClientSecret(id, digest(value), until, now),
    endOverlap: (tx, id, now) => tx.vendors.endClientSecretOverlap(id, now),
    state: async (tx, id) => {
      const v = (await tx.vendors.findById(id))?.clientSecret
      return { rotatedAt: v?.rotatedAt ?? null, previousExpiresAt: v?.previousExpiresAt ?? null }
    },
  },
  webhookSecret: {
    exists: async (tx, id) => (await tx.vendors.findById(id)) !== null,
    generate: newWebhookSecret,
    rotate: (tx, id, value, until, now) => tx.vendors.rotateWebhookSecret(id, value, until, now),
    endOverlap: (tx, id, now) => tx.vendors.endWebhookSecretOverlap(id, now),
    state: async (tx, id) => {
      const v = (await tx.vendors.findById(id))?.webhookSecretRotation
      return { rotatedAt: v?.rotatedAt ?? null, previousExpiresAt: v?.previousExpiresAt ?? null }
    },
  },
  orgToken: {
    exists: async (tx, id) => (await tx.integrations.findById(id)) !== null,
    generate: () => newSecret('orgToken'),
    rotate: (tx, id, value, until, now) => tx.integrations.rotateOrgToken(id, digest(value), until, now),
    endOverlap: (tx, id, now) => tx.integrations.endOrgTokenOverlap(id, now),
    state: async (tx, id) => {
      const t = (await tx.integrations.findById(id))?.orgToken
      return { rotatedAt: t?.rotatedAt ?? null, previousExpiresAt: t?.previousExpiresAt ?? null }
    },
  },
  apiKey: {
    exists: async (tx, id) => (await tx.partners.findById(id)) !== null,
    generate: () => newSecret('partnerKey'),
    rotate: (tx, id, value, until, now) => tx.partners.rotateApiKey(id, digest(value), until, now),
    endOverlap: (tx, id, now) => tx.partners.endApiKeyOverlap(id, now),
    state: async (tx, id) => (await tx.partners.findById(id))?.apiKeyRotation ?? emptyState,
  },
}

const emptyState = { rotatedAt: null, previousExpiresAt: null }

export class CredentialRotation {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** A credential changed (committed): copies of credentials and their generations are out of date. */
    private readonly onChange: () => void = () => {},
  ) {}

  /**
   * A new value for the credential of `ownerId`; the replaced one keeps working for `overlapSeconds`
   * (0: it stops now). A value replaced by an earlier rotation whose window is still open stops now.
   */
  async rotate(
    credential: RotatingCredential,
    ownerId: string,
    overlapSeconds: number,
    by?: Actor,
  ): Promise<Result<Rotated>> {
    const r = rotators[credential]
    const now = this.clock()
    const at = now.toISOString()
    const value = r.generate()
    const previousExpiresAt = overlapEnd(now, overlapSeconds)
    // A refusal comes before anything is written: the transaction that answers it changes nothing.
    const rotation = await this.store.transaction(async (tx) => {
      const missing = await this.missingOwner(tx, credential, ownerId)
      if (missing) return missing
      await r.rotate(tx, ownerId, value, previousExpiresAt, at)
      await tx.audit.record(
        by,
        { ...this.note(credential, 'rotate', ownerId), summary: { overlapSeconds, previousExpiresAt } },
        at,
      )
      return ok(await this.stateOf(tx, credential, ownerId, at))
    })
    if (!rotation.ok) return rotation
    this.onChange()
    return ok({ value, rotation: rotation.value })
  }

  /** The value a rotation replaced stops working now. */
  async endOverlap(
    credential: RotatingCredential,
    ownerId: string,
    by?: Actor,
  ): Promise<Result<RotationState>> {
    const at = iso(this.clock)
    const state = await this.store.transaction(async (tx) => {
      const missing = await this.missingOwner(tx, credential, ownerId)
      if (missing) return missing
      const before = await this.stateOf(tx, credential, ownerId, at)
      await rotators[credential].endOverlap(tx, ownerId, at)
      await tx.audit.record(
        by,
        {
          ...this.note(credential, 'end_overlap', ownerId),
          summary: { endedWindowUntil: before.previousValidUntil },
        },
        at,
      )
      return ok(await this.stateOf(tx, credential, ownerId, at))
    })
    if (state.ok) this.onChange()
    return state
  }

  /** The credential's rotation state now (a window already over reads as none). */
  async state(credential: RotatingCredential, ownerId: string): Promise<RotationState> {
    return this.stateOf(this.store, credential, ownerId, iso(this.clock))
  }

  private async stateOf(tx: Store, credential: RotatingCredential, ownerId: string, now: string) {
    const s = await rotators[credential].state(tx, ownerId)
    return rotationState(s.rotatedAt, s.previousExpiresAt, now)
  }

  /** The refusal for an owner that does not exist (404), or null. */
  private async missingOwner(
    tx: Store,
    credential: RotatingCredential,
    ownerId: string,
  ): Promise<Refused | null> {
    if (await rotators[credential].exists(tx, ownerId)) return null
    return notFound(`${kinds[credential].what} '${ownerId}'`)
  }

  private note(credential: RotatingCredential, verb: 'rotate' | 'end_overlap', ownerId: string) {
    const k = kinds[credential]
    return { action: k[verb], targetType: k.target, targetId: ownerId }
  }
}
