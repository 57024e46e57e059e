// The SDK and the CLI as a vendor installs them (docs/vendors.md#sdk-and-cli): both packed with
// `npm pack` (test/support/packed.ts), the tarballs installed into an empty folder outside the
// repository, and from there the SDK's README quick start, as shipped in its tarball, and
// `npx alertbridge-vendor send|listen|trigger|verify` run against a real service; the installed
// declarations type-checked by a consumer, and `npx` of the tarballs themselves. Needs the npm
// registry (or npm's cache) for the packages' dependencies.
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { catalogue, type Setup, setupIntegration } from '../../support/fixtures.js'
import {
  cleanEnv,
  installTarballs,
  type PackedFile,
  packBoth,
  type Ran,
  runProgram,
  typecheckConsumer,
} from '../../support/packed.js'
import { type Receiver, startReceiver } from '../../support/receiver.js'
import { startService, type TestService } from '../../support/service.js'
import { waitFor } from '../../support/wait.js'

const root = process.cwd()

describe('the packed SDK and CLI, installed outside the repository', { timeout: 240_000 }, () => {
  let work: string
  let app: string
  let packed: PackedFile[]
  let svc: TestService
  let s: Setup
  let webhookSecret: string
  let receiver: Receiver
  let env: Record<string, string>
  let typechecked: Promise<Ran>

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'alertbridge-packed-'))
    app = join(work, 'app')
    assert.ok(relative(root, work).startsWith('..'), `${work} is outside the repository`)
    const started = startService({ env: { ALLOW_PRIVATE_NETWORK: 'true' } })
    packed = await packBoth(root, work)
    mkdirSync(app)
    await installTarballs(
      app,
      packed.map((p) => p.path),
    )
    typechecked = typecheckConsumer(root, app)
    svc = await started
    const vendor = await svc.request('POST', '/api/admin/vendors', {
      token: svc.adminToken,
      body: { name: 'Packed Vendor', productGroups: catalogue },
    })
    assert.equal(vendor.status, 201, vendor.text)
    webhookSecret = vendor.body.webhookSecret
    s = await setupIntegration(svc, {
      vendor: { id: vendor.body.id, clientId: vendor.body.clientId, clientSecret: vendor.body.clientSecret },
    })
    receiver = await startReceiver()
    receiver.setSecret(webhookSecret)
    env = cleanEnv({
      ALERTBRIDGE_URL: svc.url,
      ALERTBRIDGE_CLIENT_ID: s.clientId,
      ALERTBRIDGE_CLIENT_SECRET: s.clientSecret,
      ALERTBRIDGE_ORGANIZATION_OEM_TOKEN: s.orgToken,
      ALERTBRIDGE_INTEGRATION_ID: s.integrationId,
    })
  })
  after(async () => {
    await receiver?.close()
    await svc?.close()
    if (work) rmSync(work, { recursive: true, force: true })
  })

  const installed = (name: string) =>
    JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8'))
  /** `npx alertbridge-vendor …` in the app, never fetching anything (`--no`): the installed bin. */
  const npx = (args: string[], o: { env?: Record<string, string> } = {}) =>
    runProgram('npx', ['--no', 'alertbridge-vendor', '--', ...args], { cwd: app, env: o.env ?? env })

  test('two tarballs of their own names, each with dist/, README, LICENSE and nothing of the sources', () => {
    const [sdk, cli] = packed
    assert.equal(sdk?.name, '@alertbridge/vendor')
    assert.equal(cli?.name, '@alertbridge/vendor-cli')
    assert.equal(sdk.filename, `alertbridge-vendor-${sdk.version}.tgz`)
    assert.equal(cli.filename, `alertbridge-vendor-cli-${cli.version}.tgz`)
    for (const p of [sdk, cli]) {
      for (const f of ['LICENSE', 'README.md', 'package.json'])
        assert.ok(p.files.includes(f), `${p.name} has ${f}`)
      const strays = p.files.filter(
        (f) => !/^(LICENSE|README\.md|package\.json|bin\/[^/]+\.js|dist\/.+\.(js|d\.ts))$/.test(f),
      )
      assert.deepEqual(strays, [], `${p.name} ships only its build, README and LICENSE`)
    }
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/openapi.d.ts'])
      assert.ok(sdk.files.includes(f), f)
    for (const f of ['bin/alertbridge-vendor.js', 'dist/bin.js', 'dist/cli.js', 'dist/cli.d.ts'])
      assert.ok(cli.files.includes(f), f)
  })

  test('the installed packages: public, licensed, typed exports; the CLI takes the SDK by a caret range', () => {
    const sdk = installed('@alertbridge/vendor')
    const cli = installed('@alertbridge/vendor-cli')
    for (const p of [sdk, cli]) {
      assert.equal(p.private, undefined, `${p.name} is not private`)
      assert.equal(p.license, 'MIT')
      assert.ok(
        p.repository?.url && p.engines?.node && p.keywords?.length,
        `${p.name}: repository, engines, keywords`,
      )
      assert.ok(p.exports['.'].types && p.exports['.'].default, `${p.name} exports its types`)
    }
    assert.deepEqual(cli.bin, { 'alertbridge-vendor': './bin/alertbridge-vendor.js' })
    const range: string = cli.dependencies['@alertbridge/vendor']
    const [major, minor] = sdk.version.split('.')
    assert.match(range, /^\^\d+\.\d+\.\d+$/)
    // 0.x: a minor may break, so the caret must name the SDK's minor too (^0.1.0 is 0.1.x only).
    assert.ok(
      range.startsWith(major === '0' ? `^0.${minor}.` : `^${major}.`),
      `${range} takes ${sdk.version}`,
    )
  })

  test("the SDK's major is the vendor API's (info.version of the OpenAPI document)", async () => {
    const doc = await svc.request('GET', '/openapi.json')
    assert.equal(doc.status, 200)
    assert.equal(
      installed('@alertbridge/vendor').version.split('.')[0],
      String(doc.body.info.version).split('.')[0],
    )
  })

  test("the SDK's README quick start, as shipped, runs from the install", async () => {
    const readme = readFileSync(join(app, 'node_modules', '@alertbridge', 'vendor', 'README.md'), 'utf8')
    const code = /## Quick start[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1]
    assert.ok(code, 'the README has a js quick start')
    writeFileSync(join(app, 'quickstart.mjs'), code)
    const ran = await runProgram(process.execPath, ['quickstart.mjs'], { cwd: app, env })
    assert.equal(ran.code, 0, ran.stderr)
    const [opened, closed, dead] = ran.stdout.trim().split('\n')
    const correlationId = /^created (\S+)$/.exec(opened ?? '')?.[1]
    assert.ok(correlationId, `an OPEN answered created: ${ran.stdout}`)
    assert.equal(closed, 'closed')
    assert.equal(dead, '0 dead deliveries')
    const tickets = await s.partner('GET', '/api/partner/tickets')
    assert.equal(tickets.status, 200, tickets.text)
    assert.match(tickets.text, new RegExp(correlationId))
  })

  test('npx alertbridge-vendor send: an alert from flags; a usage error exits 2', async () => {
    const sent = await npx([
      'send',
      '--title',
      'Malware on WS-7',
      '--alert-type',
      'Malware Detected',
      '--account',
      'acme-001',
      '--product-group',
      'Endpoint Security',
    ])
    assert.equal(sent.code, 0, sent.stderr)
    assert.equal(JSON.parse(sent.stdout).message, 'created')
    const bad = await npx(['send', '--title', 'no account'])
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /^send: the alert lacks data\.alertType/)
    const refused = await npx([
      'send',
      '--title',
      't',
      '--alert-type',
      'Malware Detected',
      '--account',
      'nobody-999',
      '--product-group',
      'Endpoint Security',
    ])
    assert.equal(refused.code, 1, 'a failed answer exits 1')
    assert.equal(JSON.parse(refused.stdout).message, 'failed')
    const version = await npx(['--version'])
    assert.equal(version.stdout.trim(), installed('@alertbridge/vendor-cli').version)
  })

  test('npx alertbridge-vendor listen forwards what trigger makes; verify checks what it saved', async () => {
    const listening: ChildProcess = spawn(
      'npx',
      [
        '--no',
        'alertbridge-vendor',
        '--',
        'listen',
        '--forward-to',
        receiver.url,
        '--save',
        'saved',
        '--wait-seconds',
        '2',
      ],
      // Its own process group, so that a SIGINT reaches npx, its shell and the CLI as Ctrl-C would.
      { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    )
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-(listening.pid ?? 0), signal)
      } catch {
        // the group has ended
      }
    }
    let out = ''
    let err = ''
    listening.stdout?.on('data', (d) => {
      out += d
    })
    listening.stderr?.on('data', (d) => {
      err += d
    })
    // Ended when its output closes: the CLI itself has exited, whatever npx answered before.
    const ended = new Promise<void>((resolve) => listening.on('close', () => resolve()))
    let deliveryId: string
    try {
      await waitFor(
        async () =>
          (await svc.request('GET', '/api/vendor-api/webhook', { token: s.vendorToken })).body
            ?.listeningUntil,
        { what: () => `the installed CLI to poll (stderr: ${err})`, timeoutMs: 20_000, intervalMs: 50 },
      )
      const triggered = await npx(['trigger', 'Ticket', 'Created'])
      assert.equal(triggered.code, 0, triggered.stderr)
      deliveryId = JSON.parse(triggered.stdout).deliveryId
      await receiver.waitFor(
        () => receiver.accepted('status_update').some((r) => r.id === deliveryId),
        'the test event forwarded',
      )
      assert.deepEqual(receiver.unverified, [], 'forwarded as signed')
      await waitFor(() => out.includes(deliveryId), { what: () => `listen to print the event (${out})` })
      assert.match(out, new RegExp(`status_update "Ticket Created" \\(test\\) {2}${deliveryId} -> 204`))
    } finally {
      group('SIGINT')
    }
    const stopped = await Promise.race([
      ended.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000).unref()),
    ])
    if (!stopped) group('SIGKILL')
    assert.ok(stopped, `Ctrl-C stops listen (stderr: ${err})`)
    assert.match(err, /stopped; resume with --after \S+\n$/)

    const saved = [
      '--body',
      join('saved', `${deliveryId}.json`),
      '--headers',
      join('saved', `${deliveryId}.headers.json`),
    ]
    const ok = await npx(['verify', ...saved, '--secret', webhookSecret])
    assert.equal(ok.code, 0, ok.stdout + ok.stderr)
    assert.equal(ok.stdout.trim(), `valid: ${deliveryId} status_update "Ticket Created"`)
    const other = await npx([
      'verify',
      ...saved,
      '--secret',
      `whsec_${Buffer.from('another secret!!').toString('base64')}`,
    ])
    assert.equal(other.code, 1, 'another secret does not verify')
  })

  test("a TypeScript consumer type-checks against the installed packages' declarations", async () => {
    // Started once the packages were installed, beside the tests above.
    const ran = await typechecked
    assert.equal(ran.code, 0, ran.stdout + ran.stderr)
  })

  test('npx of the tarballs themselves, from an empty folder', async () => {
    const empty = mkdtempSync(join(work, 'empty-'))
    const [sdk, cli] = packed.map((p) => p.path)
    const ran = await runProgram(
      'npx',
      ['--yes', '--prefer-offline', '-p', sdk!, '-p', cli!, 'alertbridge-vendor', 'help'],
      {
        cwd: empty,
        env,
        timeoutMs: 120_000,
      },
    )
    assert.equal(ran.code, 0, ran.stderr)
    assert.match(ran.stdout, /^alertbridge-vendor <command> \[options\]/)
  })
})
