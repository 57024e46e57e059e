// Credentials: random (256 bits), shown once, stored only as SHA-256 digests and compared in constant
// time. A fast digest is right here because the secrets are random, not passwords: nothing to
// brute-force, and the alert path must not pay a password hash per request.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

export type SecretKind = 'admin' | 'clientSecret' | 'orgToken' | 'partnerKey' | 'accessToken'

const prefixes: Record<SecretKind, string> = {
  admin: 'aba',
  clientSecret: 'abs',
  orgToken: 'abo',
  partnerKey: 'abp',
  accessToken: 'abt',
}

export function newSecret(kind: SecretKind): string {
  return `${prefixes[kind]}_${randomBytes(32).toString('base64url')}`
}

export function newClientId(): string {
  return `cli_${randomBytes(12).toString('base64url')}`
}

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export function digest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}

/** Constant-time comparison of a presented secret with a stored digest. */
export function matchesDigest(presented: string, storedDigest: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest()
  const b = Buffer.from(storedDigest, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}
