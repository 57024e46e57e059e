// The integration lifecycle (docs/contract.md#integration-states): created → mapping → pending → connected.
import type { ErrorCode } from '../../platform/core/errors.js'
import type { IntegrationState } from '../../platform/core/types.js'

export type LifecycleEvent =
  | { kind: 'vendor-started-mapping' }
  | { kind: 'partner-completed-mapping'; mappedAccounts: number }
  | { kind: 'request-succeeded' }

export type TransitionResult =
  | { ok: true; next: IntegrationState; changed: boolean }
  | { ok: false; error: ErrorCode; detail: string }

export function isActive(state: IntegrationState): boolean {
  return state === 'pending' || state === 'connected'
}

export function inactiveDetail(state: IntegrationState): string {
  return state === 'created'
    ? "The integration is in state 'created': the vendor must start mapping (PATCH /api/vendor-api/status/mapping) and the partner must complete it."
    : "The integration is in state 'mapping': the partner must map at least one account and complete the mapping (POST /api/partner/integrations/{id}/complete-mapping)."
}

const stay = (state: IntegrationState): TransitionResult => ({ ok: true, next: state, changed: false })
const move = (next: IntegrationState): TransitionResult => ({ ok: true, next, changed: true })

export function transition(state: IntegrationState, event: LifecycleEvent): TransitionResult {
  switch (event.kind) {
    case 'vendor-started-mapping':
      // Once the partner has completed mapping, a repeated call must not cut alerts off.
      return state === 'created' ? move('mapping') : stay(state)
    case 'partner-completed-mapping':
      if (state === 'created') {
        return {
          ok: false,
          error: 'INVALID_STATE',
          detail:
            "The integration is in state 'created': the vendor has not started mapping yet (PATCH /api/vendor-api/status/mapping).",
        }
      }
      if (state !== 'mapping') return stay(state)
      if (event.mappedAccounts < 1) {
        return {
          ok: false,
          error: 'INVALID_STATE',
          detail: 'Map at least one account to a PSA company before completing the mapping.',
        }
      }
      return move('pending')
    case 'request-succeeded':
      if (!isActive(state))
        return { ok: false, error: 'INTEGRATION_NOT_ACTIVE', detail: inactiveDetail(state) }
      return state === 'pending' ? move('connected') : stay(state)
  }
}
