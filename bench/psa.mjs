// The PSA rows of `npm run bench` (docs/performance.md#real-psas-connectwise-and-autotask-2026-11-23): real
// adapters against ConnectWise simulators that answer every call after 300 ms, through the whole webhook
// strategy (ROLE=all), one vendor and one PSA per partner.
//   A. 400 alerts over 8 partners (50 each, de-duplication off: every alert makes a ticket). Measured:
//      the time until the last of them reached the vendor's webhook, against what the slowest partner's
//      calls need at its allowed concurrency (its calls × 300 ms / 4, min(PARTNER_CONCURRENCY,
//      ConnectWise maxConcurrent)). The target is at most 3× that.
//   B. the same 400 while a ninth partner's PSA answers in 5 s (50 alerts of its own at the same time).
//      Measured: how much later the 8 partners' alerts finish than in A. The target is at most 10 %.
// The simulators run in one child process (test/support/sims/cli.ts, through tsx); their call logs say how
// many calls each partner made.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { adminToken, startService, stop, track, untilReady } from './processes.mjs'
import { setupIntegration } from './setup.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
export const latencyMs = 300
const slowMs = 5000
const perPartner = 50
const partners = 8
/** Calls in flight per partner: PARTNER_CONCURRENCY and ConnectWise's maxConcurrent, both 4. */
const concurrency = 4

export async function startSims(count) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'test', 'support', 'sims', 'cli.ts'),
      'connectwise',
      '--count',
      String(count),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const proc = track(child, 'the ConnectWise simulators')
  const urls = await untilReady(
    proc,
    (async () => {
      for (;;) {
        const found = [...proc.tail().matchAll(/listening on (http:\/\/\S+)/g)].map((m) => m[1])
        if (found.length >= count) return found
        if (!proc.running()) return []
        await sleep(50)
      }
    })(),
    60,
  )
  return { proc, urls }
}

const json = async (res) => (res.headers.get('content-type')?.includes('json') ? res.json() : null)
const faults = (url, body) =>
  fetch(`${url}/__sim/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
export const callCount = async (url) => (await json(await fetch(`${url}/__sim/calls`))).length

/**
 * One vendor with a partner per simulator URL, each partner on ConnectWise at its own simulator, and
 * every simulator answering after `latencyMs`. Answers the setups in the order of `urls`.
 */
export async function connectWisePartners(baseUrl, receiver, urls) {
  const connect = (url, vendor) =>
    setupIntegration(baseUrl, {
      adminToken,
      webhookUrl: receiver.url,
      vendor,
      psa: {
        kind: 'connectwise',
        baseUrl: url,
        companyId: 'acme',
        publicKey: 'pub-key',
        privateKey: 'priv-key',
        clientId: '00000000-0000-4000-8000-000000000001',
      },
      psaCompanyId: '1',
      ruleTicket: { board: 'Service Desk' },
    })
  const first = await connect(urls[0])
  const setups = [first]
  for (const url of urls.slice(1)) setups.push(await connect(url, first.vendor))
  for (const url of urls) await faults(url, { latencyMs })
  return setups
}

/** Posts every alert (16 at a time), answering with the messageIds per partner. */
async function post(baseUrl, setups, count) {
  const jobs = setups.flatMap((s, p) => Array.from({ length: count }, () => ({ s, p })))
  const sent = setups.map(() => [])
  let next = 0
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < jobs.length) {
        const { s, p } = jobs[next++]
        const res = await fetch(`${baseUrl}/api/oem-alerts-api/alert`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(s.alertBody),
        })
        const body = await json(res)
        if (res.status !== 201) throw new Error(`an alert answered ${res.status}: ${JSON.stringify(body)}`)
        sent[p].push(body.data.messageId)
      }
    }),
  )
  return sent
}

async function until(receiver, messageIds, timeoutMs) {
  const deadline = performance.now() + timeoutMs
  while (!messageIds.every((id) => receiver.updates.has(id))) {
    if (performance.now() > deadline) {
      const missing = messageIds.filter((id) => !receiver.updates.has(id)).length
      throw new Error(`${missing} of ${messageIds.length} alerts had no status_update after ${timeoutMs} ms`)
    }
    await sleep(20)
  }
}

/** Runs both scenarios; answers the rows for the report. */
export async function psaRows(receiver) {
  const sims = await startSims(partners * 2 + 1)
  const service = await startService('all', 'psa', { PSA_RETRY_SCHEDULE: '1,2,5' })
  try {
    const { baseUrl } = service
    // A's partners and B's are set apart (each its own simulator), so B starts as fresh as A.
    const setups = await connectWisePartners(baseUrl, receiver, sims.urls)
    const a = setups.slice(0, partners)
    const b = setups.slice(partners, 2 * partners)
    const slow = setups[2 * partners]
    await faults(sims.urls[2 * partners], { latencyMs: slowMs })

    const scenario = async (group, urls, extra) => {
      const before = await Promise.all(urls.map(callCount))
      const started = performance.now()
      const [sent, extraSent] = await Promise.all([
        post(baseUrl, group, perPartner),
        extra ? post(baseUrl, [extra], perPartner) : null,
      ])
      const ids = sent.flat()
      await until(receiver, ids, 180_000)
      const perPartnerMs = sent.map(
        (list) => Math.max(...list.map((id) => receiver.updates.get(id).at)) - started,
      )
      const calls = (await Promise.all(urls.map(callCount))).map((n, i) => n - before[i])
      const failed = ids.filter((id) => receiver.updates.get(id).event !== 'Ticket Created').length
      return { totalMs: Math.max(...perPartnerMs), perPartnerMs, calls, failed, extraSent }
    }
    const A = await scenario(a, sims.urls.slice(0, partners), null)
    const B = await scenario(b, sims.urls.slice(partners, 2 * partners), slow)
    const idealMs = (Math.max(...A.calls) * latencyMs) / concurrency
    return [
      {
        name: `A: ${partners * perPartner} alerts over ${partners} partners, PSA ${latencyMs} ms`,
        totalMs: A.totalMs,
        idealMs,
        ratio: A.totalMs / idealMs,
        target: '≤ 3× the slowest partner at its concurrency',
        pass: A.totalMs / idealMs <= 3 && A.failed === 0,
        calls: A.calls,
        failed: A.failed,
      },
      {
        name: `B: the same beside a partner whose PSA answers in ${slowMs / 1000} s`,
        totalMs: B.totalMs,
        baselineMs: A.totalMs,
        delay: B.totalMs / A.totalMs - 1,
        target: '≤ 10 % later than A',
        pass: B.totalMs / A.totalMs - 1 <= 0.1 && B.failed === 0,
        calls: B.calls,
        failed: B.failed,
      },
    ]
  } finally {
    await stop(service.proc)
    await stop(sims.proc)
  }
}
