// Credentials: random (256 bits), shown once, stored only as SHA-256 digests and compared in constant
// time. A fast digest is right here because the secrets are random, not passwords: nothing to
// brute-force, and the alert path must not pay a password hash per request.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto'

export type SecretKind =
  | 'admin'
  | 'clientSecret'
  | 'orgToken'
  | 'partnerKey'
  | 'accessToken'
  | 'portalInvite'
  | 'portalSession'

const prefixes: Record<SecretKind, string> = {
  admin: 'aba',
  clientSecret: 'abs',
  orgToken: 'abo',
  partnerKey: 'abp',
  accessToken: 'abt',
  portalInvite: 'abi',
  portalSession: 'abw',
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

// crypto.hash is the one-shot form: the same SHA-256, without a Hash object per call (alert path).
export function digest(secret: string): string {
  return hash('sha256', secret, 'hex')
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Constant-time comparison of a presented secret with a stored digest. */
export function matchesDigest(presented: string, storedDigest: string): boolean {
  return sameDigest(digest(presented), storedDigest)
}

/**
 * A stable, non-secret name of an operator credential for the audit log: derived from the stored
 * digest (not the token, which a generated admin token's later starts no longer know), under its own
 * label so that it is not a prefix of the digest itself.
 */
export function operatorIdOf(adminTokenDigest: string): string {
  return `op_${hash('sha256', `alertbridge operator:${adminTokenDigest}`, 'hex').slice(0, 16)}`
}
