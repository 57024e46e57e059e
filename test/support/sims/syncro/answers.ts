// What the Syncro routes share: pages of 25 with Syncro's `meta` (`page` is the one paging parameter
// Syncro's API docs publish for these lists; an undocumented `per_page` is ignored), and its error
// bodies — a 422 worded in the style the account is set to (Rails' field hash, a message list, or one
// error string), and the `{error}` of other refusals.
import type { FastifyReply } from 'fastify'
import type { SyncroState } from './types.js'

export const PAGE_SIZE = 25

/** `page` (1-based) of a query; always 25 a page. */
export function pageParams(q: Record<string, string | undefined>): { page: number; perPage: number } {
  const page = Math.max(1, Number.parseInt(q.page ?? '1', 10) || 1)
  return { page, perPage: PAGE_SIZE }
}

/** One page of a list under `key`, with `meta` where the account gives it. */
export function paged<T>(
  state: SyncroState,
  key: string,
  items: readonly T[],
  q: Record<string, string | undefined>,
): Record<string, unknown> {
  const { page, perPage } = pageParams(q)
  const slice = items.slice((page - 1) * perPage, page * perPage)
  if (!state.withMeta) return { [key]: slice }
  return {
    [key]: slice,
    meta: {
      total_pages: Math.max(1, Math.ceil(items.length / perPage)),
      total_entries: items.length,
      per_page: perPage,
      page,
    },
  }
}

export const fail = (reply: FastifyReply, status: number, error: string) => reply.code(status).send({ error })

/** Rails-style validation errors by field, as a 422 in the account's style. */
export function invalid(reply: FastifyReply, state: SyncroState, errors: Record<string, string[]>) {
  const full = Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((m) => (field === 'base' ? m : `${humanize(field)} ${m}`)),
  )
  const body =
    state.errorStyle === 'errors'
      ? { errors }
      : state.errorStyle === 'message'
        ? { message: full }
        : { error: full.join(', ') }
  return reply.code(422).send(body)
}

const humanize = (field: string) => {
  const words = field.replace(/_id$/, '').replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export const now = () => new Date().toISOString()

/** A path id: digits only, or null. */
export const idOf = (v: string | undefined): number | null => (v && /^\d+$/.test(v) ? Number(v) : null)
