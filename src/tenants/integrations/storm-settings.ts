// Storm control's settings (docs/partner-api.md#storm-control): off by default, stored as JSON. Plain
// data; storm.ts has the row that reads them.

export interface StormSettings {
  /** Off by default. */
  enabled: boolean
  /** New tickets per account within the window; the next new incident folds into the storm ticket. */
  maxTicketsPerAccount: number
  /** The same across all the integration's accounts; null: no integration-wide cap. */
  maxTicketsPerIntegration: number | null
  /** The rolling window, in minutes; a storm ticket takes folds while its last one is this recent. */
  windowMinutes: number
}

export const defaultStormSettings = (): StormSettings => ({
  enabled: false,
  maxTicketsPerAccount: 10,
  maxTicketsPerIntegration: null,
  windowMinutes: 10,
})

/** The settings as stored (a JSON column); anything missing or malformed is the default. */
export function parseStormSettings(stored: string | null): StormSettings {
  const d = defaultStormSettings()
  if (!stored) return d
  let v: Partial<Record<keyof StormSettings, unknown>>
  try {
    v = JSON.parse(stored) as typeof v
  } catch {
    return d
  }
  const int = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x > 0 ? x : null)
  return {
    enabled: v.enabled === true,
    maxTicketsPerAccount: int(v.maxTicketsPerAccount) ?? d.maxTicketsPerAccount,
    maxTicketsPerIntegration: int(v.maxTicketsPerIntegration),
    windowMinutes: int(v.windowMinutes) ?? d.windowMinutes,
  }
}
