// The rule tester's answer: the plain sentence first (announced: role="status"), then the rule, the
// ticket and the new ticket's settings by name, and the technical detail (the decision table's row, the
// vendor's error code, the service's own explanation) behind a disclosure.
import { Link } from 'react-router'
import type { DryRunResult as Result } from '../hooks/rules'

const outcomeKind = (action: string) =>
  action === 'refuse' ? 'error' : action === 'suppress' ? 'warn' : 'ok'

function ruleName(rule: NonNullable<Result['matchedRule']>): string {
  return `${rule.productGroup}: ${rule.alertTypes.length ? rule.alertTypes.join(', ') : 'every alert type'}`
}

/** The new ticket's settings by the PSA's names (ids where a name is not known). */
function settings(r: Result): string | null {
  const t = r.ticket
  if (!t) return null
  const shown = (name: string | null | undefined, id: string | null) => name ?? id ?? 'PSA default'
  return [
    `board: ${shown(r.boardName, t.board)}`,
    `priority: ${shown(r.priorityName, t.priority)}`,
    `type: ${shown(r.typeName, t.type)}`,
    `status: ${shown(r.statusName, t.status)}`,
  ].join(' · ')
}

export function DryRunResult({
  integrationId,
  result: r,
  run,
}: {
  integrationId: string
  result: Result | undefined
  /** Counts the runs, so a repeated sentence is announced again. */
  run: number
}) {
  const t = r?.existingTicket
  return (
    <div className={r ? `notice ${outcomeKind(r.action)}` : undefined} data-testid="dry-run-result">
      <div role="status" aria-live="polite">
        {r && (
          <p key={run} data-testid="dry-run-summary">
            <strong>{r.summary}</strong>
          </p>
        )}
      </div>
      {r && (
        <>
          <p className="small">
            {r.matchedRule ? `Rule used: ${ruleName(r.matchedRule)}.` : 'No rule applies.'}
            {t && (
              <>
                {' '}
                Ticket:{' '}
                <Link
                  to={`/tickets/${encodeURIComponent(t.correlationId)}?integrationId=${encodeURIComponent(integrationId)}`}
                >
                  {t.psaTicketId ?? t.correlationId}
                </Link>
                {` (${t.status}).`}
              </>
            )}
          </p>
          {r.ticket && <p className="small">New ticket: {settings(r)}.</p>}
          <details>
            <summary>Technical detail</summary>
            <dl className="small">
              <dt>Outcome</dt>
              <dd>
                <code data-testid="dry-run-action">{r.action}</code>
              </dd>
              <dt>Decision table row</dt>
              <dd>
                <code>{r.row ?? 'none (the vendor is disabled)'}</code>
              </dd>
              {r.error && (
                <>
                  <dt>Error code the vendor would get</dt>
                  <dd>
                    <code>{r.error}</code>
                  </dd>
                </>
              )}
              <dt>Explanation</dt>
              <dd>{r.reason}</dd>
              <dt>Asked with</dt>
              <dd>
                <code>POST /api/partner/integrations/{'{id}'}/dry-run</code> (the partner API's rule tester)
              </dd>
              {r.matchedRule && (
                <>
                  <dt>Rule</dt>
                  <dd>
                    <code>{r.matchedRule.id}</code> (precedence {r.matchedRule.precedence})
                  </dd>
                </>
              )}
              {t && (
                <>
                  <dt>Ticket's correlation id</dt>
                  <dd>
                    <code>{t.correlationId}</code>
                  </dd>
                </>
              )}
              {(r.psaCompanyId || r.accountName) && (
                <>
                  <dt>Account and PSA company</dt>
                  <dd>
                    {r.accountName ?? 'unnamed account'}
                    {r.psaCompanyId ? ` → ${r.psaCompanyName ?? 'company'} (id ${r.psaCompanyId})` : ''}
                  </dd>
                </>
              )}
              {r.ticket && (
                <>
                  <dt>New ticket's settings (ids)</dt>
                  <dd>
                    {(['board', 'priority', 'type', 'status'] as const)
                      .map((k) => `${k}: ${r.ticket?.[k] ?? 'PSA default'}`)
                      .join(' · ')}
                  </dd>
                </>
              )}
            </dl>
          </details>
        </>
      )}
    </div>
  )
}
