// NinjaOne (Public API v2, ticketing), as docs/psa/ninjaone.md describes it: a user's token from a
// rotating refresh token kept beside the settings for every process (client.ts, core/shared-tokens.ts),
// tickets created with a dedupe token in their tags (tickets.ts; adopt.ts finds them again through a
// board's run), notes as private multipart comments and closes as a PUT with the current version
// (notes.ts), the closed statuses learned from NinjaOne's status list (lists.ts), two-way sync by the
// poll and by the webhook's deletes and reinstates (psa-sync.ts, push.ts). NinjaOne's billing is not
// used: usage is not pushed.
import type { Static } from 'typebox'
import {
  type BillingLine,
  type CloseCall,
  type CloseRequest,
  type CreateCall,
  fail,
  type LookupKind,
  type NewPsaTicket,
  type NoteCall,
  ok,
  type PsaCall,
  type PsaEntity,
  type PsaOperations,
  type PsaResult,
  type TicketCall,
} from '../adapter.js'
import type { PsaKindOptions } from '../core/http.js'
import { remotePsaKind } from '../core/kind.js'
import type { TokenStore } from '../core/token-store.js'
import type { PsaPush, PsaTicketRead, ReopenRequest } from '../psa-sync-port.js'
import type { PsaKindEntry } from '../registry.js'
import { defaultRetryAfterMs, idText, NinjaClient, ninjaErrorText, psaName } from './client.js'
import { checkConnection } from './connection-check.js'
import { enumList, NinjaLists, priorities, ticketTypes } from './lists.js'
import { moveTicket } from './move.js'
import { appendNote, closeTicket } from './notes.js'
import { NinjaPsaSync } from './psa-sync.js'
import { ninjaPush } from './push.js'
import { NinjaOneSettings, ninjaOneSecrets } from './settings.js'
import { createTicket } from './tickets.js'

type Settings = Static<typeof NinjaOneSettings>

/** The NinjaOne kind, its rotating tokens kept in `tokens` (the database, for every process). */
export function ninjaOnePsa(options: PsaKindOptions, o: { tokens: TokenStore }): PsaKindEntry {
  return remotePsaKind(options, {
    kind: 'ninjaone',
    settings: NinjaOneSettings,
    secretFields: ninjaOneSecrets,
    dialect: { name: psaName, errorText: ninjaErrorText, defaultRetryAfterMs },
    // NinjaOne publishes no rate; calls in flight are kept to a few, and its 429s and rate-limit
    // pages pause the connection.
    limits: (s) => ({ perEndpoint: s.maxConcurrent ?? 4 }),
    connect: ({ http, limiter }, conn) =>
      new NinjaConnection(
        new NinjaClient(http, conn.settings, o.tokens, conn.partnerId, (ms) => limiter.pause(ms)),
        conn.settings,
      ),
  })
}

class NinjaConnection implements PsaOperations {
  private readonly lists: NinjaLists
  private readonly psaSync: NinjaPsaSync
  readonly push: PsaPush

  constructor(
    private readonly client: NinjaClient,
    private readonly s: Settings,
  ) {
    this.lists = new NinjaLists(client)
    this.psaSync = new NinjaPsaSync(client, this.lists, s)
    this.push = ninjaPush(client)
  }

  test(call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return checkConnection(this.client, this.lists, call)
  }

  createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    return createTicket(this.client, this.lists, this.s, t, call)
  }

  appendNote(ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    return appendNote(this.client, ticketId, note, call)
  }

  closeTicket(
    ticketId: string,
    close: CloseRequest,
    call: CloseCall,
  ): Promise<PsaResult<{ alreadyClosed: boolean }>> {
    return closeTicket(this.client, this.lists, ticketId, close, call)
  }

  moveTicket(
    ticketId: string,
    to: { companyId: string; board: string | null },
    call: TicketCall,
  ): Promise<PsaResult<null>> {
    return moveTicket(this.client, this.lists, ticketId, to, call)
  }

  readTickets(ticketIds: readonly string[], call: PsaCall): Promise<PsaResult<PsaTicketRead[]>> {
    return this.psaSync.readTickets(ticketIds, call)
  }

  changedSince(since: string, call: PsaCall): Promise<PsaResult<{ ticketIds: string[] }>> {
    return this.psaSync.changedSince(since, call)
  }

  reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    return this.psaSync.reopenTicket(ticketId, reopen, call)
  }

  async lookup(what: LookupKind, _scope: unknown, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    const { client, lists } = this
    switch (what) {
      case 'companies': {
        const all = await client.allAfter('/organizations', call)
        if (!all.ok) return all
        return ok(
          all.value.flatMap((o) => {
            const id = idText(o.id)
            return id === null
              ? []
              : [{ id, name: typeof o.name === 'string' ? o.name : `Organization ${id}` }]
          }),
        )
      }
      // A ticket's "board" is its ticket form: it decides the ticket's fields.
      case 'boards': {
        const forms = await lists.formList(call, true)
        return forms.ok
          ? ok(forms.value.map((f) => ({ id: f.id, name: f.isDefault ? `${f.name} (default)` : f.name })))
          : forms
      }
      case 'priorities':
        return ok(enumList(priorities))
      case 'types':
        return ok(enumList(ticketTypes))
      case 'statuses': {
        const statuses = await lists.statusList(call, true)
        return statuses.ok
          ? ok(statuses.value.map(({ id, name, closed }) => ({ id, name, closed })))
          : statuses
      }
      // NinjaOne's boards: the one searchBoard picks to find a ticket a lost answer made.
      case 'categories': {
        const boards = await lists.boardList(call, true)
        return boards.ok ? ok(boards.value.map(({ id, name }) => ({ id, name }))) : boards
      }
      case 'sources':
      case 'noteTypes':
        return ok([])
    }
  }

  ticketUrl(ticketId: string): string | null {
    return /^\d+$/.test(ticketId) ? `${this.client.root}/#/ticketing/ticket/${ticketId}` : null
  }

  async billingLines(): Promise<PsaResult<BillingLine[]>> {
    return fail(noBilling)
  }

  async setQuantity(): Promise<PsaResult<{ previous: number | null }>> {
    return fail(noBilling)
  }
}

const noBilling = {
  kind: 'rejected' as const,
  retryable: false,
  message: 'usage is not pushed to NinjaOne: its billing is not used by alertbridge (no billing lines)',
}
