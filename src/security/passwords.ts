// Portal passwords (docs/decisions/portal/password-hash.md): scrypt from node:crypto, a memory-hard slow
// hash that needs no dependency. A stored hash carries its own parameters
// (`scrypt$<log2 N>$<r>$<p>$<salt>$<key>`), so raising the cost later still verifies older hashes, and a
// sign-in rehashes them at the new cost. Comparisons are constant-time. Each hash holds 128 × N × r
// bytes (128 MiB at the default cost), so only a few run at once: the others wait their turn instead of
// taking the process's memory.
//
// How strong a new password is: judged with zxcvbn-ts (docs/decisions/portal/sign-in-slowdown.md), which
// estimates how many guesses an attacker needs, knowing common passwords, words, names, keyboard
// patterns, repeats and sequences. A new password below `strongEnough` is refused with the estimator's
// own words for why, as is one shorter than the minimum length (domain/portal.ts).
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'
import * as en from '@zxcvbn-ts/language-en'
import { minPasswordLength } from '../domain/portal.js'

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

/** zxcvbn's score (0–4) a new password must reach: 3 is "safely unguessable" for an online attacker. */
export const strongEnough = 3

let estimator: ZxcvbnFactory | null = null
/** Built on first use: the dictionaries take a moment and some memory. */
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  })
  return estimator
}

/**
 * Why `password` may not be chosen, in words for the person choosing it, or null when it may.
 * `userInputs` (the user's email, name, the partner's name) count as guessable words.
 */
export function weakPasswordReason(password: string, userInputs: readonly string[] = []): string | null {
  if (password.length < minPasswordLength)
    return `Choose a password of at least ${minPasswordLength} characters.`
  const inputs = userInputs.flatMap((i) => [i, ...i.split(/[^\p{L}\p{N}]+/u)]).filter((i) => i.length > 2)
  // The estimator's time grows with the length; past 100 characters the rest adds only strength.
  const result = zxcvbn().check(password.slice(0, 100), inputs)
  if (result.score >= strongEnough) return null
  const { warning, suggestions } = result.feedback
  const why = [warning, ...suggestions].filter((s): s is string => Boolean(s))
  return [
    'This password is too easy to guess.',
    ...(why.length > 0 ? why : ['Add a few more uncommon words.']),
  ].join(' ')
}
