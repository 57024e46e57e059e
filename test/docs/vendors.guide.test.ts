// docs/vendors.md runs as written (docs/development.md#documents-that-run): its fenced blocks, in order,
// against a real service started with the guide's own command. `npm install` is skipped (the test runs
// in an installed checkout) and `npm start -- <args>` runs the service's entry with those arguments (what
// npm start runs once built), on a fresh SQLite file; the guide's fixed ports (9000 for the receiver)
// become a free one. `sh env` sets the variables from what the start printed; `file=` blocks are saved
// under their names (the receiver, verify.mjs) and run by the blocks that name them; every `# →` answer
// and `# the receiver prints:` line must come true. The Python snippet is run with python3 on an event
// signed with the printed secret (skipped, saying so, without python3).
import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import {
  assertAnswers,
  type Block,
  blocks,
  curlNotes,
  fileOf,
  notedStatuses,
  printPattern,
  promisedPrints,
  runSh,
  stopGroups,
} from '../support/doc-snippets.js'
import { type Running, root, startServer } from '../support/process.js'
import { waitFor } from '../support/wait.js'

const guide = readFileSync(join(root, 'docs', 'vendors.md'), 'utf8')
const work = mkdtempSync(join(tmpdir(), 'alertbridge-guide-'))
const groups: ChildProcess[] = []
let service: Running | undefined
after(async () => {
  stopGroups(groups)
  await service?.stop()
  rmSync(work, { recursive: true, force: true })
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** What the start printed, by the names of the guide's `sh env` block. */
function variables(output: string, base: string): Record<string, string> & { WEBHOOK_SECRET: string } {
  const printed = (name: string) => {
    const value = new RegExp(`^\\s+${name}:\\s+(\\S+)`, 'm').exec(output)?.[1]
    assert.ok(value, `the start printed no ${name}:\n${output}`)
    return value
  }
  return {
    BASE: base,
    CLIENT_ID: printed('clientId'),
    CLIENT_SECRET: printed('clientSecret'),
    WEBHOOK_SECRET: printed('webhookSecret'),
    ORG_TOKEN: printed('organizationOemToken'),
    INTEGRATION_ID: printed('integrationId'),
  }
}

const python = spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0

test('docs/vendors.md: every block runs in order and its answers come true', async () => {
  const port = await freePort()
  const all = blocks(guide).map((b) => ({
    ...b,
    code: b.code
      .replaceAll('127.0.0.1:9000', `127.0.0.1:${port}`)
      .replaceAll('listen(9000)', `listen(${port})`),
  }))
  // Every block is run here, by the signature snippets' test (a `<!-- snippet -->`), or marked no-run.
  const runs = (b: Block) => b.lang === 'sh' || fileOf(b) !== null
  const unplaced = all.filter((b) => !runs(b) && b.snippet === null && !b.words.includes('no-run'))
  assert.deepEqual(
    unplaced.map((b) => `line ${b.line}: ${b.lang}`),
    [],
    'blocks neither run nor marked no-run',
  )

  for (const b of all) {
    const file = fileOf(b)
    if (file) writeFileSync(join(work, file), b.code)
  }
  writeFileSync(join(work, '.curl-notes.sh'), curlNotes)
  const curlLog = join(work, '.curl-log')
  writeFileSync(curlLog, '')
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BASH_ENV: join(work, '.curl-notes.sh'),
    CURL_LOG: curlLog,
  }
  const background = { text: '' }
  let ranOut = ''
  let prints = 0
  const shells = all.filter((b) => b.lang === 'sh')
  assert.ok(shells.length >= 4, 'the guide has its shell steps')
  for (const b of shells) {
    if (b.words.includes('no-run')) continue
    if (b.words.includes('env')) {
      assert.ok(service, 'the service is started before the variables are set')
      const names = [...b.code.matchAll(/\b([A-Z_]+)=/g)].map((m) => m[1]!)
      const set = variables(service.output(), service.url)
      assert.deepEqual(
        names.sort(),
        Object.keys(set).sort(),
        `line ${b.line}: the variables the start prints`,
      )
      Object.assign(env, set)
      continue
    }
    const start = /^npm install && npm start -- (.+)$/m.exec(b.code)
    if (start) {
      assert.equal(b.code.trim(), start[0], `line ${b.line}: the start block is that one command`)
      service = await startServer(
        { DATABASE_URL: `sqlite:${join(work, 'alertbridge.db')}`, ADMIN_TOKEN: '' },
        40_000,
        start[1]!.trim().split(/\s+/),
      )
      await service.waitForOutput(/see it:[\s\S]*\n\n/)
      continue
    }
    const run = await runSh(b.code, { cwd: work, env, background, groups })
    assert.equal(run.code, 0, `line ${b.line} failed:\n${run.stdout}\n${run.stderr}\n${background.text}`)
    assertAnswers(b, run, notedStatuses(readFileSync(curlLog, 'utf8')))
    // A background job's lines come in the block's own output while the block runs (a quick delivery
    // reaches the receiver before bash exits), in `background` after it: both are what it printed.
    ranOut += run.stdout
    prints += promisedPrints(b.code).length
    for (const promise of promisedPrints(b.code)) {
      const pattern = new RegExp(printPattern(promise).source, 'g')
      const printed = () => ranOut + background.text
      await waitFor(() => (printed().match(pattern)?.length ?? 0) >= prints, {
        what: `the receiver to print "${promise}" (block at line ${b.line}); it printed:\n${printed()}`,
      })
    }
  }
  assert.ok(prints >= 2, 'the receiver verified the test event and the alert’s outcome')
  assert.doesNotMatch(ranOut + background.text, /refused/, 'the receiver refused nothing')
})

test('docs/vendors.md: the Python snippet verifies an event signed with the printed secret', (t) => {
  if (!python) return t.skip('python3 is not installed')
  assert.ok(service, 'the guide ran')
  const secret = variables(service.output(), service.url).WEBHOOK_SECRET
  const body = JSON.stringify({ eventType: 'status_update', payload: { event: 'Ticket Created' } })
  const signature = new Webhook(secret).sign('msg_guide', new Date(), body)
  const check = (raw: string) =>
    spawnSync(
      'python3',
      [
        '-c',
        `import sys; sys.path.insert(0, sys.argv[1]); from verify_webhook import verify_webhook
h = {"webhook-id": "msg_guide", "webhook-timestamp": sys.argv[2], "webhook-signature": sys.argv[3]}
try:
    print(verify_webhook(sys.argv[4], h, sys.argv[5].encode())["eventType"])
except ValueError as e:
    print("refused", e)`,
        work,
        String(Math.floor(Date.now() / 1000)),
        signature,
        secret,
        raw,
      ],
      { encoding: 'utf8' },
    )
  const good = check(body)
  assert.equal(good.stdout.trim(), 'status_update', good.stderr)
  const changed = check(body.replace('Created', 'Closed'))
  assert.match(changed.stdout, /^refused no valid signature/, changed.stderr)
})
