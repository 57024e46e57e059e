// The de-duplication key of an alert and the window test. Pure.
import { hash } from 'node:crypto'
import { type AlertFacts, type DedupField, dedupFields } from '../../platform/core/types.js'

export const defaultDedupFields: DedupField[] = ['accountId', 'productGroup', 'alertType']

/**
 * A stable digest of the chosen fields; field order in the settings does not matter. A test alert's key
 * is of its own kind, so that a test never folds into a real ticket (nor a real alert into a test's).
 */
export function dedupKey(fields: readonly DedupField[], alert: AlertFacts): string {
  const chosen = dedupFields.filter((f) => fields.includes(f))
  const pairs: unknown[] = chosen.map((f) => [f, alert[f]])
  const material = JSON.stringify(alert.test ? [...pairs, ['test', true]] : pairs)
  return hash('sha256', material, 'hex')
}

export function withinWindow(lastOccurrenceAt: string, windowMinutes: number | null, now: Date): boolean {
  if (windowMinutes === null) return true
  return now.getTime() - Date.parse(lastOccurrenceAt) <= windowMinutes * 60_000
}
