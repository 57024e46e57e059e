// ConnectWise PSA (Manage), as its API pages describe it (docs/psa/connectwise.md): tickets at
// /service/tickets (tickets.ts), notes with a visibility flag (notes.ts), closing with a status of the
// ticket's board that ConnectWise marks closedStatus, the look-ups of the mapping screens (lists.ts),
// billing lines as agreement additions (usage.ts), a catch-all ticket moved to its account's company
// (move.ts), and two-way sync: tickets read back and reopened (psa-sync.ts), ConnectWise callbacks as the
// push (push.ts). Board, status, type and priority settings may name a PSA id or its name; names are
// resolved against the board's own lists. A retry after a lost answer first looks for what the lost
// call made: the ticket by its externalXRef, a note by the Message ID line its text ends with.
import type { Static } from 'typebox'
import type {
  BillingLine,
  CloseCall,
  CloseRequest,
  CreateCall,
  LookupKind,
  LookupScope,
  NewPsaTicket,
  NoteCall,
  PsaCall,
  PsaEntity,
  PsaOperations,
  PsaResult,
  TicketCall,
  UsageCall,
} from '../adapter.js'
import type { PsaKindOptions } from '../core/http.js'
import { remotePsaKind } from '../core/kind.js'
import { connectWiseTicketUrl } from '../core/ticket-urls.js'
import type { PsaTicketRead, ReopenRequest } from '../psa-sync-port.js'
import type { PsaKindEntry } from '../registry.js'
import { ConnectWiseClient, connectWiseErrorText } from './client.js'
import { checkConnection } from './connection-check.js'
import { ConnectWiseLists } from './lists.js'
import { moveTicket } from './move.js'
import { appendNote } from './notes.js'
import { readTickets, reopenTicket } from './psa-sync.js'
import { ConnectWisePush } from './push.js'
import { ConnectWiseSettings, connectWiseSecrets } from './settings.js'
import { closeTicket, createTicket } from './tickets.js'
import { billingLines, setQuantity } from './usage.js'
import { psaName } from './wire.js'

type Settings = Static<typeof ConnectWiseSettings>

/** The ConnectWise kind, talking through the service's outbound client. */
export function connectWisePsa(options: PsaKindOptions): PsaKindEntry {
  return remotePsaKind(options, {
    kind: 'connectwise',
    settings: ConnectWiseSettings,
    secretFields: connectWiseSecrets,
    problems: (s) => (s.baseUrl || s.site ? [] : ['psa needs site (e.g. na.myconnectwise.net) or baseUrl']),
    dialect: { name: psaName, errorText: connectWiseErrorText, defaultRetryAfterMs: 10_000 },
    limits: (s) => ({ perEndpoint: s.maxConcurrent ?? 4 }),
    connect: ({ http }, conn) =>
      new ConnectWiseConnection(new ConnectWiseClient(http, conn.settings), conn.settings),
  })
}

/** One connection: its client, and the lists names are resolved against. */
class ConnectWiseConnection implements PsaOperations {
  private readonly lists: ConnectWiseLists
  readonly push: ConnectWisePush

  constructor(
    private readonly client: ConnectWiseClient,
    private readonly s: Settings,
  ) {
    this.lists = new ConnectWiseLists(client)
    this.push = new ConnectWisePush(client, s)
  }

  test(call: PsaCall): Promise<PsaResult<{ detail: string }>> {
    return checkConnection(this.client, call)
  }

  createTicket(
    t: NewPsaTicket,
    call: CreateCall,
  ): Promise<PsaResult<{ ticketId: string; adopted: boolean }>> {
    return createTicket(this.client, this.lists, t, call)
  }

  appendNote(ticketId: string, note: string, call: NoteCall): Promise<PsaResult<null>> {
    return appendNote(this.client, this.s, ticketId, note, call)
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
    return readTickets(this.client, ticketIds, call)
  }

  reopenTicket(ticketId: string, reopen: ReopenRequest, call: NoteCall): Promise<PsaResult<null>> {
    return reopenTicket(this.client, this.lists, this.s, ticketId, reopen, call)
  }

  lookup(what: LookupKind, scope: LookupScope, call: PsaCall): Promise<PsaResult<PsaEntity[]>> {
    return this.lists.lookup(what, scope.board ?? this.s.defaults?.board, call)
  }

  ticketUrl(ticketId: string): string | null {
    return connectWiseTicketUrl(this.client.root, this.s.codebase ?? this.client.knownCodebase(), ticketId)
  }

  billingLines(companyId: string, call: PsaCall): Promise<PsaResult<BillingLine[]>> {
    return billingLines(this.client, companyId, call)
  }

  setQuantity(
    lineId: string,
    quantity: number,
    call: UsageCall,
  ): Promise<PsaResult<{ previous: number | null }>> {
    return setQuantity(this.client, lineId, quantity, call)
  }
}
