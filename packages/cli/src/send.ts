// `alertbridge-vendor send`: one alert (docs/contract.md#alert-request), from flags or a JSON file,
// with the credentials in the body as the contract wants. Prints the answer's body; exit 0 when the
// answer is not a failure.
import { parseArgs } from 'node:util'
import type { AlertData, AlertInput } from '@alertbridge/vendor'
import { connect, connectionHelp, connectionOptions, type Io, readJson, UsageError } from './io.js'

export const sendHelp = `alertbridge-vendor send [options]

Sends one alert; prints the answer (JSON) and exits 0, or 1 when it is a failure.

  --title <text>           data.title
  --summary <text>         data.summary
  --alert-type <type>      data.alertType
  --account <id>           data.accountId (declared with POST /api/vendor-api/organization/accounts)
  --product-group <group>  data.productGroup
  --status <status>        data.incidentStatus: OPEN (default), UPDATE or RESOLVED
  --correlation-id <id>    the ticket's (required for UPDATE and RESOLVED)
  --file <alert.json>      the alert as JSON: {"data": {…}, "correlationId"?} or the data alone;
                           flags given beside it win
  --strategy <s>           sync (default: the answer is the outcome) or webhook (answered at once)
  --idempotency-key <key>  the call's key (default: a new one, the same on each retry)

${connectionHelp}`

const dataFlags = {
  title: 'title',
  summary: 'summary',
  'alert-type': 'alertType',
  account: 'accountId',
  'product-group': 'productGroup',
  status: 'incidentStatus',
} as const

export async function send(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...connectionOptions,
      ...Object.fromEntries(Object.keys(dataFlags).map((k) => [k, { type: 'string' as const }])),
      'correlation-id': { type: 'string' },
      file: { type: 'string' },
      strategy: { type: 'string' },
      'idempotency-key': { type: 'string' },
    },
    strict: true,
  })
  const v = values as Record<string, string | undefined>
  let input: Partial<AlertInput> = {}
  if (v.file) {
    const read = readJson(io, v.file)
    if (!read || typeof read !== 'object' || Array.isArray(read))
      throw new UsageError(`${v.file}: expected a JSON object (the alert, or its data)`)
    const o = read as Record<string, unknown>
    input =
      o.data && typeof o.data === 'object'
        ? {
            data: o.data as AlertData,
            correlationId: (o.correlationId ?? o.correlationID) as string | undefined,
          }
        : { data: o as AlertData }
  }
  const data: Record<string, unknown> = { incidentStatus: 'OPEN', ...input.data }
  for (const [flag, field] of Object.entries(dataFlags)) if (v[flag] !== undefined) data[field] = v[flag]
  if (typeof data.incidentStatus === 'string') data.incidentStatus = data.incidentStatus.toUpperCase()
  const missing = ['title', 'alertType', 'accountId', 'productGroup'].filter((f) => data[f] === undefined)
  if (missing.length > 0)
    throw new UsageError(`the alert lacks ${missing.map((f) => `data.${f} (--${flagOf(f)})`).join(', ')}`)
  const strategy = v.strategy ?? 'sync'
  if (strategy !== 'sync' && strategy !== 'webhook')
    throw new UsageError(`--strategy: 'sync' or 'webhook', not '${strategy}'`)

  const { client } = connect(io, v, { alerts: true })
  const correlationId = v['correlation-id'] ?? input.correlationId
  const result = await client.sendAlert(
    { data: data as AlertData, ...(correlationId ? { correlationId } : {}) },
    { strategy, idempotencyKey: v['idempotency-key'], signal: io.signal },
  )
  io.out(JSON.stringify(result.body, null, 2))
  io.err(
    [
      `${result.message} (${result.status})`,
      result.correlationId && `correlationId ${result.correlationId}`,
      result.error && `${result.error}: ${result.detail ?? ''}`,
      result.replayed && 'replayed: the first answer to this Idempotency-Key',
    ]
      .filter(Boolean)
      .join(' · '),
  )
  return result.ok ? 0 : 1
}

const flagOf = (field: string) => Object.entries(dataFlags).find(([, f]) => f === field)?.[0] ?? field
