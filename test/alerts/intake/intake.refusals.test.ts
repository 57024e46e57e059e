// Alert intake answers its refusals as values, without HTTP: the code, the sentence and the ids the
// failure envelope carries. The route (or the acceptor's route) turns them into the HTTP answer.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { AlertIntake, alertFacts } from '../../../src/alerts/intake/intake.js'
import { VendorRateLimiter } from '../../../src/alerts/intake/rate-limit.js'
import type { AlertRequest } from '../../../src/alerts/intake/schema.js'

const body = (over: Partial<AlertRequest> = {}): AlertRequest => ({
  clientId: 'client-1',
  clientSecret: 'secret-1',
  grantType: 'client_credentials',
  scope: 'vendor_manage',
  organizationOemToken: 'org-token-1',
  integrationId: 'integration-1',
  data: {
    title: 'Malware found',
    summary: '',
    alertType: 'Malware Detected',
    accountId: 'acme-001',
    productGroup: 'Endpoint Security',
    incidentStatus: 'OPEN',
  },
  ...over,
})

/** Reads that know no vendor and no integration, noting what is asked of them. */
function emptyReads() {
  const asked: string[] = []
  const reads: ConstructorParameters<typeof AlertIntake>[1] = {
    vendors: {
      findByClientId: async (clientId) => {
        asked.push(`vendor ${clientId}`)
        return null
      },
    },
    integrations: {
      findByOrgTokenDigest: async () => {
        asked.push('integration')
        return null
      },
      tenantState: async () => {
        asked.push('tenant state')
        return null
      },
    },
  }
  return { reads, asked }
}

function intake() {
  const { reads, asked } = emptyReads()
  const limiter = new VendorRateLimiter(60)
  return { intake: new AlertIntake(reads, reads, limiter, () => new Date('2026-05-01T12:00:00Z')), asked }
}

describe('alert intake refuses with values', () => {
  test('a grantType or scope that is not the constant is INVALID_CREDENTIALS, before anything is read', async () => {
    const { intake: i, asked } = intake()
    assert.deepEqual(await i.admit(body({ grantType: 'password' }), 'm-1', 'c-1'), {
      ok: false,
      refusal: {
        code: 'INVALID_CREDENTIALS',
        detail: "grantType must be 'client_credentials'.",
        extra: { messageId: 'm-1', correlationId: 'c-1' },
      },
    })
    assert.deepEqual(await i.admit(body({ scope: 'admin' }), 'm-2', null), {
      ok: false,
      refusal: {
        code: 'INVALID_CREDENTIALS',
        detail: "scope must be 'vendor_manage'.",
        extra: { messageId: 'm-2', correlationId: null },
      },
    })
    assert.deepEqual(asked, [])
  })

  test('unknown credentials are one sentence for every part, with the ids of the alert', async () => {
    const { intake: i, asked } = intake()
    const answer = await i.admit(body(), 'm-3', null)
    assert.equal(answer.ok, false)
    if (answer.ok) return
    assert.equal(answer.refusal.code, 'INVALID_CREDENTIALS')
    assert.equal(answer.refusal.detail, 'clientId, clientSecret or organizationOemToken is wrong.')
    assert.deepEqual(answer.refusal.extra, { messageId: 'm-3', correlationId: null })
    assert.deepEqual(asked, ['vendor client-1'])
  })
})

describe('alertFacts', () => {
  test('correlationId and correlationID that differ are VALIDATION_FAILED, without a correlationId', () => {
    assert.deepEqual(alertFacts(body({ correlationId: 'a', correlationID: 'b' }), 'm-4'), {
      ok: false,
      refusal: {
        code: 'VALIDATION_FAILED',
        detail: 'correlationId and correlationID are both given and differ; send one.',
        extra: { messageId: 'm-4', correlationId: null },
      },
    })
  })

  test('a well-formed alert answers its facts; correlationID is a spelling of correlationId', () => {
    const facts = alertFacts(body({ correlationID: 'c-9' }), 'm-5')
    assert.ok(facts.ok)
    assert.equal(facts.value.correlationId, 'c-9')
    assert.equal(facts.value.productGroup, 'Endpoint Security')
  })
})
