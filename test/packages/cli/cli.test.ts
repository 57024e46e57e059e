// The vendor CLI (@alertbridge/vendor-cli, packages/cli; docs/vendor-api.md#sdk-and-cli) against a real
// service: `send` from flags and from a file, `listen --forward-to` a local endpoint that verifies
// every request with the vendor's webhook secret while `trigger` and a webhook-strategy alert make
// events, `listen --save` then `verify` on what it saved (exit 0), tampered, too old or with another
// secret (exit 1); and the program itself, started as a process, exiting with those codes.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type Io, run } from '@alertbridge/vendor-cli'
import { Webhook } from 'standardwebhooks'
import { catalogue, defaultAlert, type Setup, setupIntegration } from '../../support/fixtures.js'
import { type Receiver, startReceiver } from '../../support/receiver.js'
import { startService, type TestService } from '../../support/service.js'
import { waitFor } from '../../support/wait.js'

interface Ran {
  code: number
  out: string[]
  err: string[]
}

describe('alertbridge-vendor against the service', () => {
  let svc: TestService
  let s: Setup
  let webhookSecret: string
  let receiver: Receiver
  let dir: string
  let env: Record<string, string>

  before(async () => {
    svc = await startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    // A vendor without a webhook URL: its events reach the endpoint only through `listen`.
    const vendor = await svc.request('POST', '/api/admin/vendors', {
      token: svc.adminToken,
      body: { name: 'CLI Vendor', productGroups: catalogue },
    })
    assert.equal(vendor.status, 201, vendor.text)
    webhookSecret = vendor.body.webhookSecret
    s = await setupIntegration(svc, {
      vendor: { id: vendor.body.id, clientId: vendor.body.clientId, clientSecret: vendor.body.clientSecret },
    })
    receiver = await startReceiver()
    receiver.setSecret(webhookSecret)
    dir = mkdtempSync(join(tmpdir(), 'alertbridge-cli-'))
    env = {
      ALERTBRIDGE_URL: svc.url,
      ALERTBRIDGE_CLIENT_ID: s.clientId,
      ALERTBRIDGE_CLIENT_SECRET: s.clientSecret,
      ALERTBRIDGE_ORGANIZATION_OEM_TOKEN: s.orgToken,
      ALERTBRIDGE_INTEGRATION_ID: s.integrationId,
    }
  })
  after(async () => {
    await receiver?.close()
    await svc?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  function cli(argv: string[], o: { env?: Record<string, string>; signal?: AbortSignal } = {}) {
    const ran: Ran = { code: -1, out: [], err: [] }
    const io: Io = {
      out: (l) => ran.out.push(l),
      err: (l) => ran.err.push(l),
      env: o.env ?? env,
      cwd: dir,
      signal: o.signal,
    }
    const done = run(argv, io).then((code) => {
      ran.code = code
      return ran
    })
    return { ran, done }
  }
  const exec = (argv: string[], o?: { env?: Record<string, string> }) => cli(argv, o).done

  test('send: an alert from flags, then its RESOLVED from a file; a failure exits 1', async () => {
    const opened = await exec([
      'send',
      '--title',
      'Malware on WS-7',
      '--alert-type',
      defaultAlert.alertType,
      '--account',
      defaultAlert.accountId,
      '--product-group',
      defaultAlert.productGroup,
    ])
    assert.equal(opened.code, 0, opened.err.join('\n'))
    const answer = JSON.parse(opened.out.join('\n'))
    assert.equal(answer.message, 'created')
    const correlationId = answer.data.correlationID
    assert.match(opened.err.join('\n'), new RegExp(`created \\(201\\) · correlationId ${correlationId}`))

    writeFileSync(
      join(dir, 'resolve.json'),
      JSON.stringify({
        correlationId,
        data: { ...defaultAlert, title: 'Malware removed', incidentStatus: 'RESOLVED' },
      }),
    )
    // Credentials as flags this time, over an empty environment.
    const flags = [
      '--url',
      svc.url,
      '--client-id',
      s.clientId,
      '--client-secret',
      s.clientSecret,
      '--org-token',
      s.orgToken,
      '--integration-id',
      s.integrationId,
    ]
    const closed = await exec(['send', '--file', 'resolve.json', ...flags], { env: {} })
    assert.equal(closed.code, 0, closed.err.join('\n'))
    assert.equal(JSON.parse(closed.out.join('\n')).message, 'closed')

    const again = await exec(['send', '--file', 'resolve.json'])
    assert.equal(again.code, 1, 'the ticket is closed already')
    assert.match(again.err.join('\n'), /failed \(409\)/)

    const usage = await exec(['send', '--title', 'x'])
    assert.equal(usage.code, 2)
    assert.match(usage.err.join('\n'), /lacks data\.alertType \(--alert-type\)/)
    const noCredentials = await exec(['send', '--file', 'resolve.json'], { env: {} })
    assert.equal(noCredentials.code, 2)
    assert.match(noCredentials.err.join('\n'), /missing --url \(ALERTBRIDGE_URL\)/)
  })

  test('listen --forward-to: trigger and a webhook-strategy alert reach a verifying endpoint; --save keeps them', async () => {
    const stop = new AbortController()
    const listening = cli(
      ['listen', '--forward-to', receiver.url, '--save', 'saved', '--wait-seconds', '2'],
      {
        signal: stop.signal,
      },
    )
    try {
      // Listening from the first long-poll on: wait for the service to count it.
      await waitFor(
        async () =>
          (await svc.request('GET', '/api/vendor-api/webhook', { token: s.vendorToken })).body
            ?.listeningUntil,
        { what: 'the CLI to poll', timeoutMs: 15_000, intervalMs: 50 },
      )

      const triggered = await exec(['trigger', 'Ticket', 'Not', 'Found'])
      assert.equal(triggered.code, 0, triggered.err.join('\n'))
      const { deliveryId } = JSON.parse(triggered.out.join('\n'))
      const sent = await exec([
        'send',
        '--strategy',
        'webhook',
        '--title',
        'Agent offline',
        '--alert-type',
        'Agent Offline',
        '--account',
        'acme-001',
        '--product-group',
        'Endpoint Security',
      ])
      assert.equal(sent.code, 0, sent.err.join('\n'))

      await receiver.waitFor(
        () => receiver.accepted('status_update').length >= 2,
        'both events forwarded to the endpoint',
      )
      assert.deepEqual(receiver.unverified, [], 'every forwarded event verifies with the vendor secret')
      const [test1, alert] = receiver.accepted('status_update')
      assert.equal(test1!.id, deliveryId)
      assert.equal(test1!.body.payload.test, true)
      assert.equal(test1!.body.payload.event, 'Ticket Not Found')
      assert.equal(alert!.body.payload.event, 'Ticket Created')
      assert.equal(alert!.body.payload.correlationId, JSON.parse(sent.out.join('\n')).data.correlationId)
      // One line per event, with the endpoint's status (a state_snapshot may come between).
      const lines = () => listening.ran.out.filter((l) => l.includes('status_update'))
      await waitFor(() => lines().length >= 2, { what: 'two status_update lines', timeoutMs: 5000 })
      assert.match(
        lines()[0]!,
        new RegExp(`status_update "Ticket Not Found" \\(test\\)  ${deliveryId} -> 204 \\(\\d+ ms\\)$`),
      )
      assert.match(lines()[1]!, /^\S+Z {2}status_update "Ticket Created" {2}\S+ -> 204 \(\d+ ms\)$/)
    } finally {
      stop.abort()
    }
    const ended = await listening.done
    assert.equal(ended.code, 0, ended.err.join('\n'))
    assert.match(ended.err.at(-1)!, /^stopped; resume with --after \S+$/)

    // What --save kept verifies with the secret, and `verify` says so.
    const id = receiver.accepted('status_update')[0]!.id
    const body = join('saved', `${id}.json`)
    const headers = join('saved', `${id}.headers.json`)
    const ok = await exec(['verify', '--body', body, '--headers', headers, '--secret', webhookSecret])
    assert.equal(ok.code, 0, ok.out.join('\n') + ok.err.join('\n'))
    assert.match(ok.out[0]!, new RegExp(`^valid: ${id} status_update "Ticket Not Found"$`))
    const viaEnv = await exec(['verify', '--body', body, '--headers', headers], {
      env: { ALERTBRIDGE_WEBHOOK_SECRET: webhookSecret },
    })
    assert.equal(viaEnv.code, 0)

    writeFileSync(
      join(dir, 'tampered.json'),
      readFileSync(join(dir, body), 'utf8').replace('Not Found', 'Created'),
    )
    const tampered = await exec([
      'verify',
      '--body',
      'tampered.json',
      '--headers',
      headers,
      '--secret',
      webhookSecret,
    ])
    assert.equal(tampered.code, 1)
    assert.equal(tampered.out[0], 'invalid: No matching signature found')
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`
    assert.equal((await exec(['verify', '--body', body, '--headers', headers, '--secret', other])).code, 1)
    // Both secrets of a rotation: either matches.
    assert.equal(
      (
        await exec([
          'verify',
          '--body',
          body,
          '--headers',
          headers,
          '--secret',
          other,
          '--secret',
          webhookSecret,
        ])
      ).code,
      0,
    )
  })

  test('verify: headers as flags or "Name: value" lines; an old timestamp fails unless told to skip it', async () => {
    const raw = '{"module":"alerts","eventType":"status_update","payload":{"event":"Ticket Created"}}'
    writeFileSync(join(dir, 'old.json'), raw)
    const at = new Date(Date.now() - 3600_000)
    const ts = String(Math.floor(at.getTime() / 1000))
    const sig = new Webhook(webhookSecret).sign('msg_old', at, raw)
    writeFileSync(
      join(dir, 'old.headers'),
      `webhook-id: msg_old\nWebhook-Timestamp: ${ts}\nwebhook-signature: ${sig}\n`,
    )
    const old = await exec([
      'verify',
      '--body',
      'old.json',
      '--headers',
      'old.headers',
      '--secret',
      webhookSecret,
    ])
    assert.equal(old.code, 1)
    assert.equal(old.out[0], 'invalid: Message timestamp too old')
    const flags = ['--id', 'msg_old', '--timestamp', ts, '--signature', sig, '--secret', webhookSecret]
    assert.equal((await exec(['verify', '--body', 'old.json', ...flags, '--ignore-timestamp'])).code, 0)
    assert.equal((await exec(['verify', '--body', 'old.json', ...flags, '--tolerance', '7200'])).code, 0)
    assert.equal((await exec(['verify', '--body', 'old.json', ...flags])).code, 1)
    const usage = await exec(['verify', '--body', 'old.json'])
    assert.equal(usage.code, 2)
    assert.match(usage.err[0]!, /missing --secret/)
  })

  test('the program: help, and verify exit codes as a process', () => {
    // Compiled (npm test): the installed bin over the built dist/; through tsx: the sources.
    const compiled = !process.execArgv.some((a) => a.includes('tsx'))
    const program = compiled
      ? ['packages/cli/bin/alertbridge-vendor.js']
      : ['--import', 'tsx', 'packages/cli/src/bin.ts']
    const start = (args: string[]) =>
      spawnSync(process.execPath, [...program, ...args], {
        cwd: process.cwd(),
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      })
    const help = start(['--help'])
    assert.equal(help.status, 0, help.stderr)
    assert.match(help.stdout, /listen +long-poll this vendor's webhooks/)
    // The version is the package's own, whichever way the program runs.
    const version = start(['--version'])
    assert.equal(version.status, 0, version.stderr)
    const pkg = JSON.parse(readFileSync('packages/cli/package.json', 'utf8')) as { version: string }
    assert.equal(version.stdout.trim(), pkg.version)
    const raw = '{"a":1}'
    writeFileSync(join(dir, 'p.json'), raw)
    const now = new Date()
    const sig = new Webhook(webhookSecret).sign('msg_p', now, raw)
    const args = [
      'verify',
      '--body',
      join(dir, 'p.json'),
      '--id',
      'msg_p',
      '--timestamp',
      String(Math.floor(now.getTime() / 1000)),
      '--secret',
      webhookSecret,
    ]
    assert.equal(start([...args, '--signature', sig]).status, 0)
    const bad = start([...args, '--signature', 'v1,AAAA'])
    assert.equal(bad.status, 1)
    assert.equal(bad.stdout, 'invalid: No matching signature found\n')
    assert.equal(start(['verify']).status, 2)
    assert.equal(start(['nonsense']).status, 2)
  })
})
