import type { Kysely, Selectable } from 'kysely'
import type { IncidentStatus } from '../../platform/core/types.js'
import { prepared } from '../../platform/db/prepared.js'
import { parseJson, toBool, toInt } from '../../platform/db/rows.js'
import type { Database } from '../../platform/db/schema.js'
import { defineRepository } from '../../platform/db/store.js'
import type { RulesTable } from '../tables.js'
import type { RuleCondition } from './conditions.js'
import type { Rule } from './rules.js'
import { byPrecedence } from './rules.js'

function toRule(r: Selectable<RulesTable>): Rule {
  return {
    id: r.id,
    precedence: r.precedence,
    enabled: toBool(r.enabled),
    productGroup: r.product_group,
    alertTypes: parseJson<string[]>(r.alert_types),
    action: r.action as Rule['action'],
    suppressStatuses: parseJson<IncidentStatus[]>(r.suppress_statuses),
    ticket: {
      board: r.ticket_board,
      priority: r.ticket_priority,
      type: r.ticket_type,
      status: r.ticket_status,
      closedStatus: r.ticket_closed_status,
    },
    conditions: parseJson<RuleCondition[]>(r.conditions),
    templates: { title: r.title_template, description: r.description_template },
    createdAt: r.created_at,
  }
}

function toColumns(rule: Omit<Rule, 'id' | 'createdAt'>) {
  return {
    precedence: rule.precedence,
    enabled: toInt(rule.enabled),
    product_group: rule.productGroup,
    alert_types: JSON.stringify(rule.alertTypes),
    action: rule.action,
    suppress_statuses: JSON.stringify(rule.suppressStatuses),
    ticket_board: rule.ticket.board,
    ticket_priority: rule.ticket.priority,
    ticket_type: rule.ticket.type,
    ticket_status: rule.ticket.status,
    ticket_closed_status: rule.ticket.closedStatus,
    conditions: JSON.stringify(rule.conditions),
    title_template: rule.templates.title,
    description_template: rule.templates.description,
  }
}

/** Read for every alert: prepared (platform/db/prepared.ts). */
const rulesOf = prepared(1, (db: Kysely<Database>, integrationId: string) =>
  db.selectFrom('rules').selectAll().where('integration_id', '=', integrationId),
)

export class RuleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Every rule of the integration, in precedence order. */
  async list(integrationId: string): Promise<Rule[]> {
    const rows = await rulesOf(this.db, integrationId)
    return rows.map(toRule).sort(byPrecedence)
  }

  async find(integrationId: string, id: string): Promise<Rule | null> {
    const row = await this.db
      .selectFrom('rules')
      .selectAll()
      .where('integration_id', '=', integrationId)
      .where('id', '=', id)
      .executeTakeFirst()
    return row ? toRule(row) : null
  }

  async count(integrationId: string): Promise<number> {
    const r = await this.db
      .selectFrom('rules')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('integration_id', '=', integrationId)
      .executeTakeFirstOrThrow()
    return Number(r.n)
  }

  async maxPrecedence(integrationId: string): Promise<number | null> {
    const r = await this.db
      .selectFrom('rules')
      .select((eb) => eb.fn.max('precedence').as('p'))
      .where('integration_id', '=', integrationId)
      .executeTakeFirst()
    return r?.p === null || r?.p === undefined ? null : Number(r.p)
  }

  async insert(integrationId: string, rule: Rule, now: string): Promise<void> {
    await this.db
      .insertInto('rules')
      .values({
        id: rule.id,
        integration_id: integrationId,
        ...toColumns(rule),
        created_at: rule.createdAt,
        updated_at: now,
      })
      .execute()
  }

  async replace(integrationId: string, rule: Rule, now: string): Promise<void> {
    await this.db
      .updateTable('rules')
      .set({ ...toColumns(rule), updated_at: now })
      .where('integration_id', '=', integrationId)
      .where('id', '=', rule.id)
      .execute()
  }

  async delete(integrationId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('rules')
      .where('integration_id', '=', integrationId)
      .where('id', '=', id)
      .executeTakeFirst()
    return Number(r.numDeletedRows) > 0
  }
}

declare module '../../platform/db/store.js' {
  interface Repositories {
    rules: RuleRepository
  }
}
defineRepository('rules', (kysely) => new RuleRepository(kysely))
