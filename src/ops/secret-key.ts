// Opens SECRET_KEY's key ring at start, before anything is opened with it: finds the key (the environment, or
// the embedded default's key file), and refuses to start, with one sentence, when the key does not
// open what the database holds. A key file is generated only over a database that holds no sealed
// data. With SECRET_KEY_PREVIOUS set, the first process that starts with the new key moves the
// database onto it (the check value is re-sealed and the old key is recorded as retired); the
// re-sealer then moves every sealed value (reseal.ts).
import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../platform/db/schema.js'
import { createKeyFile, createKeyRing, type KeyRing, readKeyFile } from '../platform/security/crypto-box.js'
import {
  judgeKeys,
  type KeyFacts,
  KeyRefusal,
  type KeySource,
  type KeyVerdict,
  missingKeyFileRefusal,
} from '../platform/security/key-check.js'
import { SettingsRepository } from '../tenants/index.js'
import { sealedIn } from './sealed-columns.js'
import { SealedValues } from './sealed-values.js'

/** The settings row holding a constant sealed with the key the database is on. */
export const keyCheckSetting = 'secret_key_check'
/** The settings row listing the ids of keys the database was rotated away from (JSON array). */
export const retiredKeysSetting = 'secret_key_retired'
const checkText = 'alertbridge secret key check'

export interface OpenedKeyRing {
  ring: KeyRing
  source: KeySource
  /** What this start did: generated the key file, or started a rotation onto SECRET_KEY. */
  event: 'key-file-created' | 'rotation-started' | null
}

export async function openKeyRing(o: {
  kysely: Kysely<Database>
  secretKey: string | undefined
  secretKeyPrevious: string | undefined
  /** The embedded default's key file; null where there is none (an in-memory database). */
  keyFile: string | null
}): Promise<OpenedKeyRing> {
  const settings = new SettingsRepository(o.kysely)
  const sealed = new SealedValues(o.kysely)
  let event: OpenedKeyRing['event'] = null
  let source: KeySource = { kind: 'env' }
  let current = o.secretKey
  if (!current && o.keyFile) {
    source = { kind: 'file', path: o.keyFile }
    current = readKeyFile(o.keyFile) ?? undefined
    if (!current) {
      if ((await settings.get(keyCheckSetting)) !== null || (await sealed.any()) !== null)
        throw new KeyRefusal(missingKeyFileRefusal(o.keyFile))
      current = createKeyFile(o.keyFile)
      event = 'key-file-created'
    }
  }
  const ring = createKeyRing(current ?? randomBytes(32).toString('base64'), o.secretKeyPrevious)

  // Another process starting at the same time may write or move the check between our read and our
  // write; then the write does nothing and the facts are read again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const { check, verdict } = await judgeDatabase(o.kysely, ring, source, o.secretKeyPrevious !== undefined)
    if (!verdict.ok) throw new KeyRefusal(verdict.refusal)
    if (verdict.check === 'keep') return { ring, source, event }
    if (verdict.check === 'write') {
      if (await settings.setIfAbsent(keyCheckSetting, ring.seal(checkText))) return { ring, source, event }
    } else if (check !== null && (await advance(o.kysely, ring, check))) {
      return { ring, source, event: 'rotation-started' }
    }
  }
  throw new KeyRefusal(
    'The key check kept changing while starting: another process is starting with other keys.',
  )
}

/**
 * Whether `ring` opens what the database holds, read only (the start's check, without its writes):
 * `npm run migrate-data` asks it of the database it moves, before the copy.
 */
export async function judgeDatabaseKeys(
  kysely: Kysely<Database>,
  ring: KeyRing,
  source: KeySource,
  previousConfigured: boolean,
): Promise<KeyVerdict> {
  return (await judgeDatabase(kysely, ring, source, previousConfigured)).verdict
}

async function judgeDatabase(
  kysely: Kysely<Database>,
  ring: KeyRing,
  source: KeySource,
  previousConfigured: boolean,
): Promise<{ check: string | null; verdict: KeyVerdict }> {
  const settings = new SettingsRepository(kysely)
  const check = await settings.get(keyCheckSetting)
  const facts = await gatherFacts(ring, source, check, settings, new SealedValues(kysely), previousConfigured)
  return { check, verdict: judgeKeys(facts) }
}

async function gatherFacts(
  ring: KeyRing,
  source: KeySource,
  check: string | null,
  settings: SettingsRepository,
  sealed: SealedValues,
  previousConfigured: boolean,
): Promise<KeyFacts> {
  const retired = parseRetired(await settings.get(retiredKeysSetting))
  let checkFact: KeyFacts['check'] = 'none'
  if (check !== null) {
    const opened = ring.opens(check) ? ring.open(check) : null
    checkFact =
      opened !== checkText ? 'unopenable' : ring.sealedBy(check) === 'current' ? 'current' : 'previous'
  }
  let sample: KeyFacts['sample'] = 'none'
  if (check === null) {
    const any = await sealed.any()
    const value = any ? sealedIn(any.column, any.stored) : null
    if (any) sample = value !== null && ring.opens(value) ? 'opens' : 'unopenable'
  }
  // Values of the first format name no key: one of them is tried.
  const unversioned = await sealed.anyUnversioned()
  const unversionedValue = unversioned ? sealedIn(unversioned.column, unversioned.stored) : null
  const counts = await sealed.counts(ring.currentKeyId, ring.previousKeyId)
  const foreign = counts.other + (unversioned && !(unversionedValue && ring.opens(unversionedValue)) ? 1 : 0)
  return {
    source,
    previousConfigured,
    currentRetired: retired.includes(ring.currentKeyId),
    check: checkFact,
    sample,
    foreign,
  }
}

/** Moves the check from the previous key to the current one and retires the previous key, at once. */
async function advance(kysely: Kysely<Database>, ring: KeyRing, check: string): Promise<boolean> {
  const previousId = /^v2\.([0-9a-f]+)\./.exec(check)?.[1]
  return kysely.transaction().execute(async (trx) => {
    const settings = new SettingsRepository(trx)
    if (!(await settings.compareAndSet(keyCheckSetting, check, ring.seal(checkText)))) return false
    const retired = parseRetired(await settings.get(retiredKeysSetting))
    if (previousId && !retired.includes(previousId))
      await settings.put(retiredKeysSetting, JSON.stringify([...retired, previousId]))
    return true
  })
}

function parseRetired(value: string | null): string[] {
  if (value === null) return []
  const parsed: unknown = JSON.parse(value)
  return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string') : []
}
