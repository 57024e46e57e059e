// A rule's ticket templates applied to a new ticket (docs/partner-api.md#ticket-templates,
// docs/decisions/rules/ticket-templates.md): the placeholders' values for an alert, and the title and
// description rendered for the partner's PSA. The description keeps alertbridge's reference lines
// (Correlation ID, Message ID) after the rendered text: a retry after a lost answer looks for them, and a
// PSA adapter keeps them when it cuts the text to its limit (src/psa/core/text.ts).

import { uriComponent } from '../../platform/core/text.js'
import type { AlertFacts } from '../../platform/core/types.js'
import type { Store } from '../../platform/db/store.js'
import type { Integration } from '../../tenants/index.js'
import { renderTemplate, type TemplateValues, type TicketTemplates } from '../rules/templates.js'

/**
 * The PSAs whose ticket description renders HTML (docs/decisions/rules/ticket-templates.md): the
 * values put into a template are escaped for them, so a vendor's `<script>` or `<img>` is text there.
 */
const htmlDescriptions: ReadonlySet<string> = new Set(['connectwise', 'halopsa'])

export const rendersHtml = (psaKind: string): boolean => htmlDescriptions.has(psaKind)

/** The portal's page of the ticket: PUBLIC_URL's address, else the path alone. */
export function portalLink(publicUrl: string | null, correlationId: string): string {
  const path = `/tickets/${uriComponent(correlationId)}`
  return publicUrl ? `${publicUrl.replace(/\/+$/, '')}${path}` : path
}

/** The names a template may show that the alert does not carry: its vendor's and its account's. */
export interface TemplateNames {
  vendor: string
  accountName: string
}

/** The vendor's name and the account's as the vendor registered it (its id when it has none). */
export async function templateNames(
  store: Pick<Store, 'vendors' | 'vendorData'>,
  integration: Pick<Integration, 'id' | 'vendorId'>,
  accountId: string,
): Promise<TemplateNames> {
  const [vendor, account] = await Promise.all([
    store.vendors.findById(integration.vendorId),
    store.vendorData.findAccount(integration.id, accountId),
  ])
  return { vendor: vendor?.name ?? '', accountName: account?.name ?? accountId }
}

export function templateValues(
  alert: Pick<AlertFacts, 'title' | 'summary' | 'accountId' | 'productGroup' | 'alertType'>,
  names: TemplateNames,
  t: { correlationId: string; occurrenceCount: number; publicUrl: string | null },
): TemplateValues {
  return {
    title: alert.title,
    summary: alert.summary,
    accountName: names.accountName,
    accountId: alert.accountId,
    productGroup: alert.productGroup,
    alertType: alert.alertType,
    vendor: names.vendor,
    correlationId: t.correlationId,
    occurrenceCount: String(t.occurrenceCount),
    portalLink: portalLink(t.publicUrl, t.correlationId),
  }
}

/** The rendered title and description body, each null where the rule has no template for it. */
export function renderTicketTemplates(
  templates: TicketTemplates | undefined,
  values: TemplateValues,
  psaKind: string,
): { title: string | null; description: string | null } {
  const render = (field: 'title' | 'description') => {
    const source = templates?.[field]
    if (!source) return null
    // A title is one line of text in every PSA; a description is escaped where the PSA renders HTML.
    const html = field === 'description' && rendersHtml(psaKind)
    const text = renderTemplate(source, values, { html, field })
    return text === null || text.trim() === '' ? null : text
  }
  return { title: render('title'), description: render('description') }
}

/** A new ticket's rendered templates (none when its rule has no template): the names read first. */
export async function renderedForTicket(
  store: Pick<Store, 'vendors' | 'vendorData'>,
  publicUrl: string | null,
  integration: Pick<Integration, 'id' | 'vendorId'>,
  alert: AlertFacts,
  t: { templates: TicketTemplates | undefined; correlationId: string; psaKind: string },
): Promise<{ title: string | null; description: string | null } | undefined> {
  if (!t.templates?.title && !t.templates?.description) return undefined
  const names = await templateNames(store, integration, alert.accountId)
  const values = templateValues(alert, names, {
    correlationId: t.correlationId,
    occurrenceCount: 1,
    publicUrl,
  })
  return renderTicketTemplates(t.templates, values, t.psaKind)
}
