// A client generated from the served OpenAPI document works (docs/vendor-api.md#openapi-document): the
// document is turned into TypeScript types with openapi-typescript, a small vendor program written against
// those types is type-checked (a wrong value must not compile), and the same program then drives the whole
// vendor flow through openapi-fetch against a real service — token, account, product groups, the partner's
// mapping and rule, an OPEN that creates a ticket (its retry under the same Idempotency-Key replayed), the
// ticket read back, and the RESOLVED that closes it.
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { startService, type TestService } from '../../../support/service.js'

const repo = process.cwd()

/** The vendor's program: only the generated types and openapi-fetch. */
const flowProgram = `
import createClient from 'openapi-fetch'
import type { components, paths } from './schema.js'

type AlertData = components['schemas']['AlertData']
// @ts-expect-error incidentStatus is OPEN, UPDATE or RESOLVED: the generated types say so
const wrong: AlertData['incidentStatus'] = 'CLOSED'
void wrong

export interface Credentials {
  clientId: string
  clientSecret: string
  integrationId: string
  organizationOemToken: string
}

function must<T>(what: string, r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined) throw new Error(\`\${what}: \${r.response.status} \${JSON.stringify(r.error)}\`)
  return r.data
}

export async function vendorFlow(baseUrl: string, c: Credentials, partnerMaps: () => Promise<void>) {
  const api = createClient<paths>({ baseUrl })
  const token = must(
    'token',
    await api.POST('/api/oauth/token', {
      body: {
        grant_type: 'client_credentials',
        client_id: c.clientId,
        client_secret: c.clientSecret,
        organization_oem_token: c.organizationOemToken,
      },
    }),
  )
  const headers = { authorization: \`Bearer \${token.access_token}\` }
  must(
    'account',
    await api.POST('/api/vendor-api/organization/accounts', {
      headers,
      body: { vendorAccountId: 'acme-001', name: 'Acme Corp', externalId: 'ACME-001' },
    }),
  )
  must(
    'product groups',
    await api.PUT('/api/vendor-api/product-groups', {
      headers,
      body: { productGroups: { 'Endpoint Security': ['Malware Detected', 'Agent Offline'] } },
    }),
  )
  const mapping = must('mapping', await api.PATCH('/api/vendor-api/status/mapping', { headers, body: {} }))
  await partnerMaps()
  const state = must('status', await api.GET('/api/vendor-api/status/mapping', { headers })).state

  const data: AlertData = {
    title: 'Malware detected on WS-042',
    summary: 'Trojan quarantined.',
    alertType: 'Malware Detected',
    accountId: 'acme-001',
    productGroup: 'Endpoint Security',
    incidentStatus: 'OPEN',
  }
  const alert = {
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    grantType: 'client_credentials',
    scope: 'vendor_manage',
    organizationOemToken: c.organizationOemToken,
    integrationId: c.integrationId,
    correlationId: 'edr-4711',
  }
  const key = { header: { 'Idempotency-Key': 'open-edr-4711' } }
  const first = await api.POST('/api/oem-alerts-api/alert/sync', { params: key, body: { ...alert, data } })
  const opened = must('open', first)
  const again = await api.POST('/api/oem-alerts-api/alert/sync', { params: key, body: { ...alert, data } })
  const ticket = must(
    'ticket',
    await api.GET('/api/oem-alerts-api/alert/{correlationId}', {
      headers,
      params: { path: { correlationId: opened.data.correlationID ?? 'edr-4711' } },
    }),
  )
  const closed = must(
    'resolve',
    await api.POST('/api/oem-alerts-api/alert/sync', {
      body: { ...alert, correlationId: opened.data.correlationID ?? 'edr-4711', data: { ...data, incidentStatus: 'RESOLVED' } },
    }),
  )
  const after = must('ticket', await api.GET('/api/oem-alerts-api/alert', { headers }))
  return {
    tokenType: token.token_type,
    mappingState: mapping.state,
    state,
    opened: { status: first.response.status, message: opened.message },
    replay: { status: again.response.status, replayed: again.response.headers.get('idempotent-replayed'), body: again.data },
    openedBody: opened,
    ticket: { status: ticket.status, psaTicketId: ticket.psaTicketId, events: ticket.eventCount },
    closed: closed.message,
    finally: after.data.map((t) => t.status),
  }
}
`

describe('a TypeScript client generated from the OpenAPI document', () => {
  let svc: TestService
  let dir: string
  let doc: Record<string, unknown>
  before(async () => {
    svc = await startService()
    const res = await fetch(`${svc.url}/openapi.json`)
    assert.equal(res.status, 200)
    doc = (await res.json()) as Record<string, unknown>
    mkdirSync(join(repo, '.tmp'), { recursive: true })
    // Inside the repository, so that the program finds openapi-fetch where the service's tests do.
    dir = mkdtempSync(join(repo, '.tmp', 'openapi-client-'))
  })
  after(async () => {
    rmSync(dir, { recursive: true, force: true })
    await svc.close()
  })

  test('openapi-typescript generates types, and a vendor program against them type-checks', async () => {
    const ast = await openapiTS(doc as never)
    const types = astToString(ast)
    for (const name of ['sendAlertSync', 'getToken', 'listDeliveries'])
      assert.match(types, new RegExp(`${name}:`))
    writeFileSync(join(dir, 'schema.d.ts'), types)
    writeFileSync(join(dir, 'flow.ts'), flowProgram)
    const program = ts.createProgram([join(dir, 'flow.ts')], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    })
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
    assert.deepEqual(problems, [])
  })

  test('the program drives the vendor flow with openapi-fetch: token, setup, the partner’s mapping, OPEN, the ticket, RESOLVED', async () => {
    const admin = (method: string, path: string, body?: unknown) =>
      svc.request(method, path, { token: svc.adminToken, body })
    const vendor = await admin('POST', '/api/admin/vendors', { name: 'Generated client vendor' })
    assert.equal(vendor.status, 201, vendor.text)
    const partner = await admin('POST', '/api/admin/partners', { name: 'Best MSP', psa: { kind: 'sandbox' } })
    assert.equal(partner.status, 201, partner.text)
    const integration = await admin('POST', '/api/admin/integrations', {
      vendorId: vendor.body.id,
      partnerId: partner.body.id,
    })
    assert.equal(integration.status, 201, integration.text)
    const integrationId: string = integration.body.integrationId
    const partnerCall = (method: string, path: string, body?: unknown) =>
      svc.request(method, `/api/partner/integrations/${integrationId}${path}`, {
        token: partner.body.apiKey,
        body,
      })
    // The partner's part (docs/partner-api.md): map the account, add a rule, complete the mapping.
    const partnerMaps = async () => {
      assert.equal((await partnerCall('PUT', '/accounts/acme-001', { psaCompanyId: '100' })).status, 200)
      assert.equal((await partnerCall('POST', '/rules', { productGroup: 'Endpoint Security' })).status, 201)
      assert.equal((await partnerCall('POST', '/complete-mapping')).status, 200)
    }

    // Plain JavaScript to run: the whole suite runs compiled, without a TypeScript loader.
    const js = ts.transpileModule(flowProgram, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText
    writeFileSync(join(dir, 'flow.mjs'), js)
    const { vendorFlow } = await import(pathToFileURL(join(dir, 'flow.mjs')).href)
    const result = await vendorFlow(
      svc.url,
      {
        clientId: vendor.body.clientId,
        clientSecret: vendor.body.clientSecret,
        integrationId,
        organizationOemToken: integration.body.organizationOemToken,
      },
      partnerMaps,
    )
    assert.equal(result.tokenType, 'Bearer')
    assert.equal(result.mappingState, 'mapping')
    assert.equal(result.state, 'pending')
    assert.deepEqual(result.opened, { status: 201, message: 'created' })
    // The retry under the same Idempotency-Key is the first answer again, and no second ticket.
    assert.deepEqual(result.replay, { status: 201, replayed: 'true', body: result.openedBody })
    assert.equal(result.ticket.status, 'open')
    assert.ok(result.ticket.psaTicketId, 'the sandbox PSA holds the ticket')
    assert.equal(result.closed, 'closed')
    assert.deepEqual(result.finally, ['closed'])
  })
})
