// Encryption at rest for what the service must read back (PSA credentials, webhook secrets):
// AES-256-GCM with the configured SECRET_KEY.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export interface CryptoBox {
  seal(plaintext: string): string
  open(sealed: string): string
}

export function createCryptoBox(secretKey: string): CryptoBox {
  const raw = Buffer.from(secretKey.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
  const key = raw.length === 32 ? raw : createHash('sha256').update(secretKey).digest()
  return {
    seal(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) throw new Error('unknown sealed-value format')
      const buf = Buffer.from(sealed.slice(3), 'base64url')
      const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12))
      decipher.setAuthTag(buf.subarray(12, 28))
      return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8')
    },
  }
}

/** The embedded default: a key generated once into the data directory, readable only by its owner. */
export function loadOrCreateKeyFile(path: string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim()
  mkdirSync(dirname(path), { recursive: true })
  const key = randomBytes(32).toString('base64')
  writeFileSync(path, `${key}\n`, { mode: 0o600, flag: 'wx' })
  return key
}
