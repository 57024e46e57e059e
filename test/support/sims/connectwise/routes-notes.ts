// /service/tickets/{id}/notes: add a note (201 with the note) and list or read them. A note needs
// `text`, and at least one of detailDescriptionFlag (Discussion), internalAnalysisFlag (Internal) and
// resolutionFlag (Resolution) set true: without one the note would have no visibility, so the
// simulator refuses it with 400 (an inferred rule, kept strict on purpose). ConnectWise publishes no
// length for `text`, so none is enforced here. The list takes what every ConnectWise list takes
// (conditions on the note's fields, e.g. `text contains "…"`, orderBy, fields, page, pageSize), in
// pages of 25 unless pageSize says otherwise; any other parameter is ignored.
import type { FastifyInstance } from 'fastify'
import { contextOf, type FieldError, idParam, invalidObject, type RouteDeps } from './deps.js'
import { cwError, type ListItem, sendCount, sendList, sendOne } from './paging.js'
import { cwNow, type RenderContext, renderNote } from './render.js'
import type { CwNote } from './types.js'

const NOTE_FIELDS = [
  'id',
  'ticketId',
  'text',
  'detailDescriptionFlag',
  'internalAnalysisFlag',
  'resolutionFlag',
  'issueFlag',
  'member',
  'dateCreated',
  'createdBy',
  'internalFlag',
  'externalFlag',
  'customerUpdatedFlag',
  '_info',
] as const
const FLAGS = [
  'detailDescriptionFlag',
  'internalAnalysisFlag',
  'resolutionFlag',
  'customerUpdatedFlag',
] as const

function noteItem(ctx: RenderContext, n: CwNote): ListItem {
  const out = renderNote(ctx, n)
  return { id: n.id, out, view: out }
}

export function noteRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { state } = deps
  const ticketOf = (id: string) => {
    const n = idParam(id)
    return n === null ? undefined : state.tickets.find((t) => t.id === n)
  }
  const listOptions = { knownFields: NOTE_FIELDS, pageSizeMax: deps.pageSizeMax }

  app.post<{ Params: { id: string } }>('/service/tickets/:id/notes', async (request, reply) => {
    const ticket = ticketOf(request.params.id)
    if (!ticket) return cwError(reply, 404, 'NotFound', `Ticket ${request.params.id} not found`)
    const body = request.body
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return reply.code(400).send(
        invalidObject('ticketNote', [
          {
            code: 'InvalidField',
            message: 'The body must be a note object.',
            resource: 'ticketNote',
            field: 'body',
          },
        ]),
      )
    }
    const b = body as Record<string, unknown>
    const errors: FieldError[] = []
    const err = (code: string, message: string, field: string) =>
      errors.push({ code, message, resource: 'ticketNote', field })
    if (typeof b.text !== 'string' || b.text.trim() === '') {
      err('MissingRequiredField', 'The field text is required.', 'text')
    }
    const flags: Record<(typeof FLAGS)[number], boolean> = {
      detailDescriptionFlag: false,
      internalAnalysisFlag: false,
      resolutionFlag: false,
      customerUpdatedFlag: false,
    }
    for (const f of FLAGS) {
      const v = b[f]
      if (v === undefined || v === null) continue
      if (typeof v !== 'boolean') err('InvalidField', `The field ${f} must be a boolean.`, f)
      else flags[f] = v
    }
    if (!flags.detailDescriptionFlag && !flags.internalAnalysisFlag && !flags.resolutionFlag) {
      err(
        'MissingRequiredField',
        'At least one of detailDescriptionFlag, internalAnalysisFlag or resolutionFlag must be true.',
        'detailDescriptionFlag',
      )
    }
    if (errors.length) return reply.code(400).send(invalidObject('ticketNote', errors))

    const now = cwNow()
    const note: CwNote = {
      id: state.nextNoteId++,
      ticketId: ticket.id,
      text: String(b.text),
      ...flags,
      dateCreated: now,
      createdBy: state.memberIdentifier,
      lastUpdated: now,
    }
    ticket.notes.push(note)
    ticket.lastUpdated = now
    ticket.updatedBy = state.memberIdentifier
    return reply.code(201).send(renderNote(contextOf(request, state), note))
  })

  app.get<{ Params: { id: string } }>('/service/tickets/:id/notes', async (request, reply) => {
    const ticket = ticketOf(request.params.id)
    if (!ticket) return cwError(reply, 404, 'NotFound', `Ticket ${request.params.id} not found`)
    const ctx = contextOf(request, state)
    return sendList(
      request,
      reply,
      ticket.notes.map((n) => noteItem(ctx, n)),
      listOptions,
    )
  })

  app.get<{ Params: { id: string } }>('/service/tickets/:id/notes/count', async (request, reply) => {
    const ticket = ticketOf(request.params.id)
    if (!ticket) return cwError(reply, 404, 'NotFound', `Ticket ${request.params.id} not found`)
    const ctx = contextOf(request, state)
    return sendCount(
      request,
      reply,
      ticket.notes.map((n) => noteItem(ctx, n)),
      listOptions,
    )
  })

  app.get<{ Params: { id: string; noteId: string } }>(
    '/service/tickets/:id/notes/:noteId',
    async (request, reply) => {
      const ticket = ticketOf(request.params.id)
      if (!ticket) return cwError(reply, 404, 'NotFound', `Ticket ${request.params.id} not found`)
      const note = ticket.notes.find((n) => n.id === idParam(request.params.noteId))
      if (!note) return cwError(reply, 404, 'NotFound', `Ticket note ${request.params.noteId} not found`)
      return sendOne(request, reply, renderNote(contextOf(request, state), note))
    },
  )
}
