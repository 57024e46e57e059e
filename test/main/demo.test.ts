// The README's first start: `npm start -- --demo` on an empty data directory prints the admin token
// and a curl line that creates a ticket, visible through the GET endpoints. Runs the real server
// process; the second start on the same data keeps the token and shows the same demo.
import assert from 'node:assert/strict'
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { entry, root } from '../support/process.js'

function start(dataDir: string, args: string[] = []): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, [...entry('main/server'), ...args], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DATABASE_URL: `sqlite:${join(dataDir, 'alertbridge.db')}`,
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let output = ''
    const timer = setTimeout(() => reject(new Error(`no banner within 30 s:\n${output}`)), 30_000)
    child.stdout!.on('data', (chunk) => {
      output += String(chunk)
      if (
        /listening on .*\n[\s\S]*\n\n/.test(output) &&
        (!args.includes('--demo') || output.includes('see it:'))
      ) {
        clearTimeout(timer)
        setTimeout(() => resolve({ child, output }), 50)
      }
    })
    child.stderr!.on('data', (chunk) => {
      output += String(chunk)
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit')
    child.on('exit', (code) => resolve(code))
    child.kill('SIGTERM')
  })
}

describe('first start with --demo', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'alertbridge-first-'))
  after(() => rmSync(dataDir, { recursive: true, force: true }))

  test('prints the admin token and a curl line that creates a visible ticket; restarts keep both', async () => {
    const first = await start(dataDir, ['--demo'])
    const token = /admin token \(shown once[^:]*\): (aba_\S+)/.exec(first.output)?.[1]
    assert.ok(token, first.output)
    const curl = first.output.split('\n').find((l) => l.trim().startsWith('curl -s -X POST'))
    assert.ok(curl, first.output)
    const created = JSON.parse(execFileSync('sh', ['-c', curl!.trim()], { encoding: 'utf8' }))
    assert.equal(created.message, 'created', JSON.stringify(created))
    assert.equal(created.statusCode, 201)
    const see = first.output.split('\n').find((l) => l.includes('/api/partner/tickets'))
    const listed = JSON.parse(execFileSync('sh', ['-c', see!.trim()], { encoding: 'utf8' }))
    assert.equal(listed.data[0].correlationId, created.data.correlationID)
    const base = /listening on (\S+)/.exec(first.output)![1]
    const admin = await fetch(`${base}/api/admin/vendors`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(admin.status, 200)
    // The portal: the printed invite sets the demo admin's password and signs in.
    const invite = /partner portal: \S+\/invite#(\S+)/.exec(first.output)?.[1]
    assert.ok(invite, first.output)
    const accepted = await fetch(`${base}/api/partner/session/invite`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ inviteToken: invite, password: 'correct horse battery staple' }),
    })
    assert.equal(accepted.status, 200, await accepted.clone().text())
    assert.equal(((await accepted.json()) as { user: { role: string } }).user.role, 'admin')
    assert.equal(await stop(first.child), 0, 'SIGTERM shuts down cleanly')

    const second = await start(dataDir, ['--demo'])
    try {
      assert.doesNotMatch(second.output, /admin token \(shown once/)
      const again = second.output.split('\n').find((l) => l.trim().startsWith('curl -s -X POST'))
      assert.equal(
        again!.replace(/:\d+\//, ':PORT/'),
        curl!.replace(/:\d+\//, ':PORT/'),
        'the same demo is shown',
      )
      const base2 = /listening on (\S+)/.exec(second.output)![1]
      const stillValid = await fetch(`${base2}/api/admin/vendors`, {
        headers: { authorization: `Bearer ${token}` },
      })
      assert.equal(stillValid.status, 200)
    } finally {
      await stop(second.child)
    }
  })

  test('a bad configuration stops the start with a message naming the variable', async () => {
    const child = spawn(process.execPath, entry('main/server'), {
      cwd: root,
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: `sqlite:${join(dataDir, 'x.db')}` },
    })
    let err = ''
    child.stderr.on('data', (c) => {
      err += String(c)
    })
    const code = await new Promise((resolve) => child.on('exit', resolve))
    assert.equal(code, 2)
    assert.match(err, /PORT.*eighty/)
  })
})
