// The look-ups a mapping UI reads, each a paged list (plus /count and by-id): companies, boards,
// a board's statuses (with closedStatus) and types, priorities; and GET /system/info.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { contextOf, idParam, type RouteDeps } from './deps.js'
import { cwError, type ListItem, sendCount, sendList, sendOne } from './paging.js'
import {
  type RenderContext,
  renderBoard,
  renderCompany,
  renderPriority,
  renderStatus,
  renderType,
} from './render.js'
import type { CwBoard } from './types.js'

type Params = { Params: { id: string; sub: string } }

interface Resource {
  /** Path of the collection, e.g. /company/companies or /service/boards/:id/statuses. */
  path: string
  fields: readonly string[]
  /** The items, or a string naming what was not found (answered with 404). */
  items(ctx: RenderContext, params: Params['Params']): ListItem[] | string
  notFound: string
}

const item = (id: number, out: Record<string, unknown>): ListItem => ({ id, out, view: out })

export function lookupRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { state } = deps
  const board = (id: string): CwBoard | string =>
    state.boards.find((b) => b.id === idParam(id)) ?? `Service Board ${id} not found`

  const resources: Resource[] = [
    {
      path: '/company/companies',
      fields: ['id', 'identifier', 'name', 'status', 'phoneNumber', 'deletedFlag', '_info'],
      items: (ctx) => state.companies.map((c) => item(c.id, renderCompany(ctx, c))),
      notFound: 'Company',
    },
    {
      path: '/service/boards',
      fields: ['id', 'name', 'inactiveFlag', 'projectFlag', 'billTime', '_info'],
      items: (ctx) => state.boards.map((b) => item(b.id, renderBoard(ctx, b))),
      notFound: 'Service Board',
    },
    {
      path: '/service/boards/:id/statuses',
      fields: [
        'id',
        'name',
        'board',
        'sortOrder',
        'displayOnBoard',
        'inactive',
        'closedStatus',
        'timeEntryNotAllowed',
        'defaultFlag',
        'escalationStatus',
        'customerPortalFlag',
        '_info',
      ],
      items: (ctx, p) => {
        const b = board(p.id)
        return typeof b === 'string' ? b : b.statuses.map((s) => item(s.id, renderStatus(ctx, b, s)))
      },
      notFound: 'Service Status',
    },
    {
      path: '/service/boards/:id/types',
      fields: [
        'id',
        'name',
        'category',
        'defaultFlag',
        'inactiveFlag',
        'requestForChangeFlag',
        'board',
        '_info',
      ],
      items: (ctx, p) => {
        const b = board(p.id)
        return typeof b === 'string' ? b : b.types.map((t) => item(t.id, renderType(ctx, b, t)))
      },
      notFound: 'Service Type',
    },
    {
      path: '/service/priorities',
      fields: ['id', 'name', 'color', 'defaultFlag', 'sortOrder', '_info'],
      items: (ctx) => state.priorities.map((p) => item(p.id, renderPriority(ctx, p))),
      notFound: 'Priority',
    },
  ]

  for (const r of resources) {
    const itemsOr404 = (request: FastifyRequest<Params>, reply: FastifyReply) => {
      const items = r.items(contextOf(request, state), request.params)
      if (typeof items === 'string') {
        cwError(reply, 404, 'NotFound', items)
        return null
      }
      return items
    }
    const options = { knownFields: r.fields, pageSizeMax: deps.pageSizeMax }
    app.get<Params>(r.path, async (request, reply) => {
      const items = itemsOr404(request, reply)
      return items ? sendList(request, reply, items, options) : reply
    })
    app.get<Params>(`${r.path}/count`, async (request, reply) => {
      const items = itemsOr404(request, reply)
      return items ? sendCount(request, reply, items, options) : reply
    })
    // A nested collection names its parent :id, so its own records take :sub.
    const key = r.path.includes(':id') ? 'sub' : 'id'
    app.get<Params>(`${r.path}/:${key}`, async (request, reply) => {
      const items = itemsOr404(request, reply)
      if (!items) return reply
      const wanted = request.params[key]
      const found = items.find((i) => i.id === idParam(wanted))
      if (!found) return cwError(reply, 404, 'NotFound', `${r.notFound} ${wanted} not found`)
      return sendOne(request, reply, found.out)
    })
  }

  app.get('/system/info', async () => ({
    version: state.version,
    isCloud: state.isCloud,
    serverTimeZone: 'Eastern Standard Time',
    licenseBits: [],
    cloudRegion: 'NA',
  }))
}
