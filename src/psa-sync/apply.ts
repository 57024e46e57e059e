// What a PSA-side change does here (docs/psa/sync.md, "What a change does"): the ticket's status,
// PSA status name, merge or deletion written, one event in the audit trail (strategy `psa`) and a
// status_update to the vendor, all in one transaction. A partner's test ticket (docs/partner-api.md#test-alerts)
// gets its event, marked test, and the vendor hears nothing of it. Reads that match what alertbridge already
// knows change nothing, so a repeated push, a replayed one or alertbridge's own write is a no-op.
import type { FastifyBaseLogger } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import { type Clock, iso } from '../platform/clock.js'
import { psaChangeEvent } from '../platform/core/outcome.js'
import type { Store } from '../platform/db/store.js'
import type { PsaTicketRead } from '../psa/index.js'
import { type PsaKind, psaNames } from '../psa/index.js'
import type { DeliveryJobs, WebhookOutbox } from '../webhooks/index.js'
import { psaChange, psaChangeDetail } from './psa-sync.js'

export interface PsaSyncApplyDeps {
  store: Store
  clock: Clock
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>
  outbox: Pick<WebhookOutbox, 'psaChange'>
  deliveries: Pick<DeliveryJobs, 'handOver'>
}

export class PsaSyncApplier {
  constructor(private readonly d: PsaSyncApplyDeps) {}

  /**
   * Applies the PSA's reads of a partner's tickets; answers how many tickets changed. `readStartedAt`:
   * when the read was sent. A ticket changed here since then (an alert closed it while the PSA answered)
   * is left to the next read, which sees that change: the read may show the PSA before it.
   */
  async apply(
    partnerId: string,
    kind: PsaKind,
    reads: readonly PsaTicketRead[],
    via: 'push' | 'poll',
    readStartedAt: string,
  ): Promise<number> {
    const { store, clock } = this.d
    const byId = new Map(reads.map((r) => [r.ticketId, r]))
    const now = iso(clock)
    const changed = await store.transaction(async (tx) => {
      const ours = await tx.psaSync.byPsaTicketIds(partnerId, [...byId.keys()])
      await tx.psaSync.markChecked(
        ours.map((t) => t.id),
        now,
      )
      // A push was heard when it arrived (service.ts); a poll is heard when the PSA answers its read.
      if (via === 'poll') await tx.psaSync.heard(partnerId, 'poll', now)
      let count = 0
      const vendors = new Map<string, string | null>()
      for (const t of ours) {
        const read = t.psaTicketId === null ? undefined : byId.get(t.psaTicketId)
        if (!read || t.updatedAt > readStartedAt) continue
        const change = psaChange(t, read, clock())
        if (!change) continue
        if (!(await tx.psaSync.applyChange(t.id, t.status, change, now))) continue
        count++
        if (!vendors.has(t.integrationId))
          vendors.set(t.integrationId, (await tx.integrations.findById(t.integrationId))?.vendorId ?? null)
        const vendorId = vendors.get(t.integrationId)
        if (!vendorId) continue
        const messageId = uuidv7()
        const event = psaChangeEvent[change.kind]
        const detail = psaChangeDetail(change, psaNames[kind], read.changedBy)
        await tx.events.insert({
          messageId,
          partnerId,
          vendorId,
          integrationId: t.integrationId,
          correlationId: t.correlationId,
          event,
          status: 'success',
          httpStatus: 200,
          incidentStatus: null,
          strategy: 'psa',
          request: { psa: kind, via, read },
          detail,
          error: null,
          test: t.partnerTest,
          createdAt: now,
        })
        if (t.partnerTest) continue
        const integration = { id: t.integrationId, partnerId }
        await this.d.outbox.psaChange(tx, {
          vendorId,
          integration,
          messageId,
          correlationId: t.correlationId,
          event,
          message: detail,
        })
      }
      return count
    })
    if (changed > 0) {
      this.d.deliveries.handOver()
      this.d.log.info({ partnerId, changed, via }, 'two-way sync: tickets changed in the PSA')
    }
    return changed
  }
}
