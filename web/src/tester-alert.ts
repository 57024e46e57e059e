// The rule tester's alert, two ways: fields (account, product group, alert type, status, its ticket,
// title, summary and the vendor's extra fields) or JSON, each turned into the other without losing
// anything the fields can hold. Pure: no React, tested on its own (test/web/tester-alert.test.ts).

export const statuses = ['OPEN', 'UPDATE', 'RESOLVED'] as const
export type Status = (typeof statuses)[number]

/** An extra field of the alert's data; `json`: its value is JSON (a number, true, an object…), not text. */
export interface ExtraField {
  name: string
  value: string
  json?: boolean
}

export interface AlertFields {
  accountId: string
  productGroup: string
  alertType: string
  incidentStatus: Status
  /** UPDATE and RESOLVED: the ticket's correlationId ('' for none). */
  correlationId: string
  title: string
  summary: string
  extras: ExtraField[]
}

/** What the dry run is sent: the alert's data and, for UPDATE and RESOLVED, its correlationId. */
export interface TesterInput {
  data: Record<string, unknown> & {
    title: string
    accountId: string
    productGroup: string
    alertType: string
    incidentStatus: Status
    summary?: string
  }
  correlationId?: string
}

const contract = ['title', 'summary', 'productGroup', 'alertType', 'accountId', 'incidentStatus'] as const
const named = new Set<string>([...contract, 'correlationId', 'correlationID'])

function extraValue(f: ExtraField): unknown {
  if (!f.json) return f.value
  try {
    return JSON.parse(f.value)
  } catch {
    return f.value
  }
}

/** The fields as the alert's data (contract fields first, then the extra ones). */
export function alertOfFields(f: AlertFields): TesterInput {
  const data: TesterInput['data'] = {
    title: f.title,
    ...(f.summary ? { summary: f.summary } : {}),
    productGroup: f.productGroup,
    alertType: f.alertType,
    accountId: f.accountId,
    incidentStatus: f.incidentStatus,
  }
  for (const x of f.extras) {
    const name = x.name.trim()
    if (name && !named.has(name)) data[name] = extraValue(x)
  }
  const id = f.incidentStatus === 'OPEN' ? '' : f.correlationId.trim()
  return { data, ...(id ? { correlationId: id } : {}) }
}

/** The JSON text the "Edit as JSON" box shows: the data, its correlationId beside its fields. */
export function jsonOfFields(f: AlertFields): string {
  const { data, correlationId } = alertOfFields(f)
  return JSON.stringify(correlationId ? { ...data, correlationId } : data, null, 2)
}

/**
 * The alert's data (with its correlationId beside the fields), or a whole alert request as a vendor
 * sends it ({…, data: {…}}): the data and correlationId to send. Its credentials are left out.
 */
export function inputOfPasted(pasted: Record<string, unknown>): {
  data: Record<string, unknown>
  correlationId?: string
} {
  const whole = typeof pasted.data === 'object' && pasted.data !== null ? pasted : null
  const { correlationId, correlationID, ...data } = (whole?.data ?? pasted) as Record<string, unknown>
  const id = whole?.correlationId ?? whole?.correlationID ?? correlationId ?? correlationID
  return { data, ...(typeof id === 'string' && id ? { correlationId: id } : {}) }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string }

/** The JSON box's text as an object, or why not in plain words. */
export function parseAlertJson(text: string): Parsed<Record<string, unknown>> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { ok: false, problem: 'The alert is not valid JSON: check its quotes, commas and braces.' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'The alert must be a JSON object like the data of an alert.' }
  return { ok: true, value: value as Record<string, unknown> }
}

/** The JSON box's alert as fields, or why the fields cannot hold it (then it stays JSON). */
export function fieldsOfJson(text: string): Parsed<AlertFields> {
  const parsed = parseAlertJson(text)
  if (!parsed.ok) return parsed
  const { data, correlationId } = inputOfPasted(parsed.value)
  for (const k of contract) {
    const v = data[k]
    if (v !== undefined && typeof v !== 'string')
      return {
        ok: false,
        problem: `"${k}" must be text to edit the alert as fields; keep editing it as JSON.`,
      }
  }
  const status = (data.incidentStatus ?? 'OPEN') as string
  if (!(statuses as readonly string[]).includes(status))
    return {
      ok: false,
      problem: `"incidentStatus" must be OPEN, UPDATE or RESOLVED to edit the alert as fields; keep editing it as JSON.`,
    }
  const text_ = (k: (typeof contract)[number]) => (typeof data[k] === 'string' ? (data[k] as string) : '')
  const extras: ExtraField[] = Object.entries(data)
    .filter(([k]) => !named.has(k))
    .map(([name, v]) =>
      typeof v === 'string' ? { name, value: v } : { name, value: JSON.stringify(v), json: true },
    )
  return {
    ok: true,
    value: {
      accountId: text_('accountId'),
      productGroup: text_('productGroup'),
      alertType: text_('alertType'),
      incidentStatus: status as Status,
      correlationId: correlationId ?? '',
      title: text_('title'),
      summary: text_('summary'),
      extras,
    },
  }
}
