// Two-way sync on Pulseway PSA (docs/psa/pulseway-psa.md, "Two-way sync"): the reads and reopen are
// the Kaseya v2 engine's (../kaseya-v2/psa-sync.ts); what is Pulseway's own is that no webhook of
// Pulseway PSA is published (Kaseya BMS's /v2/admin/webhooks is not known to exist there), so there
// is no push: the service's poll reads alertbridge's open tickets back, and a technician's close,
// reopen or note is heard on the next poll. Who worked a ticket is read from its notes (documented for
// Pulseway) and time logs (the engine's route), not from BMS's activities feed.

/** The feeds two-way sync reads for who worked a ticket. */
export const pulsewayFeeds = ['notes', 'timelogs'] as const

/** What the connection test says about two-way sync. */
export const pulsewaySyncWords =
  'Pulseway PSA publishes no webhooks, so alertbridge polls it for technicians’ closes, reopens and notes (changes show up on the next poll, not at once).'
