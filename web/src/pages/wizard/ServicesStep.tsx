// Step 3: the vendor's services to billing lines in the PSA, where the PSA bills through its API.
// A service mapped to a product sets, for every account, the quantity of the line billing that
// product on the account's company agreement. Optional: skip it if you bill otherwise.
import { useState } from 'react'
import type { Account, BillingLine, Service } from '../../api/types'
import { Pager, usePager } from '../../components/Pager'
import { ErrorNotice, Loading, Notice, QueryView } from '../../components/State'
import { useAccounts } from '../../hooks/accounts'
import { useAgreements, useCompanyName } from '../../hooks/psa'
import { useMapService, useMapServiceLine, useServiceLines, useServices } from '../../hooks/services'
import { useCanEdit } from '../../hooks/session'

function ServiceRow({
  service,
  products,
  integrationId,
}: {
  service: Service
  products: { id: string; name: string }[]
  integrationId: string
}) {
  const canEdit = useCanEdit()
  const map = useMapService(integrationId)
  const current = service.mapping?.psaProductId ?? ''
  const [value, setValue] = useState(current)
  const options =
    products.some((p) => p.id === current) || !current
      ? products
      : [{ id: current, name: current }, ...products]
  const id = `product-${service.id}`
  return (
    <tr>
      <td data-label="Service">
        <strong>{service.name}</strong>
        <div className="small muted">{service.description}</div>
      </td>
      <td data-label="Billing product">
        {canEdit ? (
          <>
            <label htmlFor={id} className="visually-hidden">
              Billing product for {service.name}
            </label>
            <select id={id} value={value} onChange={(e) => setValue(e.target.value)}>
              <option value="">not billed through alertbridge</option>
              {options.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </>
        ) : (
          (options.find((p) => p.id === current)?.name ?? 'not billed through alertbridge')
        )}
        {map.error && <ErrorNotice error={map.error} />}
      </td>
      <td data-label="Save">
        {canEdit && (
          <button
            type="button"
            className="secondary"
            disabled={value === current || map.isPending}
            onClick={() => map.mutate({ serviceId: service.id, psaProductId: value || null })}
            aria-label={`Save billing product for ${service.name}`}
          >
            Save
          </button>
        )}
      </td>
    </tr>
  )
}

function CompanyOption({ companyId }: { companyId: string }) {
  const name = useCompanyName(companyId)
  return <option value={companyId}>{name ? `${name} (#${companyId})` : `#${companyId}`}</option>
}

/** One account's own billing line for a service: it takes precedence over the service's product. */
function AccountLine({
  integrationId,
  service,
  account,
  lines,
  current,
}: {
  integrationId: string
  service: Service
  account: Account
  lines: BillingLine[]
  current: string | null
}) {
  const canEdit = useCanEdit()
  const map = useMapServiceLine(integrationId)
  const [value, setValue] = useState(current ?? '')
  const id = `line-${service.id}-${account.vendorAccountId}`
  return (
    <tr>
      <td data-label="Service">{service.name}</td>
      <td data-label="Account">{account.name}</td>
      <td data-label="Line">
        {canEdit ? (
          <>
            <label htmlFor={id} className="visually-hidden">
              Billing line of {service.name} for {account.name}
            </label>
            <select id={id} value={value} onChange={(e) => setValue(e.target.value)}>
              <option value="">the service's product</option>
              {lines.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name} ({l.agreementName})
                </option>
              ))}
            </select>
          </>
        ) : (
          (() => {
            const line = lines.find((l) => l.id === current)
            return line ? `${line.name} (${line.agreementName})` : (current ?? "the service's product")
          })()
        )}
        {map.error && <ErrorNotice error={map.error} />}
      </td>
      <td data-label="Save">
        {canEdit && (
          <button
            type="button"
            className="secondary"
            disabled={!value || value === (current ?? '') || map.isPending}
            aria-label={`Save the billing line of ${service.name} for ${account.name}`}
            onClick={() =>
              map.mutate({ serviceId: service.id, accountId: account.vendorAccountId, psaLineId: value })
            }
          >
            Save
          </button>
        )}
      </td>
    </tr>
  )
}

function AccountLines({
  integrationId,
  service,
  accounts,
  lines,
}: {
  integrationId: string
  service: Service
  accounts: Account[]
  lines: BillingLine[]
}) {
  const current = useServiceLines(integrationId, service.id)
  if (current.isPending) return null
  const of = (accountId: string) =>
    current.data?.data.find((l) => l.accountId === accountId)?.psaLineId ?? null
  return (
    <>
      {accounts.map((a) => (
        <AccountLine
          key={`${a.vendorAccountId}/${of(a.vendorAccountId)}`}
          integrationId={integrationId}
          service={service}
          account={a}
          lines={lines}
          current={of(a.vendorAccountId)}
        />
      ))}
    </>
  )
}

function productsOf(lines: BillingLine[]): { id: string; name: string }[] {
  const seen = new Map<string, string>()
  for (const l of lines) if (l.productId && !seen.has(l.productId)) seen.set(l.productId, l.name)
  return [...seen].map(([id, name]) => ({ id, name }))
}

export function ServicesStep({ integrationId }: { integrationId: string }) {
  const mapped = useAccounts(integrationId, 'mapped', null, 50)
  const companies = [
    ...new Set((mapped.data?.data ?? []).flatMap((a) => (a.mapping ? [a.mapping.psaCompanyId] : []))),
  ]
  const [company, setCompany] = useState<string | null>(null)
  const chosen = company ?? companies[0] ?? null
  const lines = useAgreements(chosen)
  const pager = usePager()
  const services = useServices(integrationId, pager.cursor)
  const products = productsOf(lines.data?.data ?? [])
  const ofCompany = (mapped.data?.data ?? []).filter((a) => a.mapping?.psaCompanyId === chosen)

  return (
    <>
      <p className="muted">
        Optional. Where your PSA bills through its API, the counts the vendor reports (seats, mailboxes,
        terabytes) can set the quantity of a billing line on each customer's agreement. Skip this step if you
        bill otherwise.
      </p>
      <section className="panel" aria-labelledby="lines-h">
        <h2 id="lines-h">Billing lines in your PSA</h2>
        {mapped.isPending ? (
          <Loading what="Loading mapped accounts" />
        ) : companies.length === 0 ? (
          <Notice kind="info">
            Map an account first: billing lines belong to a PSA company's agreements.
          </Notice>
        ) : (
          <>
            <div className="field">
              <label htmlFor="lines-company">Show the agreements of company</label>
              <select id="lines-company" value={chosen ?? ''} onChange={(e) => setCompany(e.target.value)}>
                {companies.map((c) => (
                  <CompanyOption key={c} companyId={c} />
                ))}
              </select>
            </div>
            {lines.error ? (
              <Notice kind="info">
                <p>Billing lines are not available from your PSA connection, so this step can be skipped.</p>
                <p className="small">{lines.error instanceof Error ? lines.error.message : ''}</p>
              </Notice>
            ) : lines.isPending ? (
              <Loading what="Loading billing lines" />
            ) : (lines.data?.data.length ?? 0) === 0 ? (
              <p>This company has no agreement lines.</p>
            ) : (
              <div className="table-wrap">
                <table className="responsive">
                  <caption className="visually-hidden">Agreement lines of the company</caption>
                  <thead>
                    <tr>
                      <th scope="col">Line</th>
                      <th scope="col">Agreement</th>
                      <th scope="col">Product</th>
                      <th scope="col">Quantity</th>
                    </tr>
                  </thead>
                  <tbody>
                    {lines.data?.data.map((l) => (
                      <tr key={l.id}>
                        <td data-label="Line">{l.name}</td>
                        <td data-label="Agreement">{l.agreementName}</td>
                        <td data-label="Product" className="mono">
                          {l.productId ?? '—'}
                        </td>
                        <td data-label="Quantity">{l.quantity ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </section>
      <section className="panel" aria-labelledby="services-h">
        <h2 id="services-h">Vendor services</h2>
        <QueryView query={services} what="Loading services">
          {(page) =>
            page.data.length === 0 ? (
              <p>The vendor has not described any billable services.</p>
            ) : (
              <div className="table-wrap">
                <table className="responsive">
                  <caption className="visually-hidden">Services and their billing product</caption>
                  <thead>
                    <tr>
                      <th scope="col">Service</th>
                      <th scope="col">Billing product</th>
                      <th scope="col">
                        <span className="visually-hidden">Save</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.data.map((s) => (
                      <ServiceRow key={s.id} service={s} products={products} integrationId={integrationId} />
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </QueryView>
        <Pager pager={pager} nextCursor={services.data?.nextCursor} label="Services" />
      </section>
      {chosen && (lines.data?.data.length ?? 0) > 0 && (services.data?.data.length ?? 0) > 0 && (
        <section className="panel" aria-labelledby="account-lines-h">
          <h2 id="account-lines-h">A line of its own for one account</h2>
          <p className="small muted">
            Where a customer's agreement bills a service on a particular line, name it here; it takes
            precedence over the service's product. Shown for the accounts of the company chosen above.
          </p>
          <div className="table-wrap">
            <table className="responsive">
              <caption className="visually-hidden">Billing lines per account</caption>
              <thead>
                <tr>
                  <th scope="col">Service</th>
                  <th scope="col">Account</th>
                  <th scope="col">Line</th>
                  <th scope="col">
                    <span className="visually-hidden">Save</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {services.data?.data.map((svc) => (
                  <AccountLines
                    key={svc.id}
                    integrationId={integrationId}
                    service={svc}
                    accounts={ofCompany}
                    lines={lines.data?.data ?? []}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
    </>
  )
}
