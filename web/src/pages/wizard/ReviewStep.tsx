// Step 5: what is set up, what is missing, and completing the mapping (mapping → pending), after
// which the vendor may send alerts.
import { Link } from 'react-router'
import type { Integration } from '../../api/types'
import { OnOff, StateBadge } from '../../components/Badge'
import { ErrorNotice, Loading, Notice } from '../../components/State'
import { useAccounts } from '../../hooks/accounts'
import { useCompleteMapping } from '../../hooks/integrations'
import { usePsa } from '../../hooks/psa'
import { useRules } from '../../hooks/rules'
import { useCanEdit } from '../../hooks/session'

const count = (page: { data: unknown[]; nextCursor: string | null } | undefined) =>
  page ? `${page.data.length}${page.nextCursor ? '+' : ''}` : '…'

export function ReviewStep({ integration }: { integration: Integration }) {
  const id = integration.integrationId
  const canEdit = useCanEdit()
  const psa = usePsa()
  const mapped = useAccounts(id, 'mapped', null, 500)
  const unmapped = useAccounts(id, 'unmapped', null, 500)
  const rules = useRules(id)
  const complete = useCompleteMapping(id)
  const base = `/integrations/${encodeURIComponent(id)}`
  const enabledRules = rules.data?.data.filter((r) => r.enabled).length ?? 0
  const mappedCount = mapped.data?.data.length ?? 0

  const problems: string[] = []
  if (mapped.data && mappedCount === 0) problems.push('No account is mapped to a PSA company yet.')
  if (rules.data && enabledRules === 0) problems.push('No rule is enabled: new alerts would fail.')

  return (
    <section aria-labelledby="review-h">
      <h2 id="review-h">Review</h2>
      <div className="panel">
        <dl className="facts">
          <dt>State</dt>
          <dd>
            <StateBadge state={integration.state} />
          </dd>
          <dt>PSA</dt>
          <dd>{psa.data ? psa.data.kind : '…'}</dd>
          <dt>Mapped accounts</dt>
          <dd>
            {count(mapped.data)} <Link to={`${base}/setup/accounts`}>change</Link>
          </dd>
          <dt>Accounts not mapped</dt>
          <dd>{count(unmapped.data)}</dd>
          <dt>Rules</dt>
          <dd>
            {rules.data ? `${rules.data.data.length} (${enabledRules} enabled)` : '…'}{' '}
            <Link to={`${base}/setup/rules`}>change</Link>
          </dd>
          <dt>Switches</dt>
          <dd className="counts">
            <OnOff on={integration.alertsEnabled} label="alerting" />
            <OnOff on={integration.ticketCreation} label="ticket creation" />
            <OnOff on={integration.selfHealing} label="self-healing" />
            <OnOff on={integration.deduplication.enabled} label="de-duplication" />
            <Link to={`${base}/settings`}>change</Link>
          </dd>
        </dl>
      </div>
      {(mapped.isPending || rules.isPending) && <Loading what="Checking the setup" />}
      {problems.length > 0 && (
        <Notice kind="warn">
          {problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </Notice>
      )}
      {integration.state === 'created' && (
        <Notice kind="info">
          The vendor has not started the mapping yet. You can prepare everything; completing it is possible
          once the vendor has.
        </Notice>
      )}
      {integration.state === 'mapping' && canEdit && (
        <div className="panel">
          <p>
            Completing the mapping tells the vendor it may send alerts. You can still change everything after.
          </p>
          <button
            type="button"
            disabled={complete.isPending || mappedCount === 0}
            onClick={() => complete.mutate()}
          >
            {complete.isPending ? 'Completing…' : 'Complete mapping'}
          </button>
          {complete.error && <ErrorNotice error={complete.error} />}
        </div>
      )}
      {(integration.state === 'pending' || integration.state === 'connected') && (
        <Notice kind="ok">
          <p>
            The mapping is complete
            {integration.state === 'connected' ? ' and alerts are arriving' : '; waiting for the first alert'}
            . Watch them under <Link to={`/tickets?integrationId=${encodeURIComponent(id)}`}>Tickets</Link>.
          </p>
        </Notice>
      )}
    </section>
  )
}
