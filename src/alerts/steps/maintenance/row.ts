// The decision table's `maintenance` row (docs/decision-table.md#maintenance): what an active window
// does to a new OPEN, and what an alert held by one does to its UPDATE and RESOLVED. Pure; the window
// computation is maintenance.ts.

import type { Outcome } from '../../../platform/core/outcome.js'
import type { AlertFacts } from '../../../platform/core/types.js'
import { suppressed } from '../../domain/outcome.js'
import { activeWindowFor, type MaintenanceAction, type MaintenanceFacts } from './maintenance.js'

export interface MaintenanceRow {
  outcome: Outcome
  maintenance?: MaintenanceAction
}

const named = (w: { id: string; name: string }) => `maintenance window '${w.name}' (${w.id})`

function holdRow(w: { id: string; name: string }, releaseAt: string, correlationId: string): MaintenanceRow {
  return {
    outcome: suppressed(
      'maintenance',
      'Held By Maintenance Window',
      `Held by ${named(w)} until ${releaseAt}; then released through the rules as they stand.`,
      correlationId,
    ),
    maintenance: { kind: 'hold', windowId: w.id, windowName: w.name, releaseAt, correlationId },
  }
}

/**
 * docs/decision-table.md#maintenance, for an OPEN that the account and rule checks let through: an
 * active window in scope suppresses it or holds it. A partner's test alert is never held back.
 */
export function maintenanceOnOpen(
  facts: MaintenanceFacts | null | undefined,
  alert: AlertFacts,
  correlationId: string,
  now: Date,
): MaintenanceRow | null {
  if (!facts || alert.partnerTest === true) return null
  const active = activeWindowFor(facts.windows, alert, now)
  if (!active) return null
  const { window, occurrence } = active
  const until = occurrence.end.toISOString()
  if (window.mode === 'hold') return holdRow(window, until, correlationId)
  return {
    outcome: suppressed(
      'maintenance',
      'Suppressed By Maintenance Window',
      `Suppressed by ${named(window)}, active until ${until}.`,
      correlationId,
    ),
  }
}

/**
 * For an UPDATE or RESOLVED whose correlationId has no ticket but a held alert: an UPDATE is held
 * behind it (released in order), a RESOLVED drops what is held (no ticket is made for it).
 */
export function maintenanceOnFollowUp(
  facts: MaintenanceFacts | null | undefined,
  alert: AlertFacts,
  correlationId: string,
): MaintenanceRow | null {
  const held = facts?.held
  if (!held) return null
  const w = { id: held.windowId, name: held.windowName }
  if (alert.incidentStatus === 'UPDATE') return holdRow(w, held.releaseAt, correlationId)
  return {
    outcome: suppressed(
      'maintenance',
      'Held Alert Dropped',
      `The alert of correlationId '${correlationId}' held by ${named(w)} was resolved before its release: it is dropped, no ticket is made.`,
      correlationId,
    ),
    maintenance: { kind: 'drop', correlationId },
  }
}
