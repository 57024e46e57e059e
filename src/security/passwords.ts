// Portal passwords (docs/decisions/portal/password-hash.md): scrypt from node:crypto, a memory-hard slow
// hash that needs no dependency. A stored hash carries its own parameters
// (`scrypt$<log2 N>$<r>$<p>$<salt>$<key>`), so raising the cost later still verifies older hashes, and a
// sign-in rehashes them at the new cost. Comparisons are constant-time. Each hash holds 128 × N × r
// bytes (128 MiB at the default cost), so only a few run at once: the others wait their turn instead of
// taking the process's memory.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'

export interface PasswordCost {
  /** log2 of scrypt's N (CPU and memory cost). OWASP: N = 2^17, r = 8, p = 1. */
  log2N: number
  r: number
  p: number
}

const keyLength = 32
const saltLength = 16
/** Hashes computed at once; the libuv pool has 4 threads and other work needs some. */
const concurrent = 2

function derive(password: string, salt: Buffer, cost: PasswordCost): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** cost.log2N,
    r: cost.r,
    p: cost.p,
    // Node refuses above 32 MiB by default; allow what these parameters need, with room.
    maxmem: 256 * 2 ** cost.log2N * cost.r + 16 * 1024 * 1024,
  }
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, options, (err, key) =>
      err ? reject(err) : resolve(key),
    )
  })
}

interface Parsed {
  cost: PasswordCost
  salt: Buffer
  key: Buffer
}

function parse(stored: string): Parsed | null {
  const [scheme, log2N, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !log2N || !r || !p || !salt || !key) return null
  const cost = { log2N: Number(log2N), r: Number(r), p: Number(p) }
  if (![cost.log2N, cost.r, cost.p].every((n) => Number.isInteger(n) && n > 0 && n <= 64)) return null
  return { cost, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') }
}

export class PasswordHasher {
  private running = 0
  private readonly waiting: (() => void)[] = []
  /** A hash of nothing anyone knows, verified against when there is no user, so that takes as long. */
  private decoy: Promise<string> | null = null

  constructor(readonly cost: PasswordCost) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(saltLength)
    const key = await this.limited(() => derive(password, salt, this.cost))
    const { log2N, r, p } = this.cost
    return `scrypt$${log2N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`
  }

  /** Whether `password` is the one `stored` was made from; null `stored` (no such user) spends the same time. */
  async verify(password: string, stored: string | null): Promise<boolean> {
    const parsed = stored === null ? null : parse(stored)
    if (parsed === null) {
      this.decoy ??= this.hash(randomBytes(16).toString('hex'))
      const decoy = parse(await this.decoy)!
      await this.limited(() => derive(password, decoy.salt, decoy.cost))
      return false
    }
    const key = await this.limited(() => derive(password, parsed.salt, parsed.cost))
    return key.length === parsed.key.length && timingSafeEqual(key, parsed.key)
  }

  /** Whether a stored hash was made at another cost than the current one (a sign-in rehashes it). */
  outdated(stored: string): boolean {
    const parsed = parse(stored)
    const c = this.cost
    return !parsed || parsed.cost.log2N !== c.log2N || parsed.cost.r !== c.r || parsed.cost.p !== c.p
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    // A finished hash hands its slot straight to the next in line.
    if (this.running < concurrent) this.running++
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.running--
    }
  }
}
