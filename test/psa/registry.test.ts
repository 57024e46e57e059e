// The PSA registry and the executor's way to a PSA: a kind's settings are checked against its schema
// (what does not fit never reaches the adapter), secrets are masked per kind, a kind this build does not
// list cannot be connected, and every call is given an AbortSignal that the PSA time budget fires, plus the
// alert's correlationId, so a call that runs out of time is aborted rather than left running.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import Type from 'typebox'
import { PsaCalls } from '../../src/alerts/executor/psa-calls.js'
import type { Store } from '../../src/platform/db/store.js'
import type { CreateCall, PsaAdapter, PsaOperations } from '../../src/psa/adapter.js'
import { AutotaskSettings } from '../../src/psa/autotask/settings.js'
import { ConnectWiseSettings } from '../../src/psa/connectwise/settings.js'
import { HaloPsaSettings } from '../../src/psa/halopsa/settings.js'
import { KaseyaBmsSettings } from '../../src/psa/kaseya-bms/settings.js'
import { NinjaOneSettings } from '../../src/psa/ninjaone/settings.js'
import { PulsewayPsaSettings } from '../../src/psa/pulseway-psa/settings.js'
import { PsaRegistry, psaKind } from '../../src/psa/registry.js'
import { SandboxSettings } from '../../src/psa/sandbox/settings.js'
import { checkSettings, TicketDefaults } from '../../src/psa/settings.js'
import { SuperOpsSettings } from '../../src/psa/superops/settings.js'
import { SyncroSettings } from '../../src/psa/syncro/settings.js'

const Settings = Type.Object({
  token: Type.String({ minLength: 1 }),
  defaults: Type.Optional(TicketDefaults),
})

/** A PSA that never answers on its own: it ends a call only when the call's signal fires. */
function slowPsa() {
  const seen: { correlationId: string; aborted: boolean; token: string }[] = []
  const adapter: PsaAdapter<{ token: string }> = (conn) => ({
    test: async () => ({ ok: true, value: { detail: 'fine' } }),
    createTicket: (_ticket, call: CreateCall) =>
      new Promise((resolve) => {
        call.signal.addEventListener('abort', () => {
          seen.push({
            correlationId: call.correlationId,
            aborted: call.signal.aborted,
            token: conn.settings.token,
          })
          resolve({
            ok: false,
            failure: { kind: 'timeout', retryable: true, message: 'aborted by the caller' },
          })
        })
      }),
    appendNote: async () => ({ ok: true, value: null }),
    closeTicket: async () => ({ ok: true, value: { alreadyClosed: false } }),
    ticketUrl: () => null,
    billingLines: async () => ({ ok: true, value: [] }),
    setQuantity: async () => ({ ok: true, value: { previous: null } }),
    lookup: async () => ({ ok: true, value: [] }),
    readTickets: async () => ({ ok: true, value: [] }),
    reopenTicket: async () => ({ ok: true, value: null }),
    push: null,
  })
  return { adapter, seen }
}

/** A PSA that answers every call at once, and fine. */
const idlePsa = (): PsaOperations => ({
  test: async () => ({ ok: true, value: { detail: 'fine' } }),
  createTicket: async () => ({ ok: true, value: { ticketId: '1', adopted: false } }),
  appendNote: async () => ({ ok: true, value: null }),
  closeTicket: async () => ({ ok: true, value: { alreadyClosed: false } }),
  ticketUrl: () => null,
  billingLines: async () => ({ ok: true, value: [] }),
  setQuantity: async () => ({ ok: true, value: { previous: null } }),
  lookup: async () => ({ ok: true, value: [] }),
  readTickets: async () => ({ ok: true, value: [] }),
  reopenTicket: async () => ({ ok: true, value: null }),
  push: null,
})

/** A second kind, with HaloPSA's settings and secrets. */
const haloPsaKind = () =>
  psaKind({ kind: 'halopsa', settings: HaloPsaSettings, secretFields: ['clientSecret'], adapter: idlePsa })

const stored = (settings: Record<string, unknown>) => ({ kind: 'sandbox' as const, settings })

describe('PSA registry', () => {
  const { adapter } = slowPsa()
  const registry = new PsaRegistry([
    psaKind({ kind: 'sandbox', settings: Settings, secretFields: ['token'], adapter }),
    haloPsaKind(),
  ])

  test('only the kinds of the list can be connected; each has its settings checked', () => {
    assert.deepEqual(registry.kinds, ['sandbox', 'halopsa'])
    assert.equal(registry.knows('halopsa'), true)
    assert.equal(registry.knows('syncro'), false)
    const check = registry.check('halopsa', { clientId: 'acme' })
    assert.equal(check.ok, false)
    assert.match(check.ok ? '' : check.problems.join('; '), /psa must have required properties/)
    assert.deepEqual(registry.check('syncro', {}), {
      ok: false,
      problems: ["PSA kind 'syncro' is unknown"],
    })
  })

  test('settings shown back have their kind’s secrets masked', () => {
    assert.deepEqual(registry.view(stored({ token: 't-1', other: 'x' })), {
      kind: 'sandbox',
      token: '********',
      other: 'x',
    })
    assert.deepEqual(registry.view({ kind: 'halopsa', settings: { clientSecret: 'k', clientId: 'p' } }), {
      kind: 'halopsa',
      clientSecret: '********',
      clientId: 'p',
    })
  })

  test('stored settings that do not fit their kind never reach the adapter', () => {
    const c = registry.connect('p-1', stored({ token: '' }))
    assert.equal(c.ok, false)
    assert.match(c.ok ? '' : c.failure.message, /the PSA settings are not valid: psa\/token/)
    const halo = registry.connect('p-1', { kind: 'halopsa', settings: {} })
    assert.equal(halo.ok, false)
    assert.match(
      halo.ok ? '' : halo.failure.message,
      /the PSA settings are not valid: psa must have required/,
    )
    const syncro = registry.connect('p-1', { kind: 'syncro', settings: {} })
    assert.equal(syncro.ok, false)
    assert.match(syncro.ok ? '' : syncro.failure.message, /'syncro' is not available/)
  })

  test('each kind’s settings accept only its own fields, at every level, naming the one that is not', () => {
    const defaults = { board: 'Service Desk', closedStatus: 'Closed' }
    const kinds = [
      ['sandbox', SandboxSettings, { defaults, companies: [{ id: '1', name: 'Acme' }, 'Globex'] }],
      [
        'connectwise',
        ConnectWiseSettings,
        {
          site: 'na.myconnectwise.net',
          companyId: 'a',
          publicKey: 'p',
          privateKey: 'k',
          clientId: 'c',
          defaults,
        },
      ],
      [
        'autotask',
        AutotaskSettings,
        { username: 'u@x.example', secret: 's', integrationCode: 'i', defaults },
      ],
      ['halopsa', HaloPsaSettings, { baseUrl: 'https://acme.halopsa.com', clientId: 'c', clientSecret: 's' }],
      [
        'kaseya-bms',
        KaseyaBmsSettings,
        { baseUrl: 'https://bms.example', tenant: 't', username: 'u', password: 'p' },
      ],
      ['syncro', SyncroSettings, { subdomain: 'acme', apiToken: 't', defaults }],
      ['pulseway-psa', PulsewayPsaSettings, { tenant: 't', username: 'u', password: 'p', defaults }],
      [
        'superops',
        SuperOpsSettings,
        { baseUrl: 'https://api.superops.ai/msp', subdomain: 'acme', apiToken: 't', defaults },
      ],
      [
        'ninjaone',
        NinjaOneSettings,
        { baseUrl: 'https://eu.ninjarmm.com', clientId: 'c', clientSecret: 's', refreshToken: 'r', defaults },
      ],
    ] as const
    for (const [kind, schema, valid] of kinds) {
      assert.deepEqual(checkSettings(schema, valid), { ok: true, settings: valid }, kind)
      for (const [extra, named] of [
        [{ ...valid, apiKey: 'x' }, 'psa/apiKey is not a setting of this PSA kind'],
        [
          { ...valid, defaults: { ...defaults, queue: 'Q' } },
          'psa/defaults/queue is not a setting of this PSA kind',
        ],
      ] as const) {
        const check = checkSettings(schema, extra)
        assert.deepEqual(check, { ok: false, problems: [named] }, `${kind}: ${JSON.stringify(check)}`)
      }
    }
    // An entry may be a name or {id, name}: the problems say why it is neither, the extra field among them.
    const entity = checkSettings(SandboxSettings, { boards: [{ id: 'b', colour: 'red' }] })
    assert.ok(!entity.ok && entity.problems.includes('psa/boards/0/colour is not a setting of this PSA kind'))
  })

  test('settings an older build stored with fields their kind does not have still connect, without them', () => {
    const seen: unknown[] = []
    const closed = Type.Object({ token: Type.String({ minLength: 1 }) }, { additionalProperties: false })
    const legacy = new PsaRegistry([
      psaKind({
        kind: 'sandbox',
        settings: closed,
        secretFields: [],
        adapter: (conn) => ({
          ...adapter(conn),
          test: async () => {
            seen.push(conn.settings)
            return { ok: true, value: { detail: 'fine' } }
          },
        }),
      }),
    ])
    assert.equal(legacy.check('sandbox', { token: 't', board: 'x' }).ok, false)
    const c = legacy.connect('p-1', stored({ token: 't', board: 'x', defaults: { board: 'Ops' } }))
    assert.ok(c.ok)
    void c.client.test({ signal: AbortSignal.timeout(1000) })
    assert.deepEqual(seen, [{ token: 't' }])
    assert.deepEqual(c.defaults, { board: 'Ops' })
  })

  test('a connected client carries the connection’s ticket defaults', () => {
    const c = registry.connect('p-1', stored({ token: 't', defaults: { board: 'Security' } }))
    assert.ok(c.ok)
    assert.deepEqual(c.defaults, { board: 'Security' })
  })
})

describe('PSA calls of the executor', () => {
  test('the time budget aborts the call through its signal, and the call carries the correlationId', async () => {
    const { adapter, seen } = slowPsa()
    const registry = new PsaRegistry([
      psaKind({ kind: 'sandbox', settings: Settings, secretFields: [], adapter }),
    ])
    const store = {
      partners: { findById: async (id: string) => ({ id, psa: stored({ token: 'secret-1' }) }) },
    } as unknown as Store
    const psa = await new PsaCalls({ store, psa: registry, timeoutMs: 50 }).open('p-1')
    const started = Date.now()
    const result = await psa.call('corr-1', (client, call) =>
      client.createTicket(
        {
          companyId: 'c',
          board: null,
          priority: null,
          type: null,
          status: null,
          summary: 's',
          description: 'd',
        },
        { ...call, ref: call.correlationId, adopt: false },
      ),
    )
    assert.equal(result.ok, false)
    assert.ok(Date.now() - started < 2000, 'answered when the budget ran out')
    assert.deepEqual(seen, [{ correlationId: 'corr-1', aborted: true, token: 'secret-1' }])
  })

  test('a connection that cannot be used answers every call with its failure, without calling', async () => {
    const registry = new PsaRegistry([haloPsaKind()])
    const store = {
      partners: { findById: async (id: string) => ({ id, psa: { kind: 'halopsa', settings: {} } }) },
    } as unknown as Store
    const psa = await new PsaCalls({ store, psa: registry, timeoutMs: 50 }).open('p-1')
    assert.equal(psa.kind, 'halopsa')
    const result = await psa.call('c', () => assert.fail('no call is made'))
    assert.deepEqual(result.ok ? null : [result.failure.kind, result.failure.retryable], [
      'unavailable',
      false,
    ])
  })
})
