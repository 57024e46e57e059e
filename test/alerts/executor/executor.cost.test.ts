// What one alert costs, counted rather than timed (docs/performance.md#statements-per-alert): the SQL
// statements the service runs (reads, writes, transaction control), the rows it writes, its commits
// (each one an fsync on SQLite with synchronous=FULL) and the calls it makes to the PSA, for a create,
// an append and a close, on both strategies, for an integration with no optional feature (no
// maintenance window, no storm setting, no catch-all, no conditions, no template).
//
// The counts are pinned: a change that adds a statement or a PSA call to every alert fails here and
// has to say why in docs/performance.md. Background work of the process (a poll, a timer) can only add
// statements to a window, never take them away, so each operation is measured three times and the
// smallest count is the alert's own.
import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { type Hooked, hooked } from '../../support/hooked.js'
import { connectWiseService } from '../../support/psa/service-fixtures.js'
import type { Receiver } from '../../support/receiver.js'
import { type Response, startService, type TestService } from '../../support/service.js'
import type { ConnectWiseSim } from '../../support/sims/connectwise/server.js'
import { hold } from '../../support/wait.js'

interface Cost {
  statements: number
  reads: number
  writes: number
  /** BEGIN, COMMIT, SAVEPOINT, RELEASE, ROLLBACK. */
  transaction: number
  commits: number
  rowsWritten: number
  psaCalls: number
}

type Op = 'create' | 'append' | 'close'
type Status = 'OPEN' | 'UPDATE' | 'RESOLVED'

/**
 * The pinned counts: at most these. The synchronous strategy's are those of the code before two-way
 * sync, noise control and the portal existed (docs/performance.md#statements-per-alert), statement
 * for statement. The webhook strategy's run from the accept to the status_update's delivery recorded
 * (the accept, the alert's job, the delivery's job, and the queue's claims around them): two statements
 * and one commit fewer than that older code's (each job is removed in its handler's last write,
 * docs/decisions/speed/job-ends-with-its-last-write.md; an attempt reads its vendor's endpoint with
 * the delivery).
 */
const pinned: Record<'sync' | 'webhook', Record<Op, Pin>> = {
  sync: {
    create: { statements: 23, commits: 2, rowsWritten: 5, psaCalls: 1 },
    append: { statements: 19, commits: 1, rowsWritten: 4, psaCalls: 1 },
    close: { statements: 23, commits: 2, rowsWritten: 5, psaCalls: 3 },
  },
  webhook: {
    create: { statements: 53, commits: 6, rowsWritten: 15, psaCalls: 1 },
    append: { statements: 49, commits: 5, rowsWritten: 14, psaCalls: 1 },
    close: { statements: 52, commits: 6, rowsWritten: 15, psaCalls: 3 },
  },
}

type Pin = Pick<Cost, 'statements' | 'commits' | 'rowsWritten' | 'psaCalls'>

/** The counts may fall (then pin the new ones); a rise in any of them, or another PSA call, fails. */
function assertWithin(c: Cost, p: Pin, what: string): void {
  const seen = `${what}: ${JSON.stringify(c)}`
  assert.ok(c.statements <= p.statements, `${seen}: more than ${p.statements} statements`)
  assert.ok(c.commits <= p.commits, `${seen}: more than ${p.commits} commits`)
  assert.ok(c.rowsWritten <= p.rowsWritten, `${seen}: more than ${p.rowsWritten} rows written`)
  assert.equal(c.psaCalls, p.psaCalls, `${seen}: PSA calls`)
}

const kindOf = (sql: string): 'reads' | 'writes' | 'transaction' => {
  const head = sql.trimStart().slice(0, 9).toLowerCase()
  if (/^(begin|commit|savepoint|release|rollback|end)/.test(head)) return 'transaction'
  if (/^(insert|update|delete|replace)/.test(head)) return 'writes'
  return 'reads'
}

describe('what one alert costs (statements, rows, commits, PSA calls)', () => {
  let svc: TestService
  let sim: ConnectWiseSim
  const receivers: Receiver[] = []
  let counting = false
  let heard: string[] = []
  let lastHeard = 0
  /** COST_DUMP=<file>: every measured window's statements, written there (to see what an alert runs). */
  const dumps: string[][] = []
  before(async () => {
    sim = await connectWiseService.start()
    svc = await startService({
      // The accept path's copy of configuration outlives the test: a copy that ran out on a slow
      // machine would be read again, and counted, in whichever operation came next.
      env: { ALLOW_PRIVATE_NETWORK: 'true', CONFIGURATION_CACHE_MS: '60000' },
      onStatement: (sql) => {
        lastHeard = Date.now()
        if (counting) heard.push(sql)
      },
    })
  })
  after(async () => {
    if (process.env.COST_DUMP)
      writeFileSync(process.env.COST_DUMP, dumps.map((d) => d.join('\n')).join('\n\n----\n\n'))
    await svc.close()
    await sim.close()
    for (const r of receivers) await r.close()
  })

  const totalChanges = () =>
    (svc.services.db.sqlite!.prepare('select total_changes() as n').get() as { n: number }).n
  /** Waits until the service has run no statement for a while: what the alert set off is done. */
  const quiet = async () => {
    for (let i = 0; i < 200 && Date.now() - lastHeard < 150; i++)
      await hold(25, 'the service runs what the alert set off')
  }

  async function measure(run: () => Promise<void>): Promise<Cost> {
    await quiet()
    const rowsBefore = totalChanges()
    const callsBefore = sim.calls.length
    heard = []
    counting = true
    await run()
    await quiet()
    counting = false
    const cost: Cost = {
      statements: heard.length,
      reads: 0,
      writes: 0,
      transaction: 0,
      commits: heard.filter((s) => /^\s*commit/i.test(s)).length,
      rowsWritten: totalChanges() - rowsBefore,
      psaCalls: sim.calls.length - callsBefore,
    }
    for (const s of heard) cost[kindOf(s)]++
    if (process.env.COST_DUMP) dumps.push(heard)
    return cost
  }

  const smallest = (costs: Cost[]): Cost => [...costs].sort((a, b) => a.statements - b.statements)[0]!

  async function incidents(
    send: (
      status: 'OPEN' | 'UPDATE' | 'RESOLVED',
      correlationId?: string,
    ) => Promise<{ correlationId: string }>,
  ): Promise<Record<Op, Cost>> {
    // A first incident warms what every later one finds cached (the PSA's look-ups, the configuration).
    const warm = await send('OPEN')
    await send('UPDATE', warm.correlationId)
    await send('RESOLVED', warm.correlationId)
    const seen: Record<Op, Cost[]> = { create: [], append: [], close: [] }
    for (let round = 0; round < 3; round++) {
      let cid = ''
      seen.create.push(
        await measure(async () => {
          cid = (await send('OPEN')).correlationId
        }),
      )
      seen.append.push(
        await measure(async () => {
          await send('UPDATE', cid)
        }),
      )
      seen.close.push(
        await measure(async () => {
          await send('RESOLVED', cid)
        }),
      )
    }
    return { create: smallest(seen.create), append: smallest(seen.append), close: smallest(seen.close) }
  }

  const setup = async () => {
    // The PSA's pushes of our own writes are two-way sync's cost, counted on their own below.
    sim.pushes.drop(null)
    const h = await hooked(svc, {
      psa: connectWiseService.settings(sim.url),
      psaCompanyId: connectWiseService.companyId,
      rule: { productGroup: 'Endpoint Security', ticket: { board: connectWiseService.board } },
    })
    receivers.push(h.receiver)
    return h
  }

  const report = (t: { diagnostic(m: string): void }, strategy: string, costs: Partial<Record<Op, Cost>>) => {
    for (const [op, c] of Object.entries(costs))
      t.diagnostic(
        `${strategy} ${op}: ${c.statements} statements (${c.reads} reads, ${c.writes} writes, ${c.transaction} transaction), ${c.commits} commits, ${c.rowsWritten} rows written, ${c.psaCalls} PSA calls`,
      )
  }

  /** How each strategy sends one alert and waits for all it sets off; answers the correlationId. */
  const strategies: Record<
    'sync' | 'webhook',
    { name: string; send(h: Hooked, status: Status, correlationId?: string): Promise<string> }
  > = {
    sync: {
      name: 'the synchronous strategy',
      async send(h, incidentStatus, correlationId) {
        const res = await h.sync({ incidentStatus }, correlationId ? { correlationId } : {})
        assert.ok(res.status === 201 || res.status === 200, res.text)
        // The synchronous answer spells it correlationID (docs/contract.md).
        return res.body.data.correlationID
      },
    },
    webhook: {
      name: 'the webhook strategy, until the status_update is delivered',
      async send(h, incidentStatus, correlationId) {
        const res: Response = await h.post({ incidentStatus }, correlationId ? { correlationId } : {})
        assert.ok(res.status === 201 || res.status === 200, res.text)
        await h.statusUpdate(res.body.data.messageId)
        return res.body.data.correlationId
      },
    },
  }

  for (const [strategy, { name, send }] of Object.entries(strategies) as [
    keyof typeof strategies,
    (typeof strategies)['sync'],
  ][])
    test(name, async (t) => {
      const h = await setup()
      const costs = await incidents(async (status, cid) => ({ correlationId: await send(h, status, cid) }))
      report(t, strategy, costs)
      for (const op of ['create', 'append', 'close'] as const)
        assertWithin(costs[op], pinned[strategy][op], `${strategy} ${op}`)
    })

  test("two-way sync: the PSA pushing the alert's own write back", async (t) => {
    const h = await setup()
    const open = async () => {
      const res = await h.sync({ incidentStatus: 'OPEN' })
      assert.equal(res.status, 201, res.text)
      return res.body.data.correlationID as string
    }
    const warm = await open()
    await h.sync({ incidentStatus: 'RESOLVED' }, { correlationId: warm })
    sim.pushes.drop(0)
    const costs: Cost[] = []
    for (let round = 0; round < 3; round++) {
      let cid = ''
      costs.push(
        await measure(async () => {
          cid = await open()
          await sim.pushes.settled()
        }),
      )
      sim.pushes.drop(null)
      await h.sync({ incidentStatus: 'RESOLVED' }, { correlationId: cid })
      sim.pushes.drop(0)
    }
    const c = smallest(costs)
    report(t, 'sync, pushed back', { create: c })
    // The create's own 23, and 27 for the push: its subscription and partner read, the ticket queued
    // for a read-back, and that read-back's job, which reads the ticket back from the PSA (3 calls)
    // and finds it as we wrote it.
    assertWithin(c, { statements: 50, commits: 5, rowsWritten: 14, psaCalls: 4 }, 'pushed back')
  })
})
