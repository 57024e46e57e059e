// The catch-all account's settings (docs/decision-table.md#catch-all) as the integration stores them: off by
// default; on needs a PSA company. Plain data; alerts/steps/catch-all/ decides with them.
import type { Selectable } from 'kysely'
import type { CatchAllSettings } from '../../platform/core/types.js'
import { toBool, toInt } from '../../platform/db/rows.js'
import type { IntegrationsTable } from '../tables.js'

export const catchAllOff: CatchAllSettings = { enabled: false, psaCompanyId: null, board: null }

export const catchAllOf = (r: Selectable<IntegrationsTable>): CatchAllSettings => ({
  enabled: toBool(r.catch_all_enabled),
  psaCompanyId: r.catch_all_company_id,
  board: r.catch_all_board,
})

/** The integrations columns a settings patch sets (those it leaves out stay). */
export const catchAllColumns = (p: Partial<CatchAllSettings> | undefined) => ({
  catch_all_enabled: p?.enabled === undefined ? undefined : toInt(p.enabled),
  catch_all_company_id: p?.psaCompanyId,
  catch_all_board: p?.board,
})
