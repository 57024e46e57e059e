// The names the partner's screens show beside ids (docs/partner-api.md#names): the vendor, the account's
// name, its PSA company's name, and the PSA's names of a new ticket's board, priority, type and status.
// Joined for a whole page at once: three queries and the PSA's kept look-up lists, never one per row.
import Type, { type Static } from 'typebox'
import type { Store } from '../../platform/db/store.js'
import { Nullable } from '../../platform/http/schemas.js'
import type { Integration, Partner } from '../../tenants/index.js'
import { accountKey, entryNamed, type PsaNames } from '../../tenants/index.js'
import { catchAllMapping } from '../steps/catch-all/catch-all.js'

const companyName = Nullable(
  Type.String({
    description: "the company's name in the PSA; null where the PSA's list could not be read in time",
  }),
)

export const TicketNames = Type.Object({
  vendorName: Nullable(Type.String({ description: "the integration's vendor" })),
  accountName: Nullable(
    Type.String({ description: 'the name the vendor gave the account; null: the vendor never declared it' }),
  ),
  psaCompanyId: Nullable(
    Type.String({ description: 'the PSA company the account is mapped to now; null: not mapped' }),
  ),
  psaCompanyName: companyName,
})
export type TicketNames = Static<typeof TicketNames>

interface Named {
  integrationId: string
  accountId: string
  psaKind: string
}

/** The tickets with their names; a ticket made in another PSA kind than the partner's now gets no company name. */
export async function withTicketNames<T extends Named>(
  store: Store,
  psaNames: PsaNames,
  partner: Partner | null,
  tickets: readonly T[],
): Promise<(T & TicketNames)[]> {
  const names = await store.names.forAccounts(tickets)
  const inPsa = (t: Named) => partner !== null && partner.psa.kind === t.psaKind
  const companies =
    partner && tickets.some((t) => inPsa(t) && names.companies.has(accountKey(t)))
      ? await psaNames.list(partner.id, partner.psa, 'companies')
      : null
  return tickets.map((t) => {
    const key = accountKey(t)
    const psaCompanyId = names.companies.get(key) ?? null
    return {
      ...t,
      vendorName: names.vendors.get(t.integrationId) ?? null,
      accountName: names.accounts.get(key) ?? null,
      psaCompanyId,
      psaCompanyName: inPsa(t) ? (entryNamed(companies, psaCompanyId)?.name ?? null) : null,
    }
  })
}

const settingName = (what: string) =>
  Nullable(
    Type.String({
      description: `the PSA's name of the new ticket's ${what}; null: none, or not in its list`,
    }),
  )

export const DryRunNames = Type.Object({
  accountName: TicketNames.properties.accountName,
  psaCompanyId: Nullable(
    Type.String({
      description: 'the PSA company the alert’s account goes to (its mapping, or the catch-all company)',
    }),
  ),
  psaCompanyName: companyName,
  boardName: settingName('board'),
  priorityName: settingName('priority'),
  typeName: settingName('type'),
  statusName: settingName('status'),
})
export type DryRunNames = Static<typeof DryRunNames>

type Settings = Record<'board' | 'priority' | 'type' | 'status', string | null>

/** The names of what a dry run names: the alert's account, its PSA company, the new ticket's settings. */
export async function dryRunNames(
  store: Store,
  psaNames: PsaNames,
  integration: Integration,
  partner: Partner,
  run: { row: string | null; ticket: Settings | null },
  accountId: string,
): Promise<DryRunNames> {
  const ref = { integrationId: integration.id, accountId }
  const names = await store.names.forAccounts([ref])
  const psaCompanyId =
    names.companies.get(accountKey(ref)) ??
    (run.row === 'catch-all'
      ? (catchAllMapping(integration.settings.catchAll, accountId)?.psaCompanyId ?? null)
      : null)
  const t = run.ticket
  const list = (what: 'companies' | 'boards' | 'priorities' | 'types' | 'statuses', wanted: unknown) =>
    wanted
      ? psaNames.list(
          partner.id,
          partner.psa,
          what,
          what === 'types' || what === 'statuses' ? t?.board : null,
        )
      : null
  const [companies, boards, priorities, types, statuses] = await Promise.all([
    list('companies', psaCompanyId),
    list('boards', t?.board),
    list('priorities', t?.priority),
    list('types', t?.type),
    list('statuses', t?.status),
  ])
  return {
    accountName: names.accounts.get(accountKey(ref)) ?? null,
    psaCompanyId,
    psaCompanyName: entryNamed(companies, psaCompanyId)?.name ?? null,
    boardName: entryNamed(boards, t?.board ?? null)?.name ?? null,
    priorityName: entryNamed(priorities, t?.priority ?? null)?.name ?? null,
    typeName: entryNamed(types, t?.type ?? null)?.name ?? null,
    statusName: entryNamed(statuses, t?.status ?? null)?.name ?? null,
  }
}
