// Simulated BMS service-desk tickets: create with every field the spec's TicketInputDto requires
// (Title, Details, AccountId, LocationId of that account, StatusId, PriorityId, TypeId, SourceId,
// OpenDate) and texts no longer than `limits` (BMS publishes no lengths: an assumption), the list with
// some of its documented filters (Title and Details contain, or start with: `textFilter`; AccountIds,
// OpenDateFrom/To, CompletedDateFrom, ExcludeCompleted), its Sort (ticket-sort.ts) and record count —
// any other query parameter is not applied, documented or not — the search route taking the same
// filter and Sort in a body, one ticket, its notes
// (listed a page at a time without a record count; posting needs TypeId, IsInternal, NoteDate;
// StatusId moves the ticket) and resolve (Comment required, kept as a note of the ticket; the status,
// when given, must be one that completes a ticket). Refusals are envelopes at HTTP 200.
import type { FastifyInstance, FastifyReply } from 'fastify'
import { contains, input, intOf, okBody, page, query, refuse } from './envelope.js'
import type { TicketEvents } from './events.js'
import { sortTickets } from './ticket-sort.js'
import type { BmsNote, BmsTicket, KaseyaBmsState, LookupRole } from './types.js'

export function ticketRoutes(app: FastifyInstance, state: KaseyaBmsState, events: TicketEvents): void {
  const table = (role: LookupRole) => state.lists[role]
  const matches = (text: string, part: string | undefined) =>
    state.textFilter === 'contains'
      ? contains(text, part)
      : part === undefined || part === '' || text.toLowerCase().startsWith(part.toLowerCase())
  /** ASP.NET's validation answer for a text over its length. */
  const tooLong = (reply: FastifyReply, field: string, text: unknown, max: number) =>
    typeof text === 'string' && text.length > max
      ? refuse(reply, 400, 'One or more validation errors occurred.', [
          `The field ${field} must be a string with a maximum length of ${max}.`,
        ])
      : null
  const completes = (statusId: number) => {
    const s = state.statuses.find((x) => x.id === statusId)
    return s !== undefined && state.completedTypeIds.includes(s.typeId)
  }
  const out = (t: BmsTicket) => {
    const account = state.accounts.find((a) => a.id === t.accountId)
    const status = state.statuses.find((s) => s.id === t.statusId)
    const { notes: _notes, timelogs, related: _related, customFields, ...fields } = t
    return {
      ...fields,
      ...(state.flavour.customFieldsAsString ? { customFields: JSON.stringify(customFields ?? {}) } : {}),
      createdBy: t.createdBy ?? state.users.api.id,
      modifiedBy: t.modifiedBy ?? t.createdBy ?? state.users.api.id,
      totalTimeSpent: (timelogs ?? []).reduce((sum, l) => sum + l.timespent, 0),
      accountName: account?.name ?? null,
      statusName: status?.name ?? null,
      statusOrder: status?.statusOrder ?? 0,
      priorityName: state.priorities.find((p) => p.id === t.priorityId)?.name ?? null,
      queueName: state.queues.find((q) => q.id === t.queueId)?.name ?? null,
    }
  }
  const setStatus = (t: BmsTicket, statusId: number) => {
    t.statusId = statusId
    t.completedDate = completes(statusId) ? (t.completedDate ?? new Date().toISOString()) : null
  }
  const opening = () =>
    [...state.statuses]
      .filter((s) => s.isActive && !completes(s.id))
      .sort((a, b) => a.statusOrder - b.statusOrder)[0]
  const defaultRow = (role: LookupRole) => {
    const active = table(role).filter((r) => r.isActive)
    return (active.find((r) => r.isDefault) ?? active[0])?.id
  }
  const find = (id: string, reply: FastifyReply) => {
    const t = state.tickets.find((x) => String(x.id) === id)
    if (!t) refuse(reply, 404, `Ticket ${id} was not found.`)
    return t
  }
  /** A note as the notes route answers it: its type's name, and (Pulseway) its writer by name and e-mail. */
  const noteOut = (n: BmsNote) => {
    const typeName = table('noteTypes').find((r) => r.id === n.typeId)?.name ?? null
    if (!state.flavour.notesByName) return { ...n, typeName }
    const { createdBy, createdByName, ...rest } = n
    const by =
      state.users.api.id === (createdBy ?? state.users.api.id) ? state.users.api : state.users.technician
    return {
      ...rest,
      typeName,
      createdByName: createdByName ?? by.name,
      createdByEmail: `${by.name.toLowerCase().replaceAll(' ', '.')}@acme-msp.example`,
    }
  }
  const list = (
    filter: (name: string) => string | undefined,
    sort: string | undefined,
    size: unknown,
    number: unknown,
    reply: FastifyReply,
  ) => {
    const from = filter('CompletedDateFrom')
    const time = (name: string) => {
      const v = filter(name)
      return v === undefined || v === '' ? null : Date.parse(v)
    }
    const [openFrom, openTo] = [time('OpenDateFrom'), time('OpenDateTo')]
    if (Number.isNaN(openFrom) || Number.isNaN(openTo))
      return refuse(reply, 400, 'The value given for OpenDateFrom or OpenDateTo is not a valid date.')
    const accountIds = filter('AccountIds')
      ?.split(',')
      .map((s) => s.trim())
    const matching = state.tickets.filter(
      (t) =>
        matches(t.title, filter('Title')) &&
        matches(t.details, filter('Details')) &&
        (from === undefined || (t.completedDate !== null && t.completedDate >= from)) &&
        (filter('ExcludeCompleted') !== '1' || t.completedDate === null) &&
        (!accountIds || accountIds.includes(String(t.accountId))) &&
        (openFrom === null || Date.parse(t.openDate) >= openFrom) &&
        (openTo === null || Date.parse(t.openDate) <= openTo),
    )
    const sorted = sortTickets(matching, sort, state.sort)
    if (!sorted.ok) return refuse(reply, 400, sorted.message)
    const p = page(sorted.rows, size, number, state.paging)
    if (!p.ok) return refuse(reply, 400, p.message)
    return okBody(p.rows.map(out), p.total)
  }

  app.post('/v2/servicedesk/tickets', async (request, reply) => {
    const body = request.body
    const missing = state.flavour.requiredCreate.filter((f) => {
      const v = input(body, f)
      return v === undefined || v === null || v === ''
    })
    if (missing.length > 0)
      return refuse(
        reply,
        400,
        'One or more validation errors occurred.',
        missing.map((f) => `The ${f} field is required.`),
      )
    const given = (f: string) => intOf(input(body, f))
    const account = state.accounts.find((a) => a.id === given('AccountId'))
    if (!account) return refuse(reply, 400, `Account ${input(body, 'AccountId')} does not exist.`)
    // A field the flavour does not require, left out: the tenant's default.
    const fallback: Record<string, number | undefined> = {
      LocationId: (account.locations.find((l) => l.isMain) ?? account.locations[0])?.id,
      StatusId: opening()?.id,
      TypeId: defaultRow('ticketTypes'),
      SourceId: defaultRow('sources'),
    }
    const int = (f: string) => given(f) ?? (input(body, f) == null ? (fallback[f] ?? null) : null)
    const title = String(input(body, 'Title'))
    const long =
      tooLong(reply, 'Title', input(body, 'Title'), state.limits.title) ??
      tooLong(reply, 'Details', input(body, 'Details'), state.limits.text)
    if (long) return long
    const openDate = String(input(body, 'OpenDate') ?? new Date().toISOString())
    if (Number.isNaN(Date.parse(openDate)))
      return refuse(reply, 400, `The OpenDate '${openDate}' is not a valid date.`)
    if (!account.locations.some((l) => l.id === int('LocationId')))
      return refuse(
        reply,
        400,
        `Location ${input(body, 'LocationId')} does not belong to account ${account.id}.`,
      )
    const checks: [string, boolean][] = [
      ['StatusId', state.statuses.some((s) => s.id === int('StatusId') && s.isActive)],
      ['PriorityId', state.priorities.some((p) => p.id === int('PriorityId'))],
      ['TypeId', table('ticketTypes').some((r) => r.id === int('TypeId') && r.isActive)],
      ['SourceId', table('sources').some((r) => r.id === int('SourceId') && r.isActive)],
      [
        'QueueId',
        input(body, 'QueueId') == null || state.queues.some((q) => q.id === int('QueueId') && q.isActive),
      ],
    ]
    const wrong = checks
      .filter(([, good]) => !good)
      .map(([f]) => `${f} ${input(body, f) ?? int(f)} is not valid.`)
    if (wrong.length > 0) return refuse(reply, 400, 'The ticket could not be saved.', wrong)
    const id = state.nextId.ticket++
    const now = new Date().toISOString()
    const t: BmsTicket = {
      id,
      ticketNumber: `T${now.slice(0, 10).replaceAll('-', '')}.${String(id % 10_000).padStart(4, '0')}`,
      title,
      details: String(input(body, 'Details')),
      accountId: account.id,
      locationId: int('LocationId') ?? 0,
      statusId: int('StatusId') ?? 0,
      priorityId: int('PriorityId') ?? 0,
      typeId: int('TypeId') ?? 0,
      sourceId: int('SourceId') ?? 0,
      queueId: int('QueueId'),
      openDate,
      completedDate: null,
      createdOn: now,
      createdBy: state.users.api.id,
      notes: [],
    }
    setStatus(t, t.statusId)
    state.tickets.push(t)
    events.changed(t, 'Ticket Created')
    return okBody(out(t))
  })

  app.get('/v2/servicedesk/tickets', async (request, reply) =>
    list(
      (name) => query(request, `Filter.${name}`),
      query(request, 'Sort'),
      query(request, 'PageSize'),
      query(request, 'PageNumber'),
      reply,
    ),
  )

  app.post('/v2/servicedesk/tickets/search', async (request, reply) => {
    const filter = input(request.body, 'Filter')
    const value = (name: string) => {
      const v = input(filter, name)
      return v === undefined || v === null ? undefined : String(v)
    }
    const sort = input(request.body, 'Sort')
    return list(
      value,
      typeof sort === 'string' ? sort : undefined,
      input(request.body, 'PageSize'),
      input(request.body, 'PageNumber'),
      reply,
    )
  })

  app.get<{ Params: { id: string } }>('/v2/servicedesk/tickets/:id', async (request, reply) => {
    const t = find(request.params.id, reply)
    return t ? okBody(out(t)) : reply
  })

  app.get<{ Params: { id: string } }>('/v2/servicedesk/tickets/:id/notes', async (request, reply) => {
    const t = find(request.params.id, reply)
    if (!t) return reply
    const p = page(t.notes, query(request, 'PageSize'), query(request, 'PageNumber'), state.paging)
    if (!p.ok) return refuse(reply, 400, p.message)
    // TicketNoteOutputDtoIEnumerableResponse: no record count.
    return okBody(p.rows.map((n) => noteOut(n)))
  })

  app.post<{ Params: { id: string } }>('/v2/servicedesk/tickets/:id/notes', async (request, reply) => {
    const t = find(request.params.id, reply)
    if (!t) return reply
    const body = request.body
    const missing = ['Details', 'IsInternal', 'NoteDate', 'TypeId'].filter(
      (f) => input(body, f) === undefined || input(body, f) === '',
    )
    if (missing.length > 0)
      return refuse(
        reply,
        400,
        'One or more validation errors occurred.',
        missing.map((f) => `The ${f} field is required.`),
      )
    const long = tooLong(reply, 'Details', input(body, 'Details'), state.limits.text)
    if (long) return long
    const typeId = intOf(input(body, 'TypeId'))
    if (!table('noteTypes').some((r) => r.id === typeId))
      return refuse(reply, 400, `Note type ${typeId} is not valid.`)
    const statusId = input(body, 'StatusId')
    if (statusId !== undefined && statusId !== null) {
      const id = intOf(statusId)
      if (!state.statuses.some((s) => s.id === id && s.isActive))
        return refuse(reply, 400, `StatusId ${statusId} is not valid.`)
      setStatus(t, id ?? 0)
    }
    const note = {
      id: state.nextId.note++,
      details: String(input(body, 'Details')),
      isInternal: input(body, 'IsInternal') === true || input(body, 'IsInternal') === 'true',
      typeId: typeId ?? 0,
      noteDate: String(input(body, 'NoteDate')),
      createdOn: new Date().toISOString(),
    }
    t.notes.push(note)
    events.changed(t, 'Ticket Updated')
    return okBody(noteOut(note))
  })

  app.post<{ Params: { id: string } }>('/v2/servicedesk/tickets/:id/resolve', async (request, reply) => {
    const t = find(request.params.id, reply)
    if (!t) return reply
    const comment = input(request.body, 'Comment')
    if (comment === undefined || comment === null || comment === '')
      return refuse(reply, 400, 'One or more validation errors occurred.', ['The Comment field is required.'])
    const long = tooLong(reply, 'Comment', comment, state.limits.text)
    if (long) return long
    if (t.completedDate !== null) return refuse(reply, 400, `Ticket ${t.ticketNumber} is already completed.`)
    const given = input(request.body, 'StatusId')
    const statusId =
      given === undefined || given === null || given === 0 ? state.defaultCompletedStatusId : intOf(given)
    if (statusId === null || !completes(statusId))
      return refuse(
        reply,
        400,
        `Status ${given} is not a completed status; a ticket is resolved with a completed status.`,
      )
    setStatus(t, statusId)
    t.notes.push({
      id: state.nextId.note++,
      details: String(comment),
      isInternal: input(request.body, 'IsInternal') !== false,
      typeId: table('noteTypes').find((r) => /resolution/i.test(r.name))?.id ?? 1,
      noteDate: new Date().toISOString(),
      createdOn: new Date().toISOString(),
    })
    events.changed(t, 'Ticket Updated')
    return okBody(out(t))
  })
}
