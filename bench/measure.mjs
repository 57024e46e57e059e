// One measured target under autocannon load: a probe that must answer 201, a discarded warm-up, the
// measured run, and what the run's answers were.
import autocannon from 'autocannon'
import { cpuSeconds, describeExit } from './processes.mjs'
import { wrkAvailable, wrkLoad } from './wrk.mjs'

/** BENCH_TOOL: wrk (the default where it is installed) or autocannon. */
export const tool = process.env.BENCH_TOOL ?? (wrkAvailable() ? 'wrk' : 'autocannon')

function load(url, body, seconds, verifyBody, connections) {
  if (tool === 'wrk') return wrkLoad({ url, body, seconds, connections })
  return autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: seconds,
    ...(verifyBody ? { verifyBody } : {}),
  })
}

/**
 * One measured target: a single probe request that must answer 201 (so a missing route or a broken
 * setup is one clear error, not ten seconds of 404s), the discarded warm-up, the measured run.
 */
export async function measure({ url, body, proc, verifyBody, connections, warmupSeconds, durationSeconds }) {
  const json = JSON.stringify(body)
  const probe = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: json,
  })
  const probeText = await probe.text()
  if (probe.status !== 201) {
    throw new Error(
      `${new URL(url).pathname} answered ${probe.status} (expected 201): ${probeText.slice(0, 300)}`,
    )
  }
  if (verifyBody && !verifyBody(probeText)) {
    throw new Error(
      `${new URL(url).pathname} answered 201 with an unexpected body: ${probeText.slice(0, 300)}`,
    )
  }

  const warm = await load(url, json, warmupSeconds, verifyBody, connections)
  const cpuBefore = cpuSeconds(proc.child)
  const r = await load(url, json, durationSeconds, verifyBody, connections)
  const cpuAfter = cpuSeconds(proc.child)
  if (!proc.running()) {
    throw new Error(
      `${proc.name} exited (${describeExit(await proc.exited)}) during the run:\n${proc.tail()}`,
    )
  }
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([code, { count }]) => [code, count]),
  )
  return {
    reqPerSec: r.requests.mean,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean, max: r.latency.max },
    responses: Object.values(statusCodes).reduce((a, b) => a + b, 0),
    non2xx: r.non2xx,
    statusCodes,
    requestErrors: r.errors,
    timeouts: r.timeouts,
    bodyMismatches: r.mismatches,
    sampleResponse: probeText.slice(0, 500),
    /** 2xx answers from the probe on: probe, warm-up and measured run. */
    accepted: 1 + warm['2xx'] + r['2xx'],
    /**
     * The target process's CPU time (user + system) during the measured run per answer, in µs; with
     * ROLE=all it includes the processing done meanwhile. Null where /proc cannot be read.
     */
    cpuPerRequestUs:
      cpuBefore === null || cpuAfter === null || r['2xx'] === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1e6) / r['2xx'],
  }
}
