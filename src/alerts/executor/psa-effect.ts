// What a successful PSA call did, written down before its outcome is recorded
// (docs/decision-table.md#psa-effect-first): the ticket it made, added a note to or closed. An effect whose
// outcome never got recorded is adopted by the next attempt of the same call instead of being done again.
// Pure.

import type { Outcome } from '../../platform/core/outcome.js'
import type { IncidentStatus } from '../../platform/core/types.js'
import type { Strategy } from '../../webhooks/index.js'
import { alreadyClosed, closed, created, leftOpen, reopened, updated } from '../domain/outcome.js'

/** The decision-table row an effect answers: created, updated (an UPDATE or a de-duplicated OPEN),
 * closed, or found closed in the PSA. */
export type EffectRow =
  | 'create'
  | 'repeat'
  | 'update'
  | 'close'
  | 'already-closed'
  | 'reopen-closed'
  | 'close-left-open'

export interface PsaEffect {
  /** The alert whose attempt made the call. */
  messageId: string
  integrationId: string
  ticketId: string
  correlationId: string
  psaTicketId: string
  row: EffectRow
  strategy: Strategy
  /** SHA-256 of the request as received, credentials removed: the same call sent again has it too. */
  requestDigest: string
  /** When the attempt that made it gave up recording its outcome; null while it may still do so. */
  orphanedAt: string | null
  createdAt: string
}

/** The outcome an effect stands for, as its own attempt would have recorded it. */
export function outcomeOfEffect(e: Pick<PsaEffect, 'row' | 'correlationId'>): Outcome {
  switch (e.row) {
    case 'create':
      return created(e.correlationId)
    case 'repeat':
    case 'update':
      return updated(e.row, e.correlationId)
    case 'close':
      return closed(e.correlationId)
    case 'already-closed':
      return alreadyClosed(e.correlationId, 'psa')
    case 'reopen-closed':
      return reopened(e.correlationId)
    case 'close-left-open':
      return leftOpen(e.correlationId)
  }
}

/**
 * Which earlier effects a new alert is another attempt of. The same request (by digest) always is.
 * So is an OPEN that names the correlationId of a ticket whose creation was not recorded (the vendor
 * retrying with its own id, or with the one our failure answer gave it), and a RESOLVED of a ticket
 * whose close was not recorded. An UPDATE naming the ticket with other text is a new note, not a retry.
 */
export function retryOf(incidentStatus: IncidentStatus): {
  bySameRequest: readonly EffectRow[]
  byCorrelationId: readonly EffectRow[]
} {
  switch (incidentStatus) {
    case 'OPEN':
      return { bySameRequest: ['create', 'repeat', 'reopen-closed'], byCorrelationId: ['create'] }
    case 'UPDATE':
      return { bySameRequest: ['update', 'create', 'reopen-closed'], byCorrelationId: [] }
    case 'RESOLVED':
      return {
        bySameRequest: ['close', 'already-closed', 'close-left-open'],
        byCorrelationId: ['close', 'already-closed'],
      }
  }
}
