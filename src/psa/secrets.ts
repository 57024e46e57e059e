// Saving a PSA connection again without typing its secret (docs/partner-api.md#the-psa-connection): a
// secret field left out, empty or still masked keeps the saved secret, as long as the kind and the
// host the secret is sent to stay the same. A changed host without a new secret is refused, so a saved
// secret never reaches a host it was not given for.

import { ok, type Result, refuse } from '../platform/core/result.js'
import type { PsaKind, StoredPsa } from './stored.js'

/** How the service shows a secret back (src/psa/settings.ts masks with it). */
export const maskedSecret = '********'

/** The settings that say where a PSA's credentials are sent, whatever the kind. */
export const hostFields = ['baseUrl', 'site', 'subdomain'] as const

const blank = (v: unknown) => v === undefined || v === null || v === '' || v === maskedSecret
const hostOf = (v: unknown) =>
  typeof v === 'string' ? v.trim().toLowerCase().replace(/\/+$/, '') : v == null ? '' : String(v)

/**
 * The settings to save: `input` with each blank secret field replaced by the saved one, or a refusal
 * when the host changed and a secret was not given again. A secret the saved connection does not
 * have stays missing (the kind's own check then asks for it).
 */
export function keepSavedSecrets(
  saved: StoredPsa,
  input: { kind: PsaKind } & Record<string, unknown>,
  secretFields: readonly string[],
): Result<{ kind: PsaKind } & Record<string, unknown>> {
  const settings: { kind: PsaKind } & Record<string, unknown> = { ...input }
  const missing = secretFields.filter((f) => blank(input[f]))
  for (const f of missing) delete settings[f]
  if (saved.kind !== input.kind) return ok(settings)
  const kept = missing.filter((f) => !blank(saved.settings[f]))
  if (kept.length === 0) return ok(settings)
  const moved = hostFields.filter((f) => hostOf(saved.settings[f]) !== hostOf(input[f]))
  if (moved.length > 0)
    return refuse(
      'VALIDATION_FAILED',
      `The PSA's address changed (${moved.join(', ')}): enter ${kept.join(', ')} again, so the saved one is not sent to another host.`,
    )
  for (const f of kept) settings[f] = saved.settings[f]
  return ok(settings)
}
