// README.md's quick start runs as written (docs/development.md#documents-that-run): its `sh` block's
// `npm start -- --demo` starts the service's entry with those arguments on a fresh SQLite file (`npm
// install` is skipped: the test runs in an installed checkout; `npm test` too: it is the suite this test
// is part of). What the README says the start prints is there, and works: the admin token, every
// credential, the curl line that creates a ticket and the one that lists it, the portal's invite link;
// `/docs` and `/openapi.json` are served. Then the vendor guide's first alert (docs/vendors.md, section
// 3), sent after the README's curl as a newcomer does, answers what the guide promises.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { assertAnswers, blocks, curlNotes, notedStatuses, runSh } from '../support/doc-snippets.js'
import { type Running, root, startServer } from '../support/process.js'

const readme = readFileSync(join(root, 'README.md'), 'utf8')
const work = mkdtempSync(join(tmpdir(), 'alertbridge-readme-'))
let service: Running | undefined
after(async () => {
  await service?.stop()
  rmSync(work, { recursive: true, force: true })
})

/** The quick start's commands, without their comments. */
function quickStart(): string[] {
  const section = readme.slice(readme.indexOf('## Quick start'))
  const block = blocks(section)[0]
  assert.ok(block && block.lang === 'sh', 'the quick start has its sh block')
  return block.code
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '')
}

test('README.md: the quick start starts the demo and what it prints works', async () => {
  const commands = quickStart()
  const skipped = new Set(['npm test'])
  const starts = commands.filter((c) => !skipped.has(c))
  assert.deepEqual(
    commands.filter((c) => skipped.has(c)),
    ['npm test'],
    'npm test is the one command skipped',
  )
  assert.equal(starts.length, 1, `one start: ${commands.join(' / ')}`)
  const start = /^npm install && npm start -- (.+)$/.exec(starts[0]!)
  assert.ok(start, `the start is npm install && npm start -- …: ${starts[0]}`)
  service = await startServer(
    { DATABASE_URL: `sqlite:${join(work, 'alertbridge.db')}`, ADMIN_TOKEN: '' },
    40_000,
    start[1]!.split(/\s+/),
  )
  await service.waitForOutput(/see it:[\s\S]*\n\n/)
  const out = service.output()
  assert.match(out, /admin token \(shown once[^:]*\): \S+/)
  for (const name of ['clientId', 'clientSecret', 'webhookSecret', 'integrationId', 'organizationOemToken'])
    assert.match(out, new RegExp(`^\\s+${name}:\\s+\\S+`, 'm'), name)
  assert.match(out, /demo partner API key: \S+/)
  assert.match(out, /partner portal: \S+\/invite#\S+/)

  const lines = out.split('\n').map((l) => l.trim())
  const create = lines.find((l) => l.startsWith('curl -s -X POST'))
  const see = lines.find((l) => l.includes('/api/partner/tickets'))
  assert.ok(create && see, out)
  const created = JSON.parse(execFileSync('sh', ['-c', create], { encoding: 'utf8' }))
  assert.equal(created.message, 'created', JSON.stringify(created))
  const listed = JSON.parse(execFileSync('sh', ['-c', see], { encoding: 'utf8' }))
  assert.equal(listed.data[0]?.correlationId, created.data.correlationID)

  for (const path of ['/docs', '/openapi.json']) {
    const answer = await fetch(`${service.url}${path}`)
    assert.equal(answer.status, 200, path)
  }
})

test('README.md then docs/vendors.md section 3: the guide’s first alert answers what the guide says', async () => {
  assert.ok(service, 'the quick start ran')
  const out = service.output()
  const printed = (name: string) => new RegExp(`^\\s+${name}:\\s+(\\S+)`, 'm').exec(out)?.[1] ?? ''
  const guide = readFileSync(join(root, 'docs', 'vendors.md'), 'utf8')
  const section = guide.slice(guide.indexOf('## 3. Send your first alert'))
  const first = blocks(section)[0]
  assert.ok(first && first.lang === 'sh', 'section 3 starts with its sh block')
  writeFileSync(join(work, '.curl-notes.sh'), curlNotes)
  const curlLog = join(work, '.curl-log')
  writeFileSync(curlLog, '')
  const run = await runSh(first.code, {
    cwd: work,
    env: {
      ...process.env,
      BASH_ENV: join(work, '.curl-notes.sh'),
      CURL_LOG: curlLog,
      BASE: service.url,
      CLIENT_ID: printed('clientId'),
      CLIENT_SECRET: printed('clientSecret'),
      ORG_TOKEN: printed('organizationOemToken'),
      INTEGRATION_ID: printed('integrationId'),
    },
    background: { text: '' },
    groups: [],
  })
  assert.equal(run.code, 0, run.stderr)
  assertAnswers(first, run, notedStatuses(readFileSync(curlLog, 'utf8')))
})
