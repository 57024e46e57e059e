// `node bench/run.mjs` (npm run bench): the alert intake under load, in one run, on this machine.
//
// What it measures, each target with wrk where it is installed, else autocannon (BENCH_TOOL picks;
// BENCH_CONNECTIONS connections, default 50 with wrk and 32 with autocannon;
// BENCH_DURATION seconds, default 10; after a 2 s warm-up run that is discarded; BENCH_ONLY=api,sync
// runs only the targets whose name has one of the words, beside the baseline):
//   1. baseline          a bare Fastify 5 app (bench/baseline-server.mjs, own process, logger off)
//                        with only POST /api/oem-alerts-api/alert: the service's body validation
//                        (the same TypeBox schema and validator compiler), a 201, nothing else.
//   2. async accepts     the real service (node dist/main/server.js, own process, fresh SQLite database),
//                        POST /api/oem-alerts-api/alert, the webhook strategy: authenticate, admit,
//                        queue, answer 201. Once with ROLE=api (accepts and queues, no worker) and
//                        once with ROLE=all (the worker also drains the queue, creating tickets and
//                        posting webhooks to a receiver in this process, while the load runs).
//   3. sync creates      the real service, ROLE=api, POST /api/oem-alerts-api/alert/sync against the
//                        sandbox PSA: the whole decision table per request, a new ticket each time.
//   4. processing      (bench/pipeline.mjs) end to end in the ROLE=all row (accepted → status_update
//                        delivered), and a ROLE=worker drain of 5,000 queued alerts with the worst
//                        /healthz answer and the event-loop delay while draining (BENCH_ONLY=drain).
//   5. PSA rows          (bench/psa.mjs) ConnectWise simulators answering after 300 ms: 400 alerts over
//                        8 partners, then the same beside a partner whose PSA takes 5 s (BENCH_ONLY=psa).
//   against rows       BENCH_AGAINST=<rev> (bench/against.mjs): each service target above runs alternately
//                        on this code and on that git revision (a temporary worktree, built), BENCH_AGAINST_ROUNDS
//                        times each (default 2); the report gives both sides' runs, the ratio of their
//                        means, end to end in the ROLE=all row, and the service's CPU per request; the
//                        worker drain (BENCH_ONLY=drain) alternates the same way.
//   6. scale-out rows    (bench/scale.mjs; BENCH_ONLY=scale) on PostgreSQL + Redis
//                        (BENCH_POSTGRES_URL, BENCH_REDIS_URL; a fresh database and Redis prefix per
//                        installation, dropped at the end), beside the embedded default measured again
//                        in the same run:
//                        - accepts against one ROLE=api process and against two of one installation
//                          (the load split: two load runs at once, half the connections each, req/s
//                          summed), each as a ratio to the baseline, beside embedded ROLE=api;
//                        - end to end, 400 alerts over 16 partners whose ConnectWise simulators answer
//                          after 300 ms, first POST to last status_update: embedded ROLE=all, then
//                          ROLE=api + one ROLE=worker, then ROLE=api + two ROLE=worker, every process
//                          with WORKER_CONCURRENCY=8 (BENCH_SCALE_WORKER_CONCURRENCY) so that the
//                          workers' slots, not the per-partner cap (4 × 16 partners), are the limit;
//                          and the speed-up two workers / one.
// Each service target gets its own process and database, set up over the HTTP APIs only (as
// test/support/fixtures.ts does), with the vendor rate limit at its maximum and de-duplication off,
// so every identical OPEN alert is a new incident. Every response's status is counted: a run with
// answers other than 201, socket errors, wrong bodies (baseline and sync: "message":"created") or
// error lines in the service's log is listed under the table, and the bench exits with code 1.
//
// Why the baseline: absolute requests/s depend on the machine (and autocannon runs on the same
// cores as the target, so it takes its share too). The ratio of each target to a bare Fastify route
// doing the same HTTP and validation work on the same machine is what carries over between machines:
// it is the cost of the service's own work (auth, database, queue) per request.
//
// Prints the machine and a table, writes bench/results.json. Builds dist/ first when src/ is newer
// (as scripts/start.mjs does). Every child process is stopped at the end, on errors and on Ctrl-C,
// and the temporary directory is removed.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { buildIfStale } from '../scripts/build.mjs'
import { againstTable, alternate, prepareRevision } from './against.mjs'
import { measure, tool } from './measure.mjs'
import { drainAlerts, drainRow, drainTable, untilDelivered } from './pipeline.mjs'
import {
  adminToken,
  cleanUp,
  dropInstallations,
  startBaseline,
  startReceiver,
  startService,
  stop,
} from './processes.mjs'
import { psaRows } from './psa.mjs'
import { integer, machine, problems, psaTable, table, truncate } from './report.mjs'
import { endToEndProblems, scaleRows, scaleTable } from './scale.mjs'
import { sampleAlertBody, setupIntegration } from './setup.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const resultsFile = join(root, 'bench', 'results.json')

const connections = positiveInteger('BENCH_CONNECTIONS', tool === 'wrk' ? 50 : 32)
const durationSeconds = positiveInteger('BENCH_DURATION', 10)
const warmupSeconds = 2
/** BENCH_ONLY=api,sync: only the targets whose name has one of these words (the baseline always runs). */
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
const asyncPath = '/api/oem-alerts-api/alert'
const syncPath = '/api/oem-alerts-api/alert/sync'

function positiveInteger(name, fallback) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`${name} must be a positive integer (got ${JSON.stringify(raw)})\n`)
    process.exit(2)
  }
  return value
}
const load = { connections, warmupSeconds, durationSeconds }
const createdBody = (text) => text.includes('"message":"created"')

const targets = [
  {
    name: 'baseline (bare Fastify)',
    role: null,
    path: asyncPath,
    async run(row) {
      const { proc, baseUrl } = await startBaseline()
      try {
        Object.assign(
          row,
          await measure({
            ...load,
            url: baseUrl + asyncPath,
            body: sampleAlertBody(),
            proc,
            verifyBody: createdBody,
          }),
        )
      } finally {
        await stop(proc)
      }
    },
  },
  serviceTarget('async accepts', 'api', asyncPath),
  serviceTarget('async accepts', 'all', asyncPath),
  serviceTarget('sync creates', 'api', syncPath, createdBody),
]

function serviceTarget(what, role, path, verifyBody) {
  const label = `${what.replace(' ', '-')}-${role}`
  /** Runs so far: each starts on a database of its own (BENCH_AGAINST runs a target several times). */
  let runs = 0
  return {
    name: `${what} (ROLE=${role})`,
    role,
    path,
    /** `codeRoot`: another checkout's service (BENCH_AGAINST), else this one's. */
    async run(row, receiver, codeRoot) {
      const { proc, baseUrl } = await startService(
        role,
        `${label}${codeRoot ? '-against' : ''}-${++runs}`,
        {},
        codeRoot,
      )
      try {
        const { alertBody } = await setupIntegration(baseUrl, { adminToken, webhookUrl: receiver.url })
        // Counted from the first alert on: probe, warm-up and measured run.
        const hooksBefore = receiver.count
        const { warn, error } = proc.log
        receiver.updates.clear()
        const start = performance.now()
        Object.assign(row, await measure({ ...load, url: baseUrl + path, body: alertBody, proc, verifyBody }))
        if (role === 'all') {
          // End to end: everything accepted from the probe on, until its status_update arrived.
          // What arrived within BENCH_DRAIN_TIMEOUT counts (a long backlog is measured, not waited out).
          const { delivered, last } = await untilDelivered(receiver, row.accepted, row.name, true)
          row.endToEnd = { alerts: delivered, accepted: row.accepted, seconds: (last - start) / 1000 }
          row.endToEnd.alertsPerSec = delivered / row.endToEnd.seconds
        }
        row.webhooksReceived = receiver.count - hooksBefore
        row.serviceLog = { warn: proc.log.warn - warn, error: proc.log.error - error }
        if (row.serviceLog.error > 0) row.serviceLog.lastError = proc.log.lastError
      } finally {
        await stop(proc)
      }
    },
  }
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const m = machine()
  process.stdout.write(
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}\n` +
      `load: ${tool}, ${connections} connections, ${warmupSeconds} s warm-up (discarded) + ${durationSeconds} s per target\n\n`,
  )
  buildIfStale()
  const receiver = await startReceiver()

  const rows = []
  const against = []
  let psa = []
  let scale = null
  const drains = []
  const rev = process.env.BENCH_AGAINST
  try {
    // With BENCH_AGAINST the service targets run in the alternating rounds below (the first round's
    // run of this code fills the main table).
    for (const target of targets.filter(
      (t, i) => i === 0 || (!rev && (only.length === 0 || only.some((o) => t.name.includes(o)))),
    )) {
      const row = { name: target.name, role: target.role, path: target.path, error: null, ratio: null }
      rows.push(row)
      process.stdout.write(`running ${target.name}: POST ${target.path}…\n`)
      try {
        await target.run(row, receiver)
      } catch (err) {
        row.error = err instanceof Error ? err.message : String(err)
        process.stdout.write(`  failed: ${truncate(row.error.split('\n')[0], 160)}\n`)
      }
    }
    if (rev) {
      const rounds = positiveInteger('BENCH_AGAINST_ROUNDS', 2)
      const other = prepareRevision(rev)
      try {
        for (const target of targets.filter(
          (t, i) => i > 0 && (only.length === 0 || only.some((o) => t.name.includes(o))),
        )) {
          const pair = await alternate(target.name, 'req/s', rounds, other, async (codeRoot) => {
            const row = { name: target.name, role: target.role, error: null }
            try {
              await target.run(row, receiver, codeRoot)
            } catch (err) {
              row.error = err instanceof Error ? err.message : String(err)
            }
            return row
          })
          against.push(pair)
          rows.push(pair.ours[0])
        }
        // The drain alternates too; its first run of this code is the drain row below.
        if (only.length === 0 || only.includes('drain')) {
          const name = `worker drain of ${drainAlerts.toLocaleString('en-US')}`
          const pair = await alternate(name, 'alerts/s', rounds, other, (codeRoot) =>
            drainRow(receiver, {}, codeRoot).catch((err) => ({
              name: 'worker drain',
              error: err instanceof Error ? err.message : String(err),
            })),
          )
          against.push(pair)
          drains.push(pair.ours[0])
        }
      } finally {
        other.remove()
      }
    }
    if (!rev && (only.length === 0 || only.includes('drain'))) {
      process.stdout.write(`running the worker drain: ${drainAlerts} queued alerts, then ROLE=worker…\n`)
      // The bench's one partner is on the sandbox PSA, whose alerts are not capped by
      // PARTNER_CONCURRENCY (it answers in-process); BENCH_DRAIN_ENV='{"PARTNER_CONCURRENCY":"4"}'
      // style settings add a second row with them.
      const extra = process.env.BENCH_DRAIN_ENV ? [JSON.parse(process.env.BENCH_DRAIN_ENV)] : []
      for (const env of [{}, ...extra]) {
        try {
          drains.push(await drainRow(receiver, env))
        } catch (err) {
          drains.push({ name: 'worker drain', error: err instanceof Error ? err.message : String(err) })
        }
      }
    }
    if (only.length === 0 || only.includes('psa')) {
      process.stdout.write('running the PSA rows: ConnectWise simulators, webhook strategy…\n')
      try {
        psa = await psaRows(receiver)
      } catch (err) {
        psa = [{ name: 'PSA rows', error: err instanceof Error ? err.message : String(err), pass: false }]
      }
    }
    if (only.length === 0 || only.includes('scale')) {
      process.stdout.write('running the scale-out rows: PostgreSQL + Redis, one process and two…\n')
      try {
        scale = await scaleRows(receiver, load, rows[0])
      } catch (err) {
        scale = { error: err instanceof Error ? err.message : String(err) }
      }
    }
  } finally {
    receiver.server.closeAllConnections()
    receiver.server.close()
  }

  const baseline = rows[0]
  for (const row of rows) {
    if (!row.error) row.ratio = baseline.error ? null : row.reqPerSec / baseline.reqPerSec
  }

  process.stdout.write(`\n${table(rows)}\n`)
  const failed = rows.map((r) => [r.name, problems(r)]).filter(([, p]) => p.length > 0)
  const notes = []
  for (const r of rows.filter((r) => !r.error && r.role)) {
    if (r.role === 'all' || r.webhooksReceived > 0) {
      notes.push(`${r.name}: ${integer(r.webhooksReceived)} webhooks received (warm-up and run)`)
    }
    if (r.serviceLog.warn > 0)
      notes.push(`${r.name}: the service logged ${integer(r.serviceLog.warn)} warnings`)
  }
  for (const r of rows.filter((r) => !r.error && r.endToEnd)) {
    const e = r.endToEnd
    const ratio = baseline.error ? '' : ` (${(e.alertsPerSec / baseline.reqPerSec).toFixed(3)}x baseline)`
    notes.push(
      `${r.name} end to end: ${integer(e.accepted)} accepted, ${integer(e.alerts)} delivered after ${e.seconds.toFixed(1)} s: ${integer(e.alertsPerSec)} alerts/s${ratio}`,
    )
  }
  if (notes.length > 0) process.stdout.write(`\n${notes.join('\n')}\n`)
  for (const drain of drains) {
    process.stdout.write(`\n${drainTable(drain, baseline.error ? null : baseline.reqPerSec)}\n`)
    if (drain.error) process.exitCode = 1
  }
  if (against.length > 0) process.stdout.write(`\n${againstTable(process.env.BENCH_AGAINST, against)}\n`)
  if (psa.length > 0) {
    process.stdout.write(`\n${psaTable(psa)}\n`)
    if (psa.some((r) => r.error)) process.exitCode = 1
  }
  if (scale?.error) {
    process.stdout.write(`\nscale-out rows: ERROR ${scale.error}\n`)
    process.exitCode = 1
  } else if (scale) {
    process.stdout.write(`\n${table(scale.accepts)}\n\n${scaleTable(scale)}\n`)
    for (const r of scale.accepts) {
      const found = problems(r)
      if (found.length > 0) failed.push([r.name, found])
    }
    for (const r of scale.endToEnd) {
      const found = endToEndProblems(r)
      if (found.length > 0) failed.push([r.name, found])
    }
  }
  if (failed.length > 0) {
    process.stdout.write('\nPROBLEMS (these rows are not clean measurements):\n')
    for (const [name, found] of failed) {
      for (const p of found) process.stdout.write(`  ${name}: ${p.replaceAll('\n', '\n    ')}\n`)
    }
    process.exitCode = 1
  }

  writeFileSync(
    resultsFile,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: m,
        load: { tool, connections, warmupSeconds, durationSeconds },
        rows,
        against: against.length > 0 ? { rev: process.env.BENCH_AGAINST, pairs: against } : null,
        drains,
        psa,
        scale,
      },
      null,
      2,
    )}\n`,
  )
  process.stdout.write(`\nresults written to ${resultsFile}\n`)
}

main()
  .catch((err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    process.exitCode = 1
  })
  .finally(async () => {
    // Each target stops its own child; anything still here is left over from a failure.
    cleanUp()
    await dropInstallations()
  })
