// Syncro through the service's HTTP API, against the Syncro simulator (baseUrl names the account), which
// holds 300 tickets before the suite. The simulator's per-address limit is raised: every partner of these
// tests calls from one address, and the suite makes more than 180 calls a minute. The adapter's own
// per-address budget (180 a minute, shared by every partner: test/psa/syncro.limits.test.ts) holds the
// suite back the same way unless the service is told Syncro allows more.
import { refLine } from '../../src/psa/syncro/tickets.js'
import { type SyncroState, startSyncroSim, syncroCalls } from '../sims/syncro/server.js'
import { throughService } from './through-service.js'

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

throughService<SyncroState>({
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
  // 180 a minute, which test/psa/syncro.limits.test.ts checks on its own.
  env: { SYNCRO_REQUESTS_PER_MINUTE: '100000' },
  failureText: /Simulated failure/,
})
