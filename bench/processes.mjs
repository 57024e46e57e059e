// The bench's child processes: the baseline server and the service, each its own process, started, watched
// (the tail of their output, their warn and error log lines) and stopped; a temporary data directory; and
// the webhook receiver. Whatever way the bench ends, no child is left running. Scale-out installations: a
// fresh PostgreSQL database and Redis key prefix each, shared by several service processes, dropped when
// the bench ends (dropInstallations).
import { fork, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import os from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import pg from 'pg'

const root = fileURLToPath(new URL('..', import.meta.url))
export const adminToken = 'alertbridge-bench-admin-token-0000000000' // 40 characters; the service wants ≥ 32

/** Children still running. The exit handler kills whatever is left, whatever way we exit. */
const children = new Set()
let tmpDir = null

/** A temporary directory for the services' databases, removed when the bench ends. */
export function tempDir() {
  tmpDir ??= mkdtempSync(join(os.tmpdir(), 'alertbridge-bench-'))
  return tmpDir
}

/** Stops whatever is still running and removes the temporary directory. */
export function cleanUp() {
  for (const child of children) child.kill('SIGKILL')
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true })
  tmpDir = null
}

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
    for (const child of children) child.kill('SIGKILL')
    // The scale-out rows' databases and Redis keys too, if that takes no more than 5 s.
    Promise.race([dropInstallations(), sleep(5000)]).finally(() => process.exit(code))
  })
}

/**
 * Registers a child: keeps the tail of its output for error messages, counts the service's pino log
 * lines at warn (40) and error (50) or above, and notes when it exits.
 */
export function track(child, name) {
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

/**
 * The CPU time (user + system, seconds) a child has used so far, from /proc; null where there is no
 * /proc (not Linux). CPU per alert is the difference over a run divided by the alerts.
 */
export function cpuSeconds(child) {
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8')
    // The fields after the command name (which may hold spaces) in parentheses: utime and stime are the
    // 14th and 15th of the whole line, in clock ticks (100 per second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

/** The service's entry point in a checkout: dist/main/server.js, or dist/server.js in older revisions. */
export function serviceEntry(codeRoot = root) {
  const current = join(codeRoot, 'dist', 'main', 'server.js')
  return existsSync(current) ? current : join(codeRoot, 'dist', 'server.js')
}

export function describeExit({ code, signal }) {
  return signal ? `signal ${signal}` : `code ${code}`
}

/** SIGTERM, then SIGKILL if it has not exited within 5 s. */
export async function stop(proc) {
  if (!proc.running()) return
  proc.child.kill('SIGTERM')
  const stopped = await Promise.race([proc.exited.then(() => true), sleep(5000).then(() => false)])
  if (!stopped) {
    proc.child.kill('SIGKILL')
    await proc.exited
  }
}

/** Resolves with what `ready` resolves with; rejects if the child exits first or time runs out. */
export async function untilReady(proc, ready, seconds = 30) {
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

export async function startBaseline() {
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
  const { EnvSchema } = await import(new URL('../dist/platform/env.js', import.meta.url).href)
  return Object.keys(EnvSchema.properties)
}

/** BENCH_POSTGRES_URL, BENCH_REDIS_URL: the servers the scale-out installations use. */
export const postgresUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379'

/** Installations not dropped yet. */
const installations = new Set()

async function onPostgres(sql) {
  const client = new pg.Client({ connectionString: postgresUrl })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * A scale-out installation: a fresh PostgreSQL database (alertbridge_bench_<hex>), a Redis prefix of its
 * own (abbench-<hex>), a SECRET_KEY and the bench's ADMIN_TOKEN, the settings every process of it shares.
 * `env` goes to startService; drop() stops nothing, it removes the database (with force: a process left
 * connected does not keep it) and the prefix's keys.
 */
export async function createInstallation() {
  const hex = randomBytes(6).toString('hex')
  const name = `alertbridge_bench_${hex}`
  await onPostgres(`create database ${name}`)
  const url = new URL(postgresUrl)
  url.pathname = `/${name}`
  const installation = {
    env: {
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `abbench-${hex}`,
      SECRET_KEY: randomBytes(32).toString('base64'),
      ADMIN_TOKEN: adminToken,
    },
    dropped: false,
    async drop() {
      if (installation.dropped) return
      installation.dropped = true
      installations.delete(installation)
      await onPostgres(`drop database if exists ${name} with (force)`)
      // From dist/, built by the time an installation exists (as the service's settings are read).
      const { dropPrefix } = await import(new URL('../dist/platform/redis/connect.js', import.meta.url).href)
      await dropPrefix(redisUrl, installation.env.REDIS_PREFIX)
    },
  }
  installations.add(installation)
  return installation
}

/** Drops every installation still here (the bench's end, an error, a signal). */
export async function dropInstallations() {
  for (const installation of [...installations]) {
    try {
      await installation.drop()
    } catch (err) {
      process.stderr.write(
        `could not drop a bench installation: ${err instanceof Error ? err.message : err}\n`,
      )
    }
  }
}

/**
 * Several processes of one installation, `roles` in order: the first migrates the database, so it
 * is up (listening, /readyz 200) before the rest start, together. On a failure the ones started are
 * stopped. Answers [{ proc, baseUrl }] in the order of `roles`.
 */
export async function startInstallation(installation, roles, label, extraEnv = {}) {
  const env = { ...installation.env, ...extraEnv }
  const first = await startService(roles[0], `${label}-0`, env)
  const started = [first]
  try {
    const rest = await Promise.allSettled(
      roles.slice(1).map((role, i) => startService(role, `${label}-${i + 1}`, env)),
    )
    for (const r of rest) if (r.status === 'fulfilled') started.push(r.value)
    const failed = rest.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    return [first, ...rest.map((r) => r.value)]
  } catch (err) {
    await Promise.all(started.map((s) => stop(s.proc)))
    throw err
  }
}

/**
 * The service from dist/ on a free port, on a fresh SQLite database; `extraEnv` adds to its settings
 * (an installation's env puts it on PostgreSQL + Redis instead).
 */
export async function startService(role, label, extraEnv = {}, codeRoot = root) {
  // One directory per label: processes started with one label share its database (the drain's API
  // process queues into it, its worker drains it); a new label is a fresh database.
  const dataDir = join(tempDir(), label)
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
    ...extraEnv,
  })
  // BENCH_PROFILE_DIR=dir: each service process writes a CPU profile there when it stops (the
  // profiles that explain docs/performance.md's figures; Node refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.BENCH_PROFILE_DIR
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`,
        `--cpu-prof-name=${label}-${role}.cpuprofile`,
      ]
    : []
  const child = spawn(process.execPath, [...profile, serviceEntry(codeRoot)], {
    cwd: codeRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const proc = track(child, `the service (ROLE=${role}, ${label})`)
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
/**
 * The vendor's webhook endpoint: answers 204 to POST /hook, counts the deliveries and keeps, per
 * status_update, its messageId, event and arrival time.
 */
export async function startReceiver() {
  const receiver = { count: 0, server: null, url: '', updates: new Map() }
  receiver.server = createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/hook') {
        receiver.count++
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString())
          if (body.eventType === 'status_update')
            receiver.updates.set(body.payload.messageId, { event: body.payload.event, at: performance.now() })
        } catch {
          // not an event of ours: counted only
        }
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
