// The authorization-code flows under way (psa_oauth_states, migration 0028_psa_tokens;
// docs/psa/ninjaone.md#connecting-the-consent-flow): each flow's `state` (only its digest is kept), the
// partner it is bound to, its PKCE verifier (sealed), the portal page to go back to, and when it
// expires. A state is taken once. Bounded: expired flows are deleted whenever one starts, and a
// partner keeps its five newest.
import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../../platform/db/schema.js'
import type { CryptoBox } from '../../platform/security/crypto-box.js'

const ttlMs = 10 * 60 * 1000
const perPartner = 5

export interface OauthFlow {
  partnerId: string
  kind: string
  verifier: string
  returnTo: string
}

const digest = (state: string) => createHash('sha256').update(state).digest('base64url')

export class OauthStates {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: CryptoBox,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new flow: its state (for the URL) and PKCE verifier. */
  async start(
    partnerId: string,
    kind: string,
    returnTo: string,
  ): Promise<{ state: string; verifier: string }> {
    const state = randomBytes(32).toString('base64url')
    const verifier = randomBytes(48).toString('base64url')
    const now = this.now()
    await this.db
      .deleteFrom('psa_oauth_states')
      .where('expires_at', '<', new Date(now).toISOString())
      .execute()
    await this.db
      .insertInto('psa_oauth_states')
      .values({
        state_digest: digest(state),
        partner_id: partnerId,
        psa_kind: kind,
        verifier_enc: this.box.seal(verifier),
        return_to: returnTo,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + ttlMs).toISOString(),
      })
      .execute()
    const kept = await this.db
      .selectFrom('psa_oauth_states')
      .select('state_digest')
      .where('partner_id', '=', partnerId)
      .orderBy('created_at', 'desc')
      .offset(perPartner)
      .limit(1000)
      .execute()
    if (kept.length > 0)
      await this.db
        .deleteFrom('psa_oauth_states')
        .where(
          'state_digest',
          'in',
          kept.map((r) => r.state_digest),
        )
        .execute()
    return { state, verifier }
  }

  /** The flow of `state`, taken (it cannot be used again); null when unknown, taken or expired. */
  async take(state: string): Promise<OauthFlow | null> {
    const row = await this.db
      .deleteFrom('psa_oauth_states')
      .where('state_digest', '=', digest(state))
      .returningAll()
      .executeTakeFirst()
    if (!row || Date.parse(row.expires_at) < this.now()) return null
    return {
      partnerId: row.partner_id,
      kind: row.psa_kind,
      verifier: this.box.open(row.verifier_enc),
      returnTo: row.return_to,
    }
  }
}
