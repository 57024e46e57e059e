// What every PSA kind's settings schema is made of, and how settings are checked and shown. Each kind's
// own schema lives in its folder (e.g. connectwise/settings.ts); an error names the field that is wrong,
// and secrets are masked whenever settings are shown.
import Type, { type Static, type TObject, type TProperties } from 'typebox'
import { Value } from 'typebox/value'

export const Str = (description: string) => Type.String({ minLength: 1, maxLength: 512, description })

export const Url = Type.String({
  pattern: '^https?://[^\\s]+$',
  maxLength: 2048,
  description: 'overrides discovery',
})

/**
 * A kind's settings schema: its fields and no others (a mistyped field, or another kind's, is refused
 * and named instead of being stored and ignored).
 */
export const KindSettings = <T extends TProperties>(fields: T) =>
  Type.Object(fields, { additionalProperties: false })

export const TicketDefaults = Type.Object(
  {
    board: Type.Optional(Str('board / queue')),
    priority: Type.Optional(Str('priority')),
    type: Type.Optional(Str('ticket type')),
    status: Type.Optional(Str('initial status')),
    closedStatus: Type.Optional(Str('the status a RESOLVED alert closes the ticket with')),
  },
  {
    additionalProperties: false,
    description:
      'used where a rule leaves a ticket setting empty; a PSA id or its name. Without closedStatus a ticket closes with the status the PSA itself treats as closed',
  },
)
export type TicketDefaultsValue = Static<typeof TicketDefaults>

export type SettingsCheck<T> = { ok: true; settings: T } | { ok: false; problems: string[] }

/**
 * Checks settings against a kind's schema; the problems name the first wrong fields. A kind's schema
 * accepts only its own fields (`additionalProperties: false` at every level), so a mistyped or another
 * kind's field is named rather than stored and ignored.
 */
export function checkSettings<T extends TObject>(schema: T, settings: unknown): SettingsCheck<Static<T>> {
  if (Value.Check(schema, settings)) return { ok: true, settings }
  const problems = [...Value.Errors(schema, settings)]
    .flatMap((e): string[] => {
      // An unknown field is reported for itself ("schema is false") and for its object; keep the latter.
      if (e.keyword === 'boolean' && e.schemaPath.endsWith('/additionalProperties')) return []
      const extra = e.keyword === 'additionalProperties' ? e.params.additionalProperties : undefined
      if (Array.isArray(extra))
        return extra.map((name) => `psa${e.instancePath}/${String(name)} is not a setting of this PSA kind`)
      return [`psa${e.instancePath} ${e.message}`]
    })
    .slice(0, 3)
  return { ok: false, problems }
}

/**
 * Stored settings without the fields their kind does not have. A build before the schemas were closed
 * accepted and stored such fields; they are dropped when connecting rather than failing every call.
 */
export function knownSettings<T extends TObject>(schema: T, settings: unknown): unknown {
  return Value.Clean(schema, Value.Clone(settings))
}

/** The settings with every secret field replaced, for showing them back. */
export function maskSettings(
  settings: Record<string, unknown>,
  secretFields: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings).map(([k, v]) => [k, secretFields.includes(k) ? '********' : v]),
  )
}
