// The PSA kinds a partner may connect, their names as people know them, and a partner's PSA connection
// as stored (docs/psa/README.md). Each kind's own settings schema lives in its folder.

export const psaKinds = [
  'sandbox',
  'connectwise',
  'autotask',
  'halopsa',
  'kaseya-bms',
  'syncro',
  'pulseway-psa',
  'superops',
  'ninjaone',
] as const

export type PsaKind = (typeof psaKinds)[number]

/** Each kind's name as people know the product, in events and messages. */
export const psaNames: Record<PsaKind, string> = {
  sandbox: 'the sandbox PSA',
  connectwise: 'ConnectWise PSA',
  autotask: 'Autotask',
  halopsa: 'HaloPSA',
  'kaseya-bms': 'Kaseya BMS',
  syncro: 'Syncro',
  'pulseway-psa': 'Pulseway PSA',
  superops: 'SuperOps',
  ninjaone: 'NinjaOne',
}

/** A partner's PSA connection as stored: its kind and that kind's settings (credentials included). */
export interface StoredPsa {
  kind: PsaKind
  settings: Record<string, unknown>
}
