// The reconciliation poll within a PSA's real budget, through the whole service (docs/psa/sync.md#the-poll-and-the-budget):
// a poll that wants far more than the budget (every open ticket read every few seconds) spends only
// what the alerts leave, so sync OPENs keep being answered 201 (never 502 for a budget the poll spent),
// the simulator never has to refuse with 429, and the poll is never silent for longer than its
// interval: its sync status's lastPollAt moves at least once an interval, and while a round is held
// back the status says so (heldUntil, heldReason). Each PSA's
// psa-sync.budget.service.test.ts runs it with the PSA's own budget on the simulator and in the adapter.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Hooked } from '../hooked.js'
import { type Backend, backends, startService, type TestService } from '../service.js'
import type { StartedSim } from '../sims/harness.js'
import { hold } from '../wait.js'
import { syncedPartner } from './synced-partner.js'
import type { ServiceFixture } from './through-service.js'

export interface PollBudgetFixture<T extends StartedSim<unknown>> {
  service: ServiceFixture<T>
  /** The simulator at the PSA's real budget. */
  start(): Promise<T>
  /** The budget the PSA keeps (the simulator refuses beyond it) and the adapter keeps by default. */
  budget: { requests: number; perSeconds: number }
  /** The simulator's calls that read a ticket back for the poll. */
  reads: { pattern: RegExp; method?: string }
  /** Service settings that put the adapter at the PSA's real budget (where the fixture lifts it). */
  env?: Record<string, string>
}

/** The poll wants every open ticket read every 3 s: far more than any PSA's budget allows. */
const intervalMs = 3000
/** Tickets open before the load: the poll's work. */
const opened = 30
/** Sync OPENs sent while the poll runs, one every `paceMs`. */
const during = 16
const paceMs = 900

export function pollWithinBudget<T extends StartedSim<unknown>>(
  f: PollBudgetFixture<T>,
  on: Backend[] = backends('databases'),
): void {
  for (const backend of on) {
    describe(`${f.service.name}: the poll within the PSA's budget of ${f.budget.requests} a ${f.budget.perSeconds === 60 ? 'minute' : `${f.budget.perSeconds} s`} (${backend})`, () => {
      let sim: T
      let svc: TestService
      let s: Hooked
      before(async () => {
        sim = await f.start()
        svc = await startService({
          backend,
          env: {
            ALLOW_PRIVATE_NETWORK: 'true',
            PSA_TIMEOUT_MS: '5000',
            PSA_POLL_INTERVAL_MS: String(intervalMs),
            PSA_POLL_PUSH_INTERVAL_MS: String(intervalMs),
            ...f.service.env,
            ...f.env,
          },
        })
        s = await syncedPartner(svc, f.service, sim.url)
      })
      after(async () => {
        await svc?.close()
        await sim?.close()
        await s?.receiver.close()
      })

      test('sync OPENs are never refused for a budget the poll spent; the poll is heard every interval', async () => {
        const refusals: string[] = []
        const open = async (title: string) => {
          const r = await s.sync({ title })
          if (r.status !== 201) refusals.push(`${r.status} ${r.text}`)
        }
        for (let i = 0; i < opened; i++) await open(`Malware on WS-${100 + i}`)
        // The poll now has `opened` tickets to read every interval, and alerts keep coming.
        const seen: number[] = []
        const holds: { lookedAt: number; until: number; reason: string | null }[] = []
        const watch = (async () => {
          const until = Date.now() + during * paceMs + intervalMs
          while (Date.now() < until) {
            const lookedAt = Date.now()
            const st = await s.partner('GET', '/api/partner/psa/sync')
            const at = st.body.lastPollAt ? Date.parse(st.body.lastPollAt) : null
            if (at !== null && at !== seen.at(-1)) seen.push(at)
            if (st.body.heldUntil)
              holds.push({ lookedAt, until: Date.parse(st.body.heldUntil), reason: st.body.heldReason })
            await hold(250, 'the next look at the sync status')
          }
        })()
        const watchStarted = Date.now()
        for (let i = 0; i < during; i++) {
          await open(`Ransomware on SRV-${i}`)
          await hold(paceMs, 'the next alert')
        }
        await watch
        assert.deepEqual(refusals, [], 'every sync OPEN created its ticket')
        // The PSA's budget was kept: no window of it saw more calls than it allows.
        const times = sim.calls.filter((c) => !c.url.startsWith('/__sim')).map((c) => c.at)
        const windowMs = f.budget.perSeconds * 1000
        let most = 0
        for (let i = 0, j = 0; i < times.length; i++) {
          while ((times[i] ?? 0) - (times[j] ?? 0) >= windowMs) j++
          most = Math.max(most, i - j + 1)
        }
        assert.ok(most <= f.budget.requests, `${most} calls within one window, of ${f.budget.requests}`)
        // The poll read tickets back, and was heard at least once an interval (with slack for the
        // round's own reads, the queue's pick-up on a loaded machine and the status's 250 ms look).
        const reads = sim.callsTo(f.reads.pattern, f.reads.method).length
        assert.ok(reads > 0, 'the poll read tickets back')
        const heard = seen.filter((at) => at >= watchStarted - intervalMs)
        assert.ok(heard.length >= 2, `lastPollAt moved: ${heard.length} times`)
        for (let i = 1; i < heard.length; i++)
          assert.ok(
            (heard[i] ?? 0) - (heard[i - 1] ?? 0) <= intervalMs + 2500,
            `silent for ${(heard[i] ?? 0) - (heard[i - 1] ?? 0)} ms between two polls`,
          )
        // The poll wanted more than the budget: the sync status said it was held back, why, and until
        // a time still to come (a round due already is not shown as held).
        assert.ok(holds.length > 0, 'the sync status showed the poll held back')
        for (const h of holds) {
          assert.match(h.reason ?? '', /two-way sync leaves the rest of .+ to alerts \(\d+% used\)/)
          assert.ok(h.until > h.lookedAt - 1000, `held until ${h.until}, looked at ${h.lookedAt}`)
        }
        // The poll's own reads: at most half the budget, and one due read a round past it.
        assert.ok(
          reads <= f.budget.requests / 2 + heard.length + 1,
          `${reads} reads of ${times.length} calls, within a budget of ${f.budget.requests}`,
        )
      })
    })
  }
}
