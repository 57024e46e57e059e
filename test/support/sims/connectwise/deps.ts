// What the ConnectWise routes share: the state, the page size limit, and the base of the hrefs they write.
import type { FastifyRequest } from 'fastify'
import type { RenderContext } from './render.js'
import type { ConnectWiseState } from './types.js'

export interface RouteDeps {
  state: ConnectWiseState
  pageSizeMax: number
}

export function contextOf(request: FastifyRequest, state: ConnectWiseState): RenderContext {
  const host = request.headers.host ?? '127.0.0.1'
  return { base: `${request.protocol}://${host}/${state.codebase}apis/3.0`, state }
}

/** A path id: digits only, or null. */
export function idParam(v: string | undefined): number | null {
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : null
}

export interface FieldError {
  code: string
  message: string
  resource: string
  field: string
}

/** The body of ConnectWise's 400 for a record that fails validation. */
export function invalidObject(resource: string, errors: FieldError[]) {
  return { code: 'InvalidObject', message: `${resource} object is invalid`, errors }
}
