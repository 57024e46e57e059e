// The ordered rule list: the first enabled rule that fits an alert decides. Moving a rule up or
// down changes its precedence; the rule tester beside it shows which rule an alert meets now.
import { useState } from 'react'
import type { Rule } from '../api/types'
import { type TicketSettingKey, useRuleSettingNames } from '../hooks/psa-names'
import { useCreateRule, useDeleteRule, useMoveRule, useRules, useUpdateRule } from '../hooks/rules'
import { useCanEdit } from '../hooks/session'
import { RuleForm } from './RuleForm'
import { RuleTester } from './RuleTester'
import { ErrorNotice, Notice, QueryView } from './State'

function describe(rule: Rule): string {
  const types = rule.alertTypes.length ? rule.alertTypes.join(', ') : 'every alert type'
  return `${rule.productGroup}: ${types}`
}

/** The rule's ticket settings by the PSA's names (the stored value where the PSA does not list it). */
function ticketSummary(rule: Rule, nameOf: SettingNames): string {
  const t = rule.ticket
  const named = (key: TicketSettingKey) => nameOf(rule, key) ?? t[key]
  const parts = [
    t.board && `board ${named('board')}`,
    t.priority && `priority ${named('priority')}`,
    t.type && `type ${named('type')}`,
    t.status && `status ${named('status')}`,
    t.closedStatus && `closes as ${named('closedStatus')}`,
  ].filter(Boolean)
  return parts.length ? parts.join(' · ') : "the PSA connection's defaults"
}

type SettingNames = ReturnType<typeof useRuleSettingNames>

function RuleItem({
  rule,
  rank,
  rules,
  integrationId,
  matched,
  nameOf,
}: {
  rule: Rule
  rank: number
  rules: Rule[]
  integrationId: string
  matched: boolean
  nameOf: SettingNames
}) {
  const canEdit = useCanEdit()
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const update = useUpdateRule(integrationId)
  const remove = useDeleteRule(integrationId)
  const move = useMoveRule(integrationId)
  const label = `rule ${rank} (${describe(rule)})`
  // A user made a viewer meanwhile (a change answered 403, the session read again) edits no more.
  if (editing && canEdit)
    return (
      <li>
        <div className="body">
          <RuleForm
            integrationId={integrationId}
            rule={rule}
            saving={update.isPending}
            error={update.error}
            onCancel={() => setEditing(false)}
            onSave={(body) =>
              update.mutate({ ruleId: rule.id, body }, { onSuccess: () => setEditing(false) })
            }
          />
        </div>
      </li>
    )
  return (
    <li className={`${matched ? 'matched' : ''} ${rule.enabled ? '' : 'disabled'}`} aria-label={label}>
      <span className="rank" aria-hidden="true">
        {rank}
      </span>
      <div className="body">
        <div>
          <strong>{describe(rule)}</strong>{' '}
          <span className={`badge ${rule.action === 'ticket' ? 'on' : 'suppressed'}`}>
            {rule.action === 'ticket' ? 'ticket' : 'suppress'}
          </span>{' '}
          {!rule.enabled && <span className="badge off">disabled</span>}
          {matched && <span className="badge pending">matches the tested alert</span>}
        </div>
        <div className="small muted">
          {rule.action === 'ticket' ? `Tickets with ${ticketSummary(rule, nameOf)}` : 'No ticket is created'}
          {rule.suppressStatuses.length > 0 && ` · suppresses ${rule.suppressStatuses.join(', ')}`}
        </div>
        {(update.error || remove.error || move.error) && (
          <ErrorNotice error={update.error ?? remove.error ?? move.error} />
        )}
        {confirming && (
          <fieldset className="row confirm">
            <legend>Delete this rule?</legend>
            <button
              type="button"
              className="danger"
              onClick={() => remove.mutate(rule.id)}
              disabled={remove.isPending}
            >
              Delete
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </fieldset>
        )}
      </div>
      {canEdit && (
        <div className="row controls">
          <div className="field inline">
            <input
              id={`enabled-${rule.id}`}
              type="checkbox"
              checked={
                update.isPending && update.variables.body.enabled !== undefined
                  ? update.variables.body.enabled
                  : rule.enabled
              }
              disabled={update.isPending}
              onChange={(e) => update.mutate({ ruleId: rule.id, body: { enabled: e.target.checked } })}
            />
            <label htmlFor={`enabled-${rule.id}`}>
              Enabled<span className="visually-hidden"> {label}</span>
            </label>
          </div>
          <div className="order">
            <button
              type="button"
              className="secondary icon-button"
              disabled={rank === 1 || move.isPending}
              aria-label={`Move ${label} up`}
              onClick={() => move.mutate({ rules, ruleId: rule.id, by: -1 })}
            >
              ↑
            </button>
            <button
              type="button"
              className="secondary icon-button"
              disabled={rank === rules.length || move.isPending}
              aria-label={`Move ${label} down`}
              onClick={() => move.mutate({ rules, ruleId: rule.id, by: 1 })}
            >
              ↓
            </button>
          </div>
          <button
            type="button"
            className="secondary"
            onClick={() => setEditing(true)}
            aria-label={`Edit ${label}`}
          >
            Edit
          </button>
          <button
            type="button"
            className="link"
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${label}`}
          >
            Delete
          </button>
        </div>
      )}
    </li>
  )
}

export function RulesEditor({ integrationId }: { integrationId: string }) {
  const canEdit = useCanEdit()
  const rules = useRules(integrationId)
  const create = useCreateRule(integrationId)
  const [adding, setAdding] = useState(false)
  const [matchedId, setMatchedId] = useState<string | null>(null)
  const nameOf = useRuleSettingNames(rules.data?.data ?? [])
  return (
    <div className="side-by-side">
      <section aria-labelledby="rule-list-h">
        <div className="row spread">
          <h2 id="rule-list-h">Rules, first match wins</h2>
          {canEdit && !adding && (
            <button type="button" onClick={() => setAdding(true)}>
              Add rule
            </button>
          )}
        </div>
        {adding && (
          <RuleForm
            integrationId={integrationId}
            saving={create.isPending}
            error={create.error}
            onCancel={() => setAdding(false)}
            onSave={(body) => {
              const last = rules.data?.data.at(-1)
              create.mutate(
                { ...body, precedence: last ? last.precedence + 10 : 10 },
                { onSuccess: () => setAdding(false) },
              )
            }}
          />
        )}
        <QueryView query={rules} what="Loading rules">
          {(page) =>
            page.data.length === 0 ? (
              <Notice kind="info">No rules yet: add one so that alerts become tickets.</Notice>
            ) : (
              <ol className="rules" aria-label="Rules in order">
                {page.data.map((r, i) => (
                  <RuleItem
                    key={r.id}
                    rule={r}
                    rank={i + 1}
                    rules={page.data}
                    integrationId={integrationId}
                    matched={r.id === matchedId}
                    nameOf={nameOf}
                  />
                ))}
              </ol>
            )
          }
        </QueryView>
      </section>
      <RuleTester integrationId={integrationId} onResult={setMatchedId} />
    </div>
  )
}
