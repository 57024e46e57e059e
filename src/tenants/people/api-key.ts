// A partner's API key (docs/partner-api.md#the-api-key): stored as a digest, looked up by it and compared
// in constant time. After a rotation the key it replaced keeps working until its overlap window ends
// (docs/decisions/credentials/partner-rotates-its-key.md).
import type { Store } from '../../platform/db/store.js'
import { digest, sameDigest } from '../../platform/security/secrets.js'
import { matchCredential } from '../credentials/credentials.js'
import type { PartnerKeyOwner } from '../partner.js'

/** The partner whose API key this is (and which of its keys), or null. */
export async function partnerOfKey(
  partners: Pick<Store['partners'], 'findByApiKeyDigest'>,
  key: string,
  now: string,
): Promise<PartnerKeyOwner | null> {
  const presented = digest(key)
  const partner = await partners.findByApiKeyDigest(presented)
  if (!partner) return null
  const match = matchCredential(
    {
      current: sameDigest(presented, partner.digest),
      previous: partner.previous !== null && sameDigest(presented, partner.previous.digest),
    },
    partner.previous?.expiresAt ?? null,
    now,
  )
  return match === 'none' ? null : { partnerId: partner.id, key: match, disabled: partner.disabled }
}
