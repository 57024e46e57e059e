// Whether the configured keys fit the data the database holds, decided from facts gathered at start
// (boot gathers them; this decides, without I/O). The database keeps a check value sealed with the key
// it is on, and the ids of the keys it was rotated away from; every sealed value names its key.

/** Where the current key came from, for the sentence that names it. */
export type KeySource = { kind: 'env' } | { kind: 'file'; path: string }

export interface KeyFacts {
  source: KeySource
  /** SECRET_KEY_PREVIOUS is set. */
  previousConfigured: boolean
  /** The current key is one the database was rotated away from. */
  currentRetired: boolean
  /** The database's check value: absent, sealed with the current or the previous key, or neither opens it. */
  check: 'none' | 'current' | 'previous' | 'unopenable'
  /** With no check value yet (a database from before the check): one sealed value, tried. */
  sample: 'none' | 'opens' | 'unopenable'
  /** Sealed values that name a key which is neither the current nor the previous one. */
  foreign: number
}

export type KeyVerdict =
  | {
      ok: true
      /** keep: on the current key; write: the first check value; advance: a rotation starts (previous → current). */
      check: 'keep' | 'write' | 'advance'
    }
  | { ok: false; refusal: string }

/** A start refused because of the keys; the message is one sentence, safe to print. */
export class KeyRefusal extends Error {}

const keyName = (source: KeySource): string =>
  source.kind === 'env' ? 'SECRET_KEY' : `The key in ${source.path}`

export function judgeKeys(f: KeyFacts): KeyVerdict {
  const name = keyName(f.source)
  if (f.currentRetired) {
    return {
      ok: false,
      refusal:
        `${name} is a key this database has been rotated away from: set SECRET_KEY to the newer key ` +
        '(the old one may stay in SECRET_KEY_PREVIOUS until re-sealing has finished).',
    }
  }
  if (f.check === 'unopenable' || (f.check === 'none' && f.sample === 'unopenable')) {
    const fix =
      f.source.kind === 'env'
        ? 'set SECRET_KEY to that key'
        : 'restore the key file the database was set up with, or set SECRET_KEY to that key'
    return {
      ok: false,
      refusal:
        `${name} does not open the data this database holds, which was sealed with another key: ${fix} ` +
        '(during a rotation the old key goes in SECRET_KEY_PREVIOUS; see docs/operations.md).',
    }
  }
  if (f.foreign > 0) {
    const one = f.foreign === 1
    const values = one ? '1 sealed value in this database' : `${f.foreign} sealed values in this database`
    return {
      ok: false,
      refusal: f.previousConfigured
        ? `${values} ${one ? 'opens' : 'open'} with neither SECRET_KEY nor SECRET_KEY_PREVIOUS: an earlier ` +
          'rotation has not finished re-sealing them, so set SECRET_KEY_PREVIOUS to the key they were sealed ' +
          'with until /metrics shows none left (see docs/operations.md).'
        : `${values} ${one ? 'does' : 'do'} not open with SECRET_KEY: re-sealing after a rotation has not ` +
          'finished, so keep the old key in SECRET_KEY_PREVIOUS until /metrics shows none left ' +
          '(see docs/operations.md).',
    }
  }
  if (f.check === 'previous') return { ok: true, check: 'advance' }
  return { ok: true, check: f.check === 'current' ? 'keep' : 'write' }
}

/** The embedded default has no key file: a new key may be made only over a database with no sealed data. */
export function missingKeyFileRefusal(path: string): string {
  return (
    `The key file ${path} is missing, but the database holds data sealed with a key: restore the file ` +
    'from a backup or set SECRET_KEY to that key (a new key would leave that data unreadable for good).'
  )
}
