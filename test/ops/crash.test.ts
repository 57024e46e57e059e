// Nothing accepted is lost: the real server process takes a few hundred webhook-strategy alerts, is
// killed with SIGKILL in the middle of the stream, and restarted on the same database; every alert
// that was answered 2xx still reaches the vendor's endpoint. A SIGTERM in the middle of a stream
// exits cleanly (code 0) and loses nothing either.
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type Setup, setupIntegration } from '../helpers/fixtures.js'
import { type Receiver, startReceiver } from '../helpers/receiver.js'
import { requester } from '../helpers/service.js'

const root = new URL('../..', import.meta.url).pathname
const adminToken = `crash-test-admin-token-${'x'.repeat(24)}`

interface Server {
  child: ChildProcess
  url: string
  exited: Promise<number | null>
  /** What the process printed so far (errors only: LOG_LEVEL is error). */
  output: () => string
}

function start(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DATABASE_URL: `sqlite:${join(dataDir, 'alertbridge.db')}`,
      LOG_LEVEL: 'error',
      ADMIN_TOKEN: adminToken,
      ALLOW_PRIVATE_NETWORK: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1',
      PSA_TIMEOUT_MS: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`no banner within 30 s:\n${output}`)), 30_000)
    child.stdout!.on('data', (chunk) => {
      output += String(chunk)
      const m = /listening on (http:\/\/\S+)/.exec(output)
      if (m) {
        clearTimeout(timer)
        resolve({ child, url: m[1]!, exited, output: () => output })
      }
    })
    child.stderr!.on('data', (chunk) => {
      output += String(chunk)
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
}

/** Posts `total` alerts, `parallel` at a time; calls `midway` once `killAfter` were answered. */
async function stream(
  server: Server,
  s: Setup,
  total: number,
  killAfter: number,
  midway: () => void,
): Promise<string[]> {
  const answered: string[] = []
  let next = 0
  let killed = false
  const one = async (): Promise<void> => {
    while (next < total) {
      const i = next++
      try {
        const res = await fetch(`${server.url}/api/oem-alerts-api/alert`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(s.body({ title: `alert ${i}` }, { correlationId: `c-${i}` })),
        })
        const body = (await res.json()) as { data: { messageId: string } }
        if (res.status >= 200 && res.status < 300) answered.push(body.data.messageId)
      } catch {
        // The server went away: this alert was never answered, so it may be lost.
      }
      if (!killed && answered.length >= killAfter) {
        killed = true
        midway()
      }
    }
  }
  await Promise.all(Array.from({ length: 16 }, one))
  return answered
}

describe('crash safety (real server process, SQLite)', () => {
  let dataDir: string
  let receiver: Receiver
  let server: Server | null = null
  let s: Setup

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'alertbridge-crash-'))
    receiver = await startReceiver()
    server = await start(dataDir)
    const svc = { request: requester(server.url), adminToken }
    s = await setupIntegration(svc, { vendorName: 'Crash Vendor', webhooksTo: receiver })
  })
  after(async () => {
    server?.child.kill('SIGKILL')
    await receiver.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const arrived = () => new Set(receiver.accepted('status_update').map((r) => r.body.payload.messageId))

  test('kill -9 mid-stream: every alert answered 2xx reaches the receiver after a restart', async () => {
    const running = server!
    const answered = await stream(running, s, 300, 120, () => running.child.kill('SIGKILL'))
    await running.exited
    assert.ok(answered.length >= 120, `answered ${answered.length}`)
    assert.ok(answered.length < 300, 'the kill happened mid-stream')

    server = await start(dataDir)
    await receiver.waitFor(
      () => answered.every((id) => arrived().has(id)),
      `${answered.length} status updates (have ${arrived().size})`,
      90_000,
    )
    assert.deepEqual(receiver.unverified, [])
  })

  test('SIGTERM mid-stream exits 0, and a restart delivers everything answered', async () => {
    const running = server!
    const answered = await stream(running, s, 200, 60, () => running.child.kill('SIGTERM'))
    assert.equal(await running.exited, 0, running.output())
    server = await start(dataDir)
    await receiver.waitFor(
      () => answered.every((id) => arrived().has(id)),
      `${answered.length} status updates`,
      90_000,
    )
  })
})
