// A simulator of the Kaseya BMS REST API v2 (docs/psa/kaseya-bms.md), written from BMS's published
// OpenAPI (api-evangelist/kaseya, openapi/kaseya-bms-openapi-original.json) and working public
// clients, not from our adapter: the Kaseya v2 engine's simulator (start.ts) in BMS's flavour. Query
// parameters the OpenAPI does not list are ignored, as an ASP.NET binder ignores them; the lookup
// tables answer under names a test chooses (BMS publishes none). A create needs every field the spec's
// TicketInputDto requires.
// Two-way sync (routes-sync.ts, routes-webhooks.ts, events.ts): ticket activities, related tickets,
// merge and delete, webhooks registered at /v2/admin/webhooks and pushed on every ticket change (with a
// `Signature` header of the simulator's own making, events.ts: BMS publishes no scheme, and alertbridge
// takes no BMS push), and a technician working tickets in BMS's app (`sim.technician`, POST
// /__sim/technician/{action}); pushes are dropped with `sim.pushes.drop(n)` or PUT /__sim/pushes
// {"drop": n|null}.
// See routes-*.ts for the resources and types.ts for the state a test reads and changes.
import type { OpCalls } from '../harness.js'
import { seededTickets, startV2Sim, type V2Sim, type V2SimOptions, v2Calls } from './start.js'
import type { SimFlavour } from './types.js'

export { crowdTickets } from './seed.js'
export type { KaseyaBmsState } from './types.js'

export type KaseyaBmsSimOptions = V2SimOptions
export type KaseyaBmsSim = V2Sim

/** The calls whose answer a test loses (the engine's, start.ts). */
export const bmsCalls: OpCalls = v2Calls
export const kaseyaBmsCalls = bmsCalls

export { seededTickets }

export const bmsFlavour: SimFlavour = {
  name: 'Kaseya BMS',
  requiredCreate: [
    'Title',
    'Details',
    'AccountId',
    'LocationId',
    'StatusId',
    'PriorityId',
    'TypeId',
    'SourceId',
    'OpenDate',
  ],
  customFieldsAsString: false,
  webhooks: true,
  activities: true,
  notesByName: false,
}

export function startKaseyaBmsSim(options: KaseyaBmsSimOptions = {}): Promise<KaseyaBmsSim> {
  return startV2Sim(options, bmsFlavour)
}
