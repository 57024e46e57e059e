// The bench's child processes: the baseline server and the service, each its own process, started,
// watched (the tail of their output, their warn and error log lines) and stopped; a temporary data
// directory; and the webhook receiver. Whatever way the bench ends, no child is left running.
import { fork, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import os from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'

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
    process.exit(code)
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
  const { EnvSchema } = await import(new URL('../dist/config.js', import.meta.url).href)
  return Object.keys(EnvSchema.properties)
}

/** The service from dist/ on a free port, on a fresh SQLite database; `extraEnv` adds to its settings. */
export async function startService(role, label, extraEnv = {}) {
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
