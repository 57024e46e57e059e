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
// own words for why, as is one shorter than the minimum length (tenants/people/portal.ts).
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'
import { createRequire } from 'node:module'
import type { ZxcvbnFactory } from '@zxcvbn-ts/core'
import type * as Common from '@zxcvbn-ts/language-common'
import type * as En from '@zxcvbn-ts/language-en'

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
/**
 * Built on first use, its packages loaded then too: the dictionaries are unpacked as they load (a
 * tenth of a second and some memory), which a process that never checks a new password never pays.
 */
function zxcvbn(): ZxcvbnFactory {
  if (estimator) return estimator
  const load = createRequire(import.meta.url)
  const { ZxcvbnFactory } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core')
  const common = load('@zxcvbn-ts/language-common') as typeof Common
  const en = load('@zxcvbn-ts/language-en') as typeof En
  estimator = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  })
  return estimator
}

/** What a person's password must not be built from: who they are and where they work. */
export interface PasswordOwner {
  email: string
  name?: string | null
  /** The partner (the MSP) the user belongs to. */
  partnerName?: string | null
}

/** The product's own name: the first word anyone tries for a password of it. */
const productName = 'alertbridge'

/**
 * The words a password must not be built from, each with what it is, in the refusal's words: the whole
 * of each input, its parts (split at anything that is not a letter or digit) and its parts run
 * together, the email's local part, domain and domain without its last label. Lower case, 3 characters
 * or more.
 */
function ownWords(owner: PasswordOwner): Map<string, Set<string>> {
  const words = new Map<string, Set<string>>()
  const add = (text: string, what: string) => {
    const whole = text.trim().toLowerCase()
    const parts = whole.split(/[^\p{L}\p{N}]+/u)
    for (const w of [whole, ...parts, parts.join('')]) {
      if (w.length > 2) words.set(w, (words.get(w) ?? new Set()).add(what))
    }
  }
  const email = owner.email.trim().toLowerCase()
  const [local = '', domain = ''] = email.split('@')
  add(email, 'your email address')
  add(local, 'your email address')
  add(domain, 'your email address')
  add(domain.split('.').slice(0, -1).join('.'), 'your email address')
  if (owner.name) add(owner.name, 'your name')
  if (owner.partnerName) add(owner.partnerName, "your organisation's name")
  add(productName, "this product's name")
  return words
}

interface Match {
  pattern: string
  dictionaryName?: string
  matchedWord?: string
  token: string
  i: number
  j: number
}

/**
 * Why `password` may not be chosen, in words for the person choosing it, or null when it may. A
 * password built from the owner's email, name, organisation or this product's name (as written,
 * reversed or with l33t substitutions) is refused unless what is left of it is strong enough on its own:
 * `demo-msp.example1`, `Alertbridge2026` and `DemoMSP2026!!` are, and the refusal names what they are
 * built from.
 */
export function weakPasswordReason(password: string, owner: PasswordOwner): string | null {
  if (password.length < minPasswordLength)
    return `Choose a password of at least ${minPasswordLength} characters.`
  const words = ownWords(owner)
  // The estimator's time grows with the length; past 100 characters the rest adds only strength.
  const checked = password.slice(0, 100)
  const result = zxcvbn().check(checked, [...words.keys()])
  const own = (result.sequence as Match[]).filter(
    (m) => m.pattern === 'dictionary' && m.dictionaryName === 'userInputs' && m.token.length > 3,
  )
  const builtFrom = [
    ...new Set(own.flatMap((m) => [...(words.get(m.matchedWord ?? '') ?? ['your details'])])),
  ]
  if (result.score >= strongEnough) {
    if (own.length === 0) return null
    // Strong only with the owner's words counted as guesses: the rest must be strong by itself.
    const rest = own.reduceRight((text, m) => text.slice(0, m.i) + text.slice(m.j + 1), checked)
    if (zxcvbn().check(rest, [...words.keys()]).score >= strongEnough) return null
  }
  if (builtFrom.length > 0)
    return `This password is too easy to guess. It is built from ${list(builtFrom)}: add a few uncommon words of your own.`
  const { warning, suggestions } = result.feedback
  const why = [warning, ...suggestions].filter((s): s is string => Boolean(s))
  return [
    'This password is too easy to guess.',
    ...(why.length > 0 ? why : ['Add a few more uncommon words.']),
  ].join(' ')
}

const list = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`

/** The fewest characters a portal password has (NIST SP 800-63B asks for 8; we ask for more). */
export const minPasswordLength = 12

/** The most: enough for any passphrase, and a bound on what the slow hash is given. */
export const maxPasswordLength = 1024
