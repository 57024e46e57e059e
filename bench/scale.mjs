// The scale-out rows of `npm run bench` (docs/performance.md#scale-out-2026-11-24; BENCH_ONLY=scale runs
// them beside the baseline): the same installation as one process and as several, on PostgreSQL + Redis
// (BENCH_POSTGRES_URL, BENCH_REDIS_URL; each installation gets a fresh database and Redis prefix, dropped
// at the end), beside the embedded default (SQLite, one process) measured in the same run.
//   accepts      POST /api/oem-alerts-api/alert (the webhook strategy) under the bench's load tool:
//                embedded ROLE=api; one ROLE=api process on PostgreSQL + Redis; two ROLE=api processes
//                of one installation. With two, the load is split: two load runs at once, half the
//                connections each, one per process (same warm-up and duration, started together), and
//                their req/s summed; p50/p99 are the worse of the two. Each row as a ratio to the
//                baseline of the same run.
//   end to end   BENCH_SCALE_ALERTS alerts (default 400) over BENCH_SCALE_PARTNERS partners (default
//                16), each partner with its own ConnectWise simulator answering every call after 300 ms,
//                de-duplication off (every alert makes a ticket); alerts/s from the first POST to the
//                last status_update at the vendor's receiver. Embedded (one ROLE=all on SQLite), then
//                PostgreSQL + Redis with one ROLE=api accepting and one ROLE=worker, then the same with
//                two, then four ROLE=worker processes. Every process runs WORKER_CONCURRENCY=BENCH_SCALE_WORKER_
//                CONCURRENCY (default 8): that is the limit this row is about. PARTNER_CONCURRENCY (4)
//                is per partner across the installation with Redis, and the adapter's ConnectWise
//                maxConcurrent (4) per partner per process: 16 partners × 4 = 64 calls may be in flight,
//                far more than 8 (one worker) or 16 (two), so the workers' slots are what bounds the
//                throughput, and two workers should come close to twice one. The alerts are posted
//                round-robin over the partners, so the jobs due at any moment belong to many partners.
//                Reported: alerts/s, the PSA calls made, what those calls need at 300 ms each with the
//                workers' slots all busy (calls × 0.3 s / (workers × WORKER_CONCURRENCY)), and the
//                speed-ups two and four workers / one, and the service processes' CPU per alert.
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { measure } from './measure.mjs'
import {
  adminToken,
  cpuSeconds,
  createInstallation,
  startInstallation,
  startService,
  stop,
} from './processes.mjs'
import { callCount, connectWisePartners, latencyMs, startSims } from './psa.mjs'
import { integer, truncate } from './report.mjs'
import { setupIntegration } from './setup.mjs'

const asyncPath = '/api/oem-alerts-api/alert'
const alerts = Number(process.env.BENCH_SCALE_ALERTS ?? 400)
const partners = Number(process.env.BENCH_SCALE_PARTNERS ?? 16)
export const workerConcurrency = Number(process.env.BENCH_SCALE_WORKER_CONCURRENCY ?? 8)
const deliveryTimeoutMs = Number(process.env.BENCH_DRAIN_TIMEOUT ?? 180) * 1000

/** Sums two measure() results of one installation's processes run at the same time. */
function combine(a, b) {
  const codes = { ...a.statusCodes }
  for (const [code, n] of Object.entries(b.statusCodes)) codes[code] = (codes[code] ?? 0) + n
  return {
    reqPerSec: a.reqPerSec + b.reqPerSec,
    latencyMs: {
      p50: Math.max(a.latencyMs.p50, b.latencyMs.p50),
      p99: Math.max(a.latencyMs.p99, b.latencyMs.p99),
      mean: (a.latencyMs.mean * a.responses + b.latencyMs.mean * b.responses) / (a.responses + b.responses),
      max: Math.max(a.latencyMs.max, b.latencyMs.max),
    },
    responses: a.responses + b.responses,
    non2xx: a.non2xx + b.non2xx,
    statusCodes: codes,
    requestErrors: a.requestErrors + b.requestErrors,
    timeouts: a.timeouts + b.timeouts,
    bodyMismatches: a.bodyMismatches + b.bodyMismatches,
    sampleResponse: a.sampleResponse,
    accepted: a.accepted + b.accepted,
    perProcess: [a.reqPerSec, b.reqPerSec],
  }
}

const logOf = (procs) => {
  const error = procs.reduce((n, p) => n + p.log.error, 0)
  const warn = procs.reduce((n, p) => n + p.log.warn, 0)
  const last = procs.find((p) => p.log.lastError)?.log.lastError
  return { warn, error, ...(error > 0 ? { lastError: last } : {}) }
}

/** The accept rows: embedded, one api process on PostgreSQL + Redis, two. */
async function acceptRows(receiver, load) {
  const rows = []
  const scenario = async (name, processes, run) => {
    const row = { name, role: 'api', processes, path: asyncPath, error: null, ratio: null }
    rows.push(row)
    process.stdout.write(`  ${name}…\n`)
    try {
      await run(row)
    } catch (err) {
      row.error = err instanceof Error ? err.message : String(err)
      process.stdout.write(`    failed: ${truncate(row.error.split('\n')[0], 160)}\n`)
    }
  }
  const measureOn = async (row, services) => {
    const { alertBody } = await setupIntegration(services[0].baseUrl, {
      adminToken,
      webhookUrl: receiver.url,
    })
    // The integration's first alert, alone, through the first process, and a moment for the other to
    // hear the configuration notice it publishes (the integration becomes connected), so that the rows
    // measure accepting, not the first alert's state change. (That notice clearing the other's cache
    // mid-read once made a read fail with lru-cache's "deleted"; fixed in src/alerts/executor/cached-reads.ts.)
    const first = await fetch(services[0].baseUrl + asyncPath, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alertBody),
    })
    if (first.status !== 201)
      throw new Error(`the first alert answered ${first.status}: ${await first.text()}`)
    await sleep(500)
    const connections = Math.max(1, Math.floor(load.connections / services.length))
    const results = await Promise.all(
      services.map((s) =>
        measure({ ...load, connections, url: s.baseUrl + asyncPath, body: alertBody, proc: s.proc }),
      ),
    )
    Object.assign(row, results.length === 1 ? results[0] : combine(results[0], results[1]))
    row.connections = connections * services.length
    row.serviceLog = logOf(services.map((s) => s.proc))
  }

  await scenario('accepts, embedded SQLite, 1 × ROLE=api', 1, async (row) => {
    const service = await startService('api', 'scale-accepts-embedded')
    try {
      await measureOn(row, [service])
    } finally {
      await stop(service.proc)
    }
  })
  for (const count of [1, 2]) {
    await scenario(`accepts, PostgreSQL + Redis, ${count} × ROLE=api`, count, async (row) => {
      const installation = await createInstallation()
      let services = []
      try {
        services = await startInstallation(installation, Array(count).fill('api'), `scale-accepts-${count}`)
        await measureOn(row, services)
      } finally {
        await Promise.all(services.map((s) => stop(s.proc)))
        await installation.drop()
      }
    })
  }
  return rows
}

/** Posts the alerts round-robin over the partners, 16 at a time; the messageIds. */
async function post(baseUrl, setups, count) {
  const bodies = Array.from({ length: count }, (_, i) => JSON.stringify(setups[i % setups.length].alertBody))
  const ids = []
  let next = 0
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++]
        const res = await fetch(baseUrl + asyncPath, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        })
        const text = await res.text()
        if (res.status !== 201) throw new Error(`an alert answered ${res.status}: ${text.slice(0, 300)}`)
        ids.push(JSON.parse(text).data.messageId)
      }
    }),
  )
  return ids
}

/**
 * One end-to-end scenario: `start()` answers { accept: the service alerts are posted to, all: every
 * process, stop() }; `workers` is how many processes run jobs.
 */
async function endToEnd(receiver, name, workers, start) {
  const row = { name, workers, workerConcurrency, alerts, partners, error: null }
  process.stdout.write(`  ${name}…\n`)
  const sims = await startSims(partners)
  let running = null
  try {
    running = await start()
    const { baseUrl } = running.accept
    const setups = await connectWisePartners(baseUrl, receiver, sims.urls)
    const before = await Promise.all(sims.urls.map(callCount))
    receiver.updates.clear()
    const log = running.all.map((p) => ({ ...p.proc.log }))

    const cpu = () => running.all.reduce((n, p) => n + (cpuSeconds(p.proc.child) ?? Number.NaN), 0)
    const cpuBefore = cpu()
    const started = performance.now()
    const ids = await post(baseUrl, setups, alerts)
    const acceptedAt = performance.now()
    const deadline = started + deliveryTimeoutMs
    while (!ids.every((id) => receiver.updates.has(id))) {
      if (performance.now() > deadline) {
        const missing = ids.filter((id) => !receiver.updates.has(id)).length
        throw new Error(
          `${missing} of ${ids.length} alerts had no status_update after ${deliveryTimeoutMs} ms`,
        )
      }
      await sleep(20)
    }
    const last = Math.max(...ids.map((id) => receiver.updates.get(id).at))
    // The service processes' CPU (not PostgreSQL's, Redis's or the simulators'), per alert.
    const cpuMsPerAlert = ((cpu() - cpuBefore) * 1000) / alerts
    const calls = (await Promise.all(sims.urls.map(callCount))).reduce((n, c, i) => n + c - before[i], 0)
    const seconds = (last - started) / 1000
    const idealSeconds = (calls * latencyMs) / 1000 / (workers * workerConcurrency)
    Object.assign(row, {
      seconds,
      acceptSeconds: (acceptedAt - started) / 1000,
      alertsPerSec: alerts / seconds,
      calls,
      idealSeconds,
      efficiency: idealSeconds / seconds,
      cpuMsPerAlert: Number.isNaN(cpuMsPerAlert) ? null : cpuMsPerAlert,
      failed: ids.filter((id) => receiver.updates.get(id).event !== 'Ticket Created').length,
      serviceLog: {
        warn: running.all.reduce((n, p, i) => n + p.proc.log.warn - log[i].warn, 0),
        error: running.all.reduce((n, p, i) => n + p.proc.log.error - log[i].error, 0),
      },
    })
    if (row.serviceLog.error > 0) row.serviceLog.lastError = logOf(running.all.map((p) => p.proc)).lastError
  } catch (err) {
    row.error = err instanceof Error ? err.message : String(err)
    process.stdout.write(`    failed: ${truncate(row.error.split('\n')[0], 160)}\n`)
  } finally {
    if (running) await running.stop()
    await stop(sims.proc)
  }
  return row
}

async function endToEndRows(receiver) {
  // Retries soon, in case a call fails: a retry 5 s later would measure the schedule, not the workers.
  const env = { WORKER_CONCURRENCY: String(workerConcurrency), PSA_RETRY_SCHEDULE: '1,2,5' }
  const rows = []
  rows.push(
    await endToEnd(receiver, 'end to end, embedded SQLite, 1 × ROLE=all', 1, async () => {
      const service = await startService('all', 'scale-e2e-embedded', env)
      return { accept: service, all: [service], stop: () => stop(service.proc) }
    }),
  )
  for (const workers of [1, 2, 4]) {
    rows.push(
      await endToEnd(
        receiver,
        `end to end, PostgreSQL + Redis, 1 × ROLE=api + ${workers} × ROLE=worker`,
        workers,
        async () => {
          const installation = await createInstallation()
          try {
            const all = await startInstallation(
              installation,
              ['api', ...Array(workers).fill('worker')],
              `scale-e2e-${workers}`,
              env,
            )
            return {
              accept: all[0],
              all,
              async stop() {
                await Promise.all(all.map((s) => stop(s.proc)))
                await installation.drop()
              },
            }
          } catch (err) {
            await installation.drop()
            throw err
          }
        },
      ),
    )
  }
  return rows
}

/** Every scale-out row; `baseline` is the baseline row of the run (its req/s gives the ratios). */
export async function scaleRows(receiver, load, baseline) {
  const accepts = await acceptRows(receiver, load)
  for (const row of accepts) {
    if (!row.error && baseline && !baseline.error) row.ratio = row.reqPerSec / baseline.reqPerSec
  }
  const endToEndList = await endToEndRows(receiver)
  const [, one, two, four] = endToEndList
  const speedUp = one && two && !one.error && !two.error ? two.alertsPerSec / one.alertsPerSec : null
  const speedUp4 = one && four && !one.error && !four.error ? four.alertsPerSec / one.alertsPerSec : null
  const [, pgOne, pgTwo] = accepts
  const acceptSpeedUp =
    pgOne && pgTwo && !pgOne.error && !pgTwo.error ? pgTwo.reqPerSec / pgOne.reqPerSec : null
  return { accepts, endToEnd: endToEndList, speedUp, speedUp4, acceptSpeedUp, workerConcurrency, latencyMs }
}

/** What makes an end-to-end row a failed run. */
export function endToEndProblems(row) {
  if (row.error) return [row.error]
  const found = []
  if (row.failed > 0) found.push(`${row.failed} alerts did not end in 'Ticket Created'`)
  if (row.serviceLog.error > 0)
    found.push(`the service logged ${row.serviceLog.error} errors; the last: ${row.serviceLog.lastError}`)
  return found
}

/** The end-to-end table and the speed-ups. */
export function scaleTable(scale) {
  const header = [
    'end to end (PSA 300 ms)',
    'alerts/s',
    'seconds',
    'accepting s',
    'PSA calls',
    'bound s',
    'of bound',
    'CPU ms/alert',
  ]
  const lines = scale.endToEnd.map((r) =>
    r.error
      ? [r.name, `ERROR: ${truncate(r.error.split('\n')[0], 120)}`]
      : [
          r.name,
          r.alertsPerSec.toFixed(1),
          r.seconds.toFixed(1),
          r.acceptSeconds.toFixed(1),
          integer(r.calls),
          r.idealSeconds.toFixed(1),
          `${Math.round(r.efficiency * 100)} %`,
          r.cpuMsPerAlert === null ? '-' : r.cpuMsPerAlert.toFixed(2),
        ],
  )
  const widths = header.map((h, i) =>
    Math.max(h.length, ...lines.filter((l) => l.length === header.length).map((l) => l[i].length)),
  )
  widths[0] = Math.max(widths[0], ...lines.map((l) => l[0].length))
  const format = (cells) =>
    cells
      .map((c, i) =>
        i === 0 || cells.length !== header.length ? c.padEnd(widths[i]) : c.padStart(widths[i]),
      )
      .join('  ')
      .trimEnd()
  const out = [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)]
  out.push(
    '',
    `${scale.endToEnd[0]?.alerts ?? alerts} alerts over ${partners} partners, each its own ConnectWise simulator answering after ${latencyMs} ms; ` +
      `WORKER_CONCURRENCY=${scale.workerConcurrency} in every process (PARTNER_CONCURRENCY 4 × ${partners} partners = ${4 * partners} allowed, so the workers' slots are the limit).`,
    'bound s: the PSA calls × 300 ms / (workers × WORKER_CONCURRENCY), the time if every slot waited on the PSA all the time; of bound: that / the time measured.',
  )
  out.push(
    "CPU ms/alert: the service processes' CPU time (user + system) over the run per alert; PostgreSQL, Redis and the simulators not included.",
  )
  if (scale.speedUp !== null) out.push(`speed-up, two workers / one: ${scale.speedUp.toFixed(2)}×`)
  if (scale.speedUp4 !== null) out.push(`speed-up, four workers / one: ${scale.speedUp4.toFixed(2)}×`)
  if (scale.acceptSpeedUp !== null)
    out.push(`accepts, two api processes / one (PostgreSQL + Redis): ${scale.acceptSpeedUp.toFixed(2)}×`)
  return out.join('\n')
}
