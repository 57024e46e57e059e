// The psa module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.

export type {
  BillingLine,
  LookupKind,
  NewPsaTicket,
  PsaCall,
  PsaEntity,
  PsaFailure,
  PsaOperations,
  PsaResult,
  TicketCall,
} from './adapter.js'
export { givenUp, lookupKinds } from './adapter.js'
export { afterFailure, operationBudgetMs } from './calls.js'
export { fingerprint } from './core/connections.js'
export { psaKinds } from './kinds.js'
export type { PsaModule } from './module.js'
export { psaModule } from './module.js'
export { callbackPath, consentUrl, exchangeCode } from './ninjaone/consent.js'
export type { ConnectionTest, LookupQuery } from './partner-connections.js'
export { PsaConnections } from './partner-connections.js'
export type { PsaTicketRead } from './psa-sync-port.js'
export { maxPushTicketIds } from './psa-sync-port.js'
export { PsaRegistry } from './registry.js'
export type { SandboxFault } from './sandbox/store.js'
export { SandboxStore, sandboxFaultModes, sandboxOperations } from './sandbox/store.js'
export { PsaInput, PsaView } from './schemas.js'
export { keepSavedSecrets } from './secrets.js'
export type { TicketDefaultsValue } from './settings.js'
export type { PsaKind, StoredPsa } from './stored.js'
export { psaNames } from './stored.js'
