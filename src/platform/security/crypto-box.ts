// Encryption at rest for what the service must read back (PSA credentials, webhook secrets):
// AES-256-GCM with the configured SECRET_KEY.
//
// A sealed value names the key that sealed it: `v2.<key id>.<iv|tag|ciphertext, base64url>`, where the
// key id is a short HMAC of the key (it identifies the key without revealing it). That lets a key ring
// open a value with the right key at once, lets the database be asked how many values are still
// sealed with an older key (re-sealing after a rotation), and lets the service tell at start that the
// configured key is not the one the data was sealed with. Values of the first format
// (`v1.<iv|tag|ciphertext>`, no key id) are still opened, by trying each key of the ring (GCM's tag
// makes a wrong key fail, never answer garbage).
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export interface CryptoBox {
  seal(plaintext: string): string
  open(sealed: string): string
}

/** Which key of a ring sealed a value: `unversioned` is the first format, which does not say. */
export type SealedBy = 'current' | 'previous' | 'unversioned' | 'other'

/** The current key (seals and opens) and, during a rotation, the previous one (opens only). */
export interface KeyRing extends CryptoBox {
  readonly currentKeyId: string
  readonly previousKeyId: string | null
  sealedBy(sealed: string): SealedBy
  /** Whether the ring opens the value (a wrong key or a damaged value answers false). */
  opens(sealed: string): boolean
}

/** Refused to open a value: it was sealed with a key the ring does not hold, or it was altered. */
export class SealedValueError extends Error {}

/** The prefix every value sealed with a key of this id starts with. */
export const sealedPrefix = (keyId: string): string => `v2.${keyId}.`

function keyBytes(secretKey: string): Buffer {
  const raw = Buffer.from(secretKey.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  return raw.length === 32 ? raw : createHash('sha256').update(secretKey).digest()
}

/** 12 hex digits of HMAC-SHA256(key, label): names the key in sealed values and in logs. */
export function keyIdOf(secretKey: string): string {
  return createHmac('sha256', keyBytes(secretKey)).update('alertbridge key id').digest('hex').slice(0, 12)
}

interface Key {
  id: string
  bytes: Buffer
}

function toKey(secretKey: string): Key {
  return { id: keyIdOf(secretKey), bytes: keyBytes(secretKey) }
}

function decrypt(key: Buffer, payload: string): string {
  const buf = Buffer.from(payload, 'base64url')
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12))
  decipher.setAuthTag(buf.subarray(12, 28))
  return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8')
}

export function createKeyRing(current: string, previous?: string | null): KeyRing {
  const cur = toKey(current)
  const prev = previous ? toKey(previous) : null
  const versioned = /^v2\.([0-9a-f]{12})\.(.*)$/s
  const keys = prev && prev.id !== cur.id ? [cur, prev] : [cur]

  const open = (sealed: string): string => {
    const v2 = versioned.exec(sealed)
    if (v2) {
      const key = keys.find((k) => k.id === v2[1])
      if (!key)
        throw new SealedValueError(
          `sealed with key ${v2[1]}, which is neither SECRET_KEY nor SECRET_KEY_PREVIOUS`,
        )
      try {
        return decrypt(key.bytes, v2[2]!)
      } catch {
        throw new SealedValueError('a sealed value does not open: it was altered or damaged')
      }
    }
    if (sealed.startsWith('v1.')) {
      for (const key of keys) {
        try {
          return decrypt(key.bytes, sealed.slice(3))
        } catch {
          // the next key
        }
      }
      throw new SealedValueError('a sealed value of the first format opens with none of the configured keys')
    }
    throw new SealedValueError('unknown sealed-value format')
  }

  return {
    currentKeyId: cur.id,
    previousKeyId: prev && prev.id !== cur.id ? prev.id : null,
    seal(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', cur.bytes, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return `${sealedPrefix(cur.id)}${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
    },
    open,
    sealedBy(sealed) {
      const v2 = versioned.exec(sealed)
      if (!v2) return 'unversioned'
      if (v2[1] === cur.id) return 'current'
      if (prev && v2[1] === prev.id) return 'previous'
      return 'other'
    },
    opens(sealed) {
      try {
        open(sealed)
        return true
      } catch {
        return false
      }
    },
  }
}

/** A ring of one key. */
export function createCryptoBox(secretKey: string): CryptoBox {
  return createKeyRing(secretKey)
}

/** The embedded default's key file, or null when there is none. */
export function readKeyFile(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : null
}

/** Generates the embedded default's key into the data directory, readable only by its owner. */
export function createKeyFile(path: string): string {
  mkdirSync(dirname(path), { recursive: true })
  const key = randomBytes(32).toString('base64')
  writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' })
  return key
}
