// Each PSA as the service-level suites drive it (through-service.ts, sync-through-service.ts): how to
// start its simulator, the partner's settings, the company and board alerts map to, and how to look into
// the PSA's tickets. Each PSA's *.service.test.ts and psa-sync.service.test.ts run these.
import { refLine } from '../../../src/psa/syncro/tickets.js'
import { type AutotaskSim, autotaskCalls, startAutotaskSim } from '../sims/autotask/server.js'
import { type ConnectWiseSim, connectWiseCalls, startConnectWiseSim } from '../sims/connectwise/server.js'
import { type HaloPsaSim, haloCalls, startHaloPsaSim } from '../sims/halopsa/server.js'
import { bmsCalls, type KaseyaBmsSim, startKaseyaBmsSim } from '../sims/kaseya-bms/server.js'
import { closedStatusIds } from '../sims/ninjaone/seed.js'
import { type NinjaOneSim, ninjaCalls, startNinjaOneSim } from '../sims/ninjaone/server.js'
import { type PulsewayPsaSim, pulsewayCalls, startPulsewayPsaSim } from '../sims/pulseway-psa/server.js'
import {
  type SuperOpsSim,
  startSuperOpsSim,
  superOpsCalls,
  SUBDOMAIN as superOpsSubdomain,
  API_TOKEN as superOpsToken,
} from '../sims/superops/server.js'
import { type SyncroSim, startSyncroSim, syncroCalls } from '../sims/syncro/server.js'
import type { ServiceFixture } from './through-service.js'

const cwKeys = {
  companyId: 'acme',
  publicKey: 'pub-key',
  privateKey: 'priv-key',
  clientId: '00000000-0000-4000-8000-000000000001',
}

export const connectWiseService: ServiceFixture<ConnectWiseSim> = {
  name: 'ConnectWise',
  start: () => startConnectWiseSim(),
  settings: (url) => ({ kind: 'connectwise', baseUrl: url, ...cwKeys }),
  badSettings: (url) => ({ kind: 'connectwise', baseUrl: url, ...cwKeys, privateKey: 'wrong-secret' }),
  companyId: '1',
  board: 'Service Desk',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no ConnectWise ticket ${id}`)
    return {
      closed: t.closedFlag,
      notes: t.notes.map((n) => n.text),
      summary: t.summary,
      ref: t.externalXRef,
    }
  },
  calls: connectWiseCalls,
  failureText: /Simulated failure/,
}

const autotaskCredentials = {
  username: 'api-user@acme.example',
  secret: 'api-secret',
  integrationCode: 'TRACKING-ID-1',
}

export const autotaskService: ServiceFixture<AutotaskSim> = {
  name: 'Autotask',
  start: () => startAutotaskSim(),
  settings: (url) => ({ kind: 'autotask', baseUrl: `${url}/ATServicesRest/`, ...autotaskCredentials }),
  badSettings: (url) => ({
    kind: 'autotask',
    baseUrl: `${url}/ATServicesRest/`,
    ...autotaskCredentials,
    secret: 'wrong-secret',
  }),
  companyId: '0',
  board: 'Monitoring Alerts',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Autotask ticket ${id}`)
    return {
      closed: t.status === 5,
      notes: (sim.state.notes[id] ?? []).map((n) => n.description),
      summary: t.title,
      ref: t.externalID,
    }
  },
  calls: autotaskCalls,
  failureText: /Simulated failure/,
}

const haloCredentials = { clientId: 'svc-client', clientSecret: 'svc-secret', tenant: 'acme' }

export const haloService: ServiceFixture<HaloPsaSim> = {
  name: 'HaloPSA',
  start: () => startHaloPsaSim(haloCredentials),
  settings: (url) => ({ kind: 'halopsa', baseUrl: url, ...haloCredentials }),
  badSettings: (url) => ({ kind: 'halopsa', baseUrl: url, ...haloCredentials, clientSecret: 'wrong-secret' }),
  companyId: '12',
  board: 'Security Operations',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no HaloPSA ticket ${id}`)
    return {
      closed: sim.state.closedStatusIds.includes(t.status_id),
      notes: sim.state.actions.filter((a) => a.ticket_id === t.id).map((a) => a.note),
      summary: t.summary,
      ref: t.third_party_id_string,
    }
  },
  calls: haloCalls,
  failureText: /Simulated failure/,
}

const bmsLogin = { tenant: 'Acme MSP', username: 'api@acme-msp.example', password: 'bms-password' }

export const kaseyaBmsService: ServiceFixture<KaseyaBmsSim> = {
  name: 'Kaseya BMS',
  start: () => startKaseyaBmsSim(),
  settings: (url) => ({ kind: 'kaseya-bms', baseUrl: url, ...bmsLogin }),
  badSettings: (url) => ({ kind: 'kaseya-bms', baseUrl: url, ...bmsLogin, password: 'wrong-secret' }),
  companyId: '1001',
  board: 'Monitoring Alerts',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Kaseya BMS ticket ${id}`)
    // Our reference is the last line of the Details: "(ab-ref:{correlationId})".
    const ref = /\n\(ab-ref:([^)]+)\)$/.exec(t.details)?.[1] ?? null
    return { closed: t.completedDate !== null, notes: t.notes.map((n) => n.details), summary: t.title, ref }
  },
  calls: bmsCalls,
  failureText: /Simulated failure/,
}

const pulsewayLogin = { tenant: 'Acme MSP', username: 'api@acme-msp.example', password: 'pulseway-password' }

export const pulsewayPsaService: ServiceFixture<PulsewayPsaSim> = {
  name: 'Pulseway PSA',
  start: () => startPulsewayPsaSim(),
  settings: (url) => ({ kind: 'pulseway-psa', baseUrl: url, ...pulsewayLogin }),
  badSettings: (url) => ({ kind: 'pulseway-psa', baseUrl: url, ...pulsewayLogin, password: 'wrong-secret' }),
  companyId: '1001',
  board: 'Monitoring Alerts',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Pulseway PSA ticket ${id}`)
    // Our reference is the last line of the Details, as on Kaseya BMS: "(ab-ref:{correlationId})".
    const ref = /\n\(ab-ref:([^)]+)\)$/.exec(t.details)?.[1] ?? null
    return { closed: t.completedDate !== null, notes: t.notes.map((n) => n.details), summary: t.title, ref }
  },
  calls: pulsewayCalls,
  failureText: /Simulated failure/,
}

const refOf = (bodies: string[]) => {
  const line = refLine('')
  for (const body of bodies) {
    const at = body.indexOf(line)
    if (at >= 0)
      return (
        body
          .slice(at + line.length)
          .split('\n')[0]
          ?.trim() ?? null
      )
  }
  return null
}

export const syncroService: ServiceFixture<SyncroSim> = {
  name: 'Syncro',
  // More than 1,000 customers: the look-up reads 41 pages of 25.
  start: () => startSyncroSim({ customers: 1030, perMinute: 100_000 }),
  settings: (url) => ({ kind: 'syncro', baseUrl: url, apiToken: 'syncro-api-token' }),
  badSettings: (url) => ({ kind: 'syncro', baseUrl: url, apiToken: 'wrong-secret' }),
  companyId: '1001',
  board: 'Security Alert',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no Syncro ticket ${id}`)
    return {
      closed: t.resolved_at !== null,
      // The first comment is the description; the notes are the comments after it.
      notes: t.comments.slice(1).map((c) => c.body),
      summary: t.subject,
      ref: refOf(t.comments.map((c) => c.body)),
    }
  },
  calls: syncroCalls,
  // Every test partner calls the simulator from one address: the suite's pace is far above Syncro's
  // 180 a minute, which test/psa/syncro/limits.test.ts checks on its own.
  env: { SYNCRO_REQUESTS_PER_MINUTE: '100000' },
  failureText: /Simulated failure/,
}

export const superOpsService: ServiceFixture<SuperOpsSim> = {
  name: 'SuperOps',
  // More than 1,000 clients: the look-up reads 11 pages of 100.
  start: () => startSuperOpsSim({ clients: 1030 }),
  settings: (url) => ({
    kind: 'superops',
    baseUrl: `${url}/msp`,
    subdomain: superOpsSubdomain,
    apiToken: superOpsToken,
  }),
  badSettings: (url) => ({
    kind: 'superops',
    baseUrl: `${url}/msp`,
    subdomain: superOpsSubdomain,
    apiToken: 'api-wrong-secret',
  }),
  companyId: '1001',
  board: 'Security Operations',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => x.ticketId === id)
    if (!t) throw new Error(`no SuperOps ticket ${id}`)
    return {
      closed: t.resolutionTime !== null,
      notes: sim.state.notes.filter((n) => n.ticketId === id).map((n) => n.content),
      summary: t.subject,
      ref: t.sourceReferenceId,
    }
  },
  calls: superOpsCalls,
  failureText: /Simulated failure/,
}

/** The NinjaOne simulator the fixture started last: each partner connects with a grant of its own. */
let ninja: NinjaOneSim | null = null
const ninjaClient = { clientId: 'svc-ninja-client', clientSecret: 'svc-ninja-secret' }
const ninjaGrant = () => {
  if (!ninja) throw new Error('the NinjaOne simulator is not started')
  return ninja.grant()
}

export const ninjaOneService: ServiceFixture<NinjaOneSim> = {
  name: 'NinjaOne',
  // More than 1,000 organizations: the look-up reads six pages of 200.
  start: async () => {
    ninja = await startNinjaOneSim({ ...ninjaClient, organizations: 1100 })
    return ninja
  },
  settings: (url) => ({ kind: 'ninjaone', baseUrl: url, ...ninjaClient, refreshToken: ninjaGrant() }),
  badSettings: (url) => ({
    kind: 'ninjaone',
    baseUrl: url,
    ...ninjaClient,
    clientSecret: 'wrong-secret',
  }),
  companyId: '1',
  board: 'Security Alert',
  tickets: (sim) => sim.state.tickets.length,
  ticket(sim, id) {
    const t = sim.state.tickets.find((x) => String(x.id) === id)
    if (!t) throw new Error(`no NinjaOne ticket ${id}`)
    const description = t.log.find((e) => e.type === 'DESCRIPTION')?.body ?? ''
    return {
      closed: closedStatusIds(sim.state.statuses).includes(t.statusId),
      notes: t.log.filter((e) => e.type === 'COMMENT').map((e) => e.body),
      summary: t.subject,
      ref: /Correlation ID: (\S+)/.exec(description)?.[1] ?? null,
    }
  },
  calls: ninjaCalls,
  failureText: /Simulated failure/,
}
