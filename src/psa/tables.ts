// The psa module's own tables beside the sandbox's (migration 0028_psa_tokens): tokens a PSA rotates,
// kept beside the partner's settings (src/psa/core/token-store.ts), and the authorization-code flows
// under way (src/psa/ninjaone/consent.ts). Each table joins the Database (src/platform/db/schema.ts) from here.

export interface PsaTokensTable {
  partner_id: string
  psa_kind: string
  grant_digest: string
  refresh_token_enc: string
  access_token_enc: string | null
  access_expires_at: string | null
  version: number
  claimed_until: string | null
  updated_at: string
}

export interface PsaOauthStatesTable {
  state_digest: string
  partner_id: string
  psa_kind: string
  verifier_enc: string
  return_to: string
  created_at: string
  expires_at: string
}

declare module '../platform/db/schema.js' {
  interface Database {
    psa_tokens: PsaTokensTable
    psa_oauth_states: PsaOauthStatesTable
  }
}
