// What the simulated BMS does when a ticket changes, whoever changes it (the API user or a technician
// in BMS's app): the ticket records who changed it last (ModifiedBy, ModifiedOn), and every enabled
// webhook subscribed to the event ("Ticket Created", "Ticket Updated", "Ticket Deleted", or all
// events) is sent a push. BMS documents (its help page "BMS-webhooks integration") that a webhook with
// a Secret carries a header named `Signature`, but not how its value is made; it publishes no payload
// either (docs/psa/kaseya-bms.md, "Two-way sync"). So this simulator sends JSON naming the event and the
// ticket with a `Signature` header of its own making (signatureOf), and never the secret itself:
// alertbridge verifies no BMS push and takes none.
import { createHmac, randomUUID } from 'node:crypto'
import { PushSender } from '../push.js'
import type { BmsTicket, BmsUser, KaseyaBmsState } from './types.js'

export type TicketEvent = 'Ticket Created' | 'Ticket Updated' | 'Ticket Deleted'

export interface TicketEventsOptions {
  /** The waits before each retry of a failed delivery (BMS publishes none; default two quick ones). */
  retryDelaysMs?: number[]
}

/** The header BMS documents for a webhook with a Secret. */
export const signatureHeader = 'Signature'

/**
 * The simulator's own invention, since BMS publishes no scheme: HMAC-SHA256 of the body with the
 * webhook's Secret, base64. Opaque to alertbridge, which cannot know BMS's real one and so checks none.
 */
export function signatureOf(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64')
}

/** The events GET /v2/admin/webhooks/events/lookup lists (BMS's ids are not published). */
export function seedWebhookEvents(): KaseyaBmsState['webhookEvents'] {
  const e = (id: number, name: string, categoryId: number, categoryName: string) => ({
    id,
    name,
    categoryId,
    categoryName,
  })
  return [
    e(11, 'Account Created', 1, 'CRM'),
    e(12, 'Account Updated', 1, 'CRM'),
    e(21, 'Ticket Created', 2, 'Service Desk'),
    e(22, 'Ticket Updated', 2, 'Service Desk'),
    e(23, 'Ticket Deleted', 2, 'Service Desk'),
    e(31, 'Contract Updated', 3, 'Finance'),
  ]
}

export class TicketEvents {
  readonly pushes: PushSender

  constructor(
    private readonly state: KaseyaBmsState,
    o: TicketEventsOptions = {},
  ) {
    this.pushes = new PushSender({
      retryDelaysMs: o.retryDelaysMs ?? [20, 50],
      deactivateAfter: null,
      headers: (body, sub): Record<string, string> =>
        sub.secret ? { [signatureHeader]: signatureOf(body, sub.secret) } : {},
    })
  }

  /** The ticket was changed by `by` (the API user unless a technician): recorded, then pushed. */
  changed(t: BmsTicket, event: TicketEvent, by: BmsUser = this.state.users.api): void {
    t.modifiedBy = by.id
    t.modifiedOn = new Date().toISOString()
    this.emit(t, event, by)
  }

  emit(t: BmsTicket, event: TicketEvent, by: BmsUser): void {
    const eventId = this.state.webhookEvents.find((e) => e.name === event)?.id
    if (eventId === undefined) return
    for (const hook of this.state.webhooks) {
      if (!hook.active || !(hook.sendAllEvents || hook.events.includes(eventId))) continue
      this.pushes.push([hook], {
        DeliveryId: randomUUID(),
        WebhookId: Number(hook.id),
        EventId: eventId,
        EventName: event,
        Timestamp: new Date().toISOString(),
        TriggeredBy: by.id,
        Data: { Id: t.id, TicketNumber: t.ticketNumber, StatusId: t.statusId, AccountId: t.accountId },
      })
    }
  }
}
