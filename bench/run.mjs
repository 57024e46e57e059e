// `node bench/run.mjs` (npm run bench): the alert intake under load, in one run, on this machine.
//
// What it measures, each target with autocannon (BENCH_CONNECTIONS connections, default 32;
// BENCH_DURATION seconds, default 10; after a 2 s warm-up run that is discarded):
//   1. baseline          a bare Fastify 5 app (bench/baseline-server.mjs, own process, logger off)
//                        with only POST /api/oem-alerts-api/alert: the service's body validation
//                        (the same TypeBox schema and validator compiler), a 201, nothing else.
//   2. async accepts     the real service (node dist/server.js, own process, fresh SQLite database),
//                        POST /api/oem-alerts-api/alert, the webhook strategy: authenticate, admit,
//                        queue, answer 201. Once with ROLE=api (accepts and queues, no worker) and
//                        once with ROLE=all (the worker also drains the queue, creating tickets and
//                        posting webhooks to a receiver in this process, while the load runs).
//   3. sync creates      the real service, ROLE=api, POST /api/oem-alerts-api/alert/sync against the
//                        sandbox PSA: the whole decision table per request, a new ticket each time.
// Each service target gets its own process and database, set up over the HTTP APIs only (as
// test/helpers/fixtures.ts does), with the vendor rate limit at its maximum and de-duplication off,
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
import { fork, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import os from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { buildIfStale } from '../scripts/build.mjs'
import { sampleAlertBody, setupIntegration } from './setup.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const resultsFile = join(root, 'bench', 'results.json')

const connections = positiveInteger('BENCH_CONNECTIONS', 32)
const durationSeconds = positiveInteger('BENCH_DURATION', 10)
const warmupSeconds = 2
const adminToken = 'alertbridge-bench-admin-token-0000000000' // 40 characters; the service wants ≥ 32
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

// ---------------------------------------------------------------------------------------------
// Child processes and clean-up

/** Children still running. The exit handler kills whatever is left, whatever way we exit. */
const children = new Set()
let tmpDir = null

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL')
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true })
})
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping the children and leaving\n`)
    process.exit(code)
  })
}

/**
 * Registers a child: keeps the tail of its output for error messages, counts the service's pino log
 * lines at warn (40) and error (50) or above, and notes when it exits.
 */
function track(child, name) {
  let tail = ''
  const log = { warn: 0, error: 0, lastError: null }
  const keep = (chunk) => {
    const text = chunk.toString()
    tail = (tail + text).slice(-8000)
    for (const line of text.split('\n')) {
      const level = Number(/"level":(\d+)/.exec(line)?.[1])
      if (level === 40) log.warn++
      if (level >= 50) {
        log.error++
        log.lastError = line.slice(0, 500)
      }
    }
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  children.add(child)
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      children.delete(child)
      resolve({ code, signal })
    })
  })
  return {
    name,
    child,
    exited,
    running: () => children.has(child),
    tail: () => tail.trim(),
    log,
  }
}

function describeExit({ code, signal }) {
  return signal ? `signal ${signal}` : `code ${code}`
}

/** SIGTERM, then SIGKILL if it has not exited within 5 s. */
async function stop(proc) {
  if (!proc.running()) return
  proc.child.kill('SIGTERM')
  const stopped = await Promise.race([proc.exited.then(() => true), sleep(5000).then(() => false)])
  if (!stopped) {
    proc.child.kill('SIGKILL')
    await proc.exited
  }
}

/** Resolves with what `ready` resolves with; rejects if the child exits first or time runs out. */
async function untilReady(proc, ready, seconds = 30) {
  let timer
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${proc.name} not ready after ${seconds} s`)), seconds * 1000)
  })
  const died = proc.exited.then((exit) => {
    throw new Error(`${proc.name} exited (${describeExit(exit)}) before it was ready:\n${proc.tail()}`)
  })
  try {
    return await Promise.race([ready, died, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

// ---------------------------------------------------------------------------------------------
// Build, targets and the webhook receiver

async function startBaseline() {
  const child = fork(join(root, 'bench', 'baseline-server.mjs'), [], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  const proc = track(child, 'the baseline server')
  const port = await untilReady(proc, new Promise((resolve) => child.once('message', (m) => resolve(m.port))))
  return { proc, baseUrl: `http://127.0.0.1:${port}` }
}

/** Every variable the service reads (its EnvSchema): none leaks in from the caller's environment. */
async function serviceEnvNames() {
  const { EnvSchema } = await import(new URL('../dist/config.js', import.meta.url).href)
  return Object.keys(EnvSchema.properties)
}

async function startService(role, label) {
  const dataDir = join(tmpDir, label)
  mkdirSync(dataDir, { recursive: true })
  const port = await freePort()
  const env = { ...process.env }
  for (const name of await serviceEnvNames()) delete env[name]
  Object.assign(env, {
    DATABASE_URL: `sqlite:${join(dataDir, 'bench.db')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_TOKEN: adminToken,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_NETWORK: 'true',
    ROLE: role,
  })
  const child = spawn(process.execPath, [join(root, 'dist', 'server.js')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const proc = track(child, `the service (ROLE=${role})`)
  const baseUrl = `http://127.0.0.1:${port}`
  await untilReady(
    proc,
    (async () => {
      // server.ts prints its address once it listens; then the database must answer too. The loop
      // ends with the child, so a service that dies while starting leaves nothing polling.
      while (!proc.tail().includes('alertbridge listening on')) {
        if (!proc.running()) return
        await sleep(50)
      }
      const res = await fetch(`${baseUrl}/readyz`)
      if (res.status !== 200) throw new Error(`GET /readyz answered ${res.status}: ${await res.text()}`)
    })(),
  )
  return { proc, baseUrl }
}

/** The vendor's webhook endpoint: answers 204 to POST /hook and counts the deliveries. */
async function startReceiver() {
  const receiver = { count: 0, server: null, url: '' }
  receiver.server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/hook') {
        receiver.count++
        res.writeHead(204).end()
      } else {
        res.writeHead(404).end()
      }
    })
  })
  await new Promise((resolve) => receiver.server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${receiver.server.address().port}/hook`
  return receiver
}

// ---------------------------------------------------------------------------------------------
// Load

function load(url, body, seconds, verifyBody) {
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
async function measure({ url, body, proc, verifyBody }) {
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

  await load(url, json, warmupSeconds, verifyBody)
  const r = await load(url, json, durationSeconds, verifyBody)
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
  }
}

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
          await measure({ url: baseUrl + asyncPath, body: sampleAlertBody(), proc, verifyBody: createdBody }),
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
  return {
    name: `${what} (ROLE=${role})`,
    role,
    path,
    async run(row, receiver) {
      const { proc, baseUrl } = await startService(role, label)
      try {
        const { alertBody } = await setupIntegration(baseUrl, { adminToken, webhookUrl: receiver.url })
        // Counted from the first alert on: probe, warm-up and measured run.
        const hooksBefore = receiver.count
        const { warn, error } = proc.log
        Object.assign(row, await measure({ url: baseUrl + path, body: alertBody, proc, verifyBody }))
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
// Report

function machine() {
  const cpus = os.cpus()
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  }
}

const truncate = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
const integer = (n) => Math.round(n).toLocaleString('en-US')
const ms = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(2))
const codes = (statusCodes) =>
  Object.entries(statusCodes)
    .map(([code, count]) => `${code}×${integer(count)}`)
    .join(' ')

function table(rows) {
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'responses',
    'non-2xx',
    'errors',
    'vs baseline',
    'status codes',
  ]
  const right = new Set([1, 2, 3, 4, 5, 6, 7])
  const lines = rows.map((r) =>
    r.error
      ? [r.name, `ERROR: ${truncate(r.error.split('\n')[0], 120)}`]
      : [
          r.name,
          integer(r.reqPerSec),
          ms(r.latencyMs.p50),
          ms(r.latencyMs.p99),
          integer(r.responses),
          integer(r.non2xx),
          integer(r.requestErrors + r.timeouts + r.bodyMismatches),
          r.ratio === null ? '-' : `${r.ratio.toFixed(2)}x`,
          codes(r.statusCodes),
        ],
  )
  const widths = header.map((h, i) =>
    Math.max(h.length, ...lines.filter((l) => l.length === header.length).map((l) => l[i].length)),
  )
  widths[0] = Math.max(widths[0], ...lines.map((l) => l[0].length))
  const format = (cells) =>
    cells
      .map((c, i) => {
        if (cells.length !== header.length && i === 1) return c // an error message takes the rest of the line
        return right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])
      })
      .join('  ')
      .trimEnd()
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n')
}

/** What makes a row a failed run: an error, or any answer that is not the expected 201. */
function problems(row) {
  if (row.error) return [row.error]
  const found = []
  const unexpected = Object.entries(row.statusCodes).filter(([code]) => code !== '201')
  if (unexpected.length > 0) found.push(`answers other than 201: ${codes(Object.fromEntries(unexpected))}`)
  if (row.requestErrors > 0) found.push(`${integer(row.requestErrors)} request errors (sockets)`)
  if (row.timeouts > 0) found.push(`${integer(row.timeouts)} timeouts`)
  if (row.bodyMismatches > 0) found.push(`${integer(row.bodyMismatches)} bodies without "message":"created"`)
  if (row.serviceLog?.error > 0) {
    found.push(
      `the service logged ${integer(row.serviceLog.error)} errors; the last: ${row.serviceLog.lastError}`,
    )
  }
  return found
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const m = machine()
  process.stdout.write(
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}\n` +
      `load: autocannon, ${connections} connections, ${warmupSeconds} s warm-up (discarded) + ${durationSeconds} s per target\n\n`,
  )
  buildIfStale()
  tmpDir = mkdtempSync(join(os.tmpdir(), 'alertbridge-bench-'))
  const receiver = await startReceiver()

  const rows = []
  try {
    for (const target of targets) {
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
  if (notes.length > 0) process.stdout.write(`\n${notes.join('\n')}\n`)
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
        load: { tool: 'autocannon', connections, warmupSeconds, durationSeconds },
        rows,
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
  .finally(() => {
    // Each target stops its own child; anything still here is left over from a failure.
    for (const child of children) child.kill('SIGKILL')
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true })
    tmpDir = null
  })
