// A simulator of the Pulseway PSA REST API v2 (docs/psa/pulseway-psa.md). Pulseway's V2 API is the
// Kaseya BMS v2 engine (the same log-in at /v2/security/authenticate, envelope, /v2/servicedesk paths,
// paging and 1,500 calls per hour per endpoint), so this is the Kaseya v2 engine's simulator
// (../kaseya-bms/start.ts) in Pulseway's flavour, with what is known or guessed to differ:
// - a create needs AccountId, Title, Details and PriorityId (the fields Pulseway's one working public
//   client sends); the others BMS requires get the tenant's defaults when left out; an unknown
//   AccountId is refused;
// - tickets carry their custom fields as a JSON string (`customFields: "{\"cf_3208\":…}"`);
// - notes name their writer by name and e-mail (createdByName, createdByEmail), not by user id;
// - no webhooks (none is published for Pulseway PSA) and no activities feed: a technician's change
//   (`sim.technician`, POST /__sim/technician/{action}) is only seen by reading the ticket back;
// - over the hourly limit, HTTP 429 with the envelope (Pulseway does not publish the signal).
// The log-in form is read whatever the casing of its field names (grantType, userName, password,
// tenant as Pulseway's help and client send them), as ASP.NET binds forms.
import type { OpCalls } from '../harness.js'
import { seededTickets, startV2Sim, type V2Sim, type V2SimOptions, v2Calls } from '../kaseya-bms/start.js'
import type { SimFlavour } from '../kaseya-bms/types.js'

export { crowdTickets } from '../kaseya-bms/seed.js'
export type { KaseyaBmsState as PulsewayPsaState } from '../kaseya-bms/types.js'

export type PulsewayPsaSimOptions = V2SimOptions
export type PulsewayPsaSim = V2Sim

/** The calls whose answer a test loses: the engine's (resolve writes its Comment and completes in one call). */
export const pulsewayCalls: OpCalls = v2Calls

export { seededTickets }

export const pulsewayFlavour: SimFlavour = {
  name: 'Pulseway PSA',
  requiredCreate: ['AccountId', 'Title', 'Details', 'PriorityId'],
  customFieldsAsString: true,
  webhooks: false,
  activities: false,
  notesByName: true,
}

export function startPulsewayPsaSim(options: PulsewayPsaSimOptions = {}): Promise<PulsewayPsaSim> {
  return startV2Sim(
    {
      tenant: 'Acme MSP',
      username: 'api@acme-msp.example',
      password: 'pulseway-password',
      ...options,
    },
    pulsewayFlavour,
  )
}
