// The processing rows of `npm run bench` (docs/performance.md#processing-speed-without-stalls-2026-11-23):
// what the webhook strategy does after the answer.
//   end to end (ROLE=all)  during the accept row of the default mode, every status_update the
//                          receiver gets is timed; alerts/s = alerts accepted from the start of the
//                          warm-up to the end of the run / the time until the last one was delivered.
//   worker drain           5,000 alerts queued by a ROLE=api process (not timed), then a ROLE=worker
//                          process on the same database drains them: alerts/s until the last
//                          status_update arrived, the worst GET /healthz answer time while draining
//                          (polled every 50 ms), and the event-loop delay (p99 and max) the worker
//                          itself reports in /metrics over the drain.
// Both count each messageId once (the receiver keeps status_updates by messageId) and fail the row
// if not every alert arrives within BENCH_DRAIN_TIMEOUT seconds (default 180).
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import autocannon from 'autocannon'
import { adminToken, startService, stop } from './processes.mjs'
import { setupIntegration } from './setup.mjs'

const drainTimeoutMs = Number(process.env.BENCH_DRAIN_TIMEOUT ?? 180) * 1000
export const drainAlerts = Number(process.env.BENCH_DRAIN_ALERTS ?? 5000)

/**
 * Waits until the receiver holds `count` status_updates; the arrival time of the last one. With
 * `partial`, a timeout answers what arrived by then ({ delivered, last }) instead of failing.
 */
export async function untilDelivered(receiver, count, what, partial = false) {
  const deadline = performance.now() + drainTimeoutMs
  const last = () => Math.max(...[...receiver.updates.values()].map((u) => u.at))
  while (receiver.updates.size < count) {
    if (performance.now() > deadline) {
      if (partial) return { delivered: receiver.updates.size, last: last() }
      throw new Error(
        `${what}: ${receiver.updates.size} of ${count} status_updates after ${drainTimeoutMs / 1000} s`,
      )
    }
    await sleep(20)
  }
  return partial ? { delivered: count, last: last() } : last()
}

/** The worker's event-loop delay over the window since the previous read (prom-client resets it). */
async function eventLoopDelay(baseUrl) {
  const text = await (await fetch(`${baseUrl}/metrics`)).text()
  const value = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) * 1000
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') }
}

/** Drain runs so far: each gets its own database. */
let drainRuns = 0

export async function drainRow(receiver, env = {}, codeRoot = undefined) {
  // Its own database each run (the API process queues into it, the worker drains it): an alternating
  // run of another revision must not open this code's schema.
  const label = `drain-${++drainRuns}`
  const extra = Object.entries(env)
    .map(([k, v]) => `, ${k}=${v}`)
    .join('')
  const row = {
    name: `worker drain of ${drainAlerts.toLocaleString('en-US')} (ROLE=worker${extra})`,
    role: 'worker',
  }
  receiver.updates.clear()
  const api = await startService('api', label, {}, codeRoot)
  let alertBody
  try {
    ;({ alertBody } = await setupIntegration(api.baseUrl, { adminToken, webhookUrl: receiver.url }))
    const filled = await autocannon({
      url: `${api.baseUrl}/api/oem-alerts-api/alert`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alertBody),
      connections: 16,
      amount: drainAlerts,
    })
    const accepted = filled.statusCodeStats['201']?.count ?? 0
    if (accepted !== drainAlerts) throw new Error(`queued ${accepted} of ${drainAlerts} alerts`)
  } finally {
    await stop(api.proc)
  }
  // The vendor's setup snapshot is queued too: only status_updates are counted.
  const worker = await startService('worker', label, env, codeRoot)
  try {
    const start = performance.now()
    await eventLoopDelay(worker.baseUrl) // resets the window
    let worstHealthMs = 0
    let polling = true
    const poll = (async () => {
      while (polling) {
        const t = performance.now()
        const res = await fetch(`${worker.baseUrl}/healthz`)
        await res.arrayBuffer()
        worstHealthMs = Math.max(worstHealthMs, performance.now() - t)
        await sleep(50)
      }
    })()
    const last = await untilDelivered(receiver, drainAlerts, 'drain').finally(() => {
      polling = false
    })
    await poll
    const delay = await eventLoopDelay(worker.baseUrl)
    Object.assign(row, {
      alertsPerSec: drainAlerts / ((last - start) / 1000),
      drainSeconds: (last - start) / 1000,
      worstHealthMs,
      eventLoopDelayMs: delay,
    })
  } finally {
    await stop(worker.proc)
  }
  return row
}

export function drainTable(row, baselineReqPerSec) {
  if (row.error) return `${row.name}: ERROR ${row.error}`
  const ratio = baselineReqPerSec ? ` (${(row.alertsPerSec / baselineReqPerSec).toFixed(3)}x baseline)` : ''
  return [
    `${row.name}: ${Math.round(row.alertsPerSec)} alerts/s${ratio}, ${row.drainSeconds.toFixed(1)} s;`,
    `  worst /healthz ${row.worstHealthMs.toFixed(0)} ms; event-loop delay p99 ${row.eventLoopDelayMs.p99.toFixed(0)} ms, max ${row.eventLoopDelayMs.max.toFixed(0)} ms`,
  ].join('\n')
}
