// Renders every error in one envelope: the contract's failure shape (statusCode, message "failed")
// plus `error` (machine code), `detail` (what to fix) and `requestId`. A route may name another shape
// (`config.failureShape`): the alert routes add the `data` block of their strategy, the token endpoint
// the OAuth fields. Those renderers belong to their capabilities and are handed in by the app.
// 5xx details are never leaked.
import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import { type ErrorCode, httpStatusOf } from '../core/errors.js'
import { ApiError } from './errors.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The name of a renderer given to installErrorHandling; the default envelope otherwise. */
    failureShape?: string
    /** Sentences added to a 400 of the body's validation: fields sent where the route does not read
     * them, naming where they belong (the alert routes': src/alerts/intake/misplaced.ts). */
    validationHints?: (body: unknown) => readonly string[]
  }
}

/** One refused request, as every renderer sees it. */
export interface Failure {
  status: number
  code: string
  detail: string
  /** The alert's correlation id: the one the error names, else the one the body carried. */
  correlationId: string | null
  /** A fresh id where the error names none, so a caller can quote it to support. */
  messageId: string
  requestId: string
  /** More fields the error carries for the default envelope (ApiError's `extra.fields`). */
  fields?: Record<string, unknown>
}

export type FailureRenderer = (failure: Failure) => unknown

/** The default envelope of every API. */
export const defaultFailure: FailureRenderer = (f) => ({
  ...f.fields,
  statusCode: f.status,
  message: 'failed',
  error: f.code,
  detail: f.detail,
  requestId: f.requestId,
})

/** The pattern of free text that must say something (FreeText in src/alerts/intake/schema.ts). */
const notBlank = '\\S'

interface ValidationIssue {
  keyword?: string
  schemaPath?: string
  instancePath?: string
  params?: { format?: unknown; additionalProperties?: unknown; allowedValues?: unknown; pattern?: unknown }
  message?: string
}

/** Each issue as a sentence part naming the field and the rule it breaks. */
function describeIssues(where: string, issues: ValidationIssue[]): string[] {
  return issues.flatMap((v) => {
    const field = `${where}${v.instancePath ?? ''}`
    // A field the schema does not have is reported twice: once per field ("schema is false") and once
    // for its object, which names them all. The object's report is the one kept.
    if (v.keyword === 'boolean' && v.schemaPath?.endsWith('/additionalProperties')) return []
    if (v.keyword === 'additionalProperties' && Array.isArray(v.params?.additionalProperties)) {
      return v.params.additionalProperties.map((name) => `${field}/${String(name)} is not a known field`)
    }
    if (v.keyword === 'format' && v.params?.format === 'date-time') {
      return [
        `${field} must be an RFC 3339 date-time such as 2026-01-31T12:00:00Z, with seconds from 00 to 59`,
      ]
    }
    // An enum's values are few and known: naming them saves the caller a trip to the documentation.
    if (v.keyword === 'enum' && Array.isArray(v.params?.allowedValues)) {
      return [`${field} must be one of ${v.params.allowedValues.map((a) => JSON.stringify(a)).join(', ')}`]
    }
    if (v.keyword === 'pattern' && v.params?.pattern === notBlank) {
      return [`${field} must not be empty or only whitespace`]
    }
    return [`${field} ${v.message ?? 'is invalid'}`]
  })
}

/** The body limit as the 413 says it: whole MiB or KiB. */
export function sizeText(bytes: number): string {
  const mib = 1024 * 1024
  if (bytes >= mib && bytes % mib === 0) return `${bytes / mib} MiB`
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}

/** The refusal of a body over the route's limit, naming that limit. */
const tooLarge = (bodyLimit: number) =>
  new ApiError('BODY_TOO_LARGE', `The body is larger than ${sizeText(bodyLimit)}.`)

function fromFramework(err: FastifyError, request: FastifyRequest): ApiError {
  if (err instanceof ApiError) return err
  const bodyLimit = request.routeOptions.bodyLimit
  if (err.validation) {
    const where = err.validationContext ?? 'request'
    const issues = describeIssues(where, err.validation as ValidationIssue[]).slice(0, 3)
    const hints = where === 'body' ? (request.routeOptions.config?.validationHints?.(request.body) ?? []) : []
    const more = hints.length > 0 ? ` ${hints.join('; ')}.` : ''
    return new ApiError('VALIDATION_FAILED', `${issues.join('; ')}.${more}`)
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return tooLarge(bodyLimit)
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_JSON', 'The body is empty; send a JSON object.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('INVALID_JSON', 'The body is not valid JSON.')
  }
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return new ApiError('INVALID_JSON', `The body is not valid JSON: ${err.message}`)
  }
  if (err.statusCode === 415)
    return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.')
  if (err.statusCode === 413) return tooLarge(bodyLimit)
  return new ApiError('INTERNAL', 'An unexpected error occurred; quote the requestId to support.')
}

/** The correlation id the caller sent, if the body got far enough to be read. */
function requestCorrelationId(request: FastifyRequest): string | null {
  const body = request.body as Record<string, unknown> | undefined
  const value = body && typeof body === 'object' ? (body.correlationId ?? body.correlationID) : undefined
  return typeof value === 'string' && value.length <= 128 ? value : null
}

function sendFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  renderers: Readonly<Record<string, FailureRenderer>>,
): FastifyReply {
  const shape = request.routeOptions.config?.failureShape
  const render = (shape !== undefined ? renderers[shape] : undefined) ?? defaultFailure
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value)
  const correlationId =
    error.extra.correlationId !== undefined ? error.extra.correlationId : requestCorrelationId(request)
  reply.code(error.status)
  return reply.send(
    render({
      status: error.status,
      code: error.code,
      detail: error.detail,
      correlationId,
      messageId: error.extra.messageId ?? uuidv7(),
      requestId: request.id,
      fields: error.extra.fields,
    }),
  )
}

/** What answers a GET or HEAD no route matched, before the 404 (the partner portal's pages); undefined: not its. */
export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined

export function installErrorHandling(
  app: FastifyInstance,
  renderers: Readonly<Record<string, FailureRenderer>>,
  pages?: PageFallback,
): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // Each route's own limit (the PSA push route's is larger than the default), and its hints.
    const error = fromFramework(err, request)
    if (error.status >= 500) request.log.error({ err }, 'request failed')
    else request.log.info({ code: error.code, detail: error.detail }, 'request refused')
    return sendFailure(request, reply, error, renderers)
  })
  app.setNotFoundHandler((request, reply) => {
    const page =
      pages && (request.method === 'GET' || request.method === 'HEAD') ? pages(request, reply) : undefined
    if (page) return page
    return sendFailure(
      request,
      reply,
      new ApiError('NOT_FOUND', `There is no route ${request.method} ${shortPath(request.url)}.`),
      renderers,
    )
  })
}

const shortPath = (url: string): string => {
  const path = url.split('?')[0] ?? ''
  return path.length > 200 ? `${path.slice(0, 200)}…` : path
}

/** The longest path parameter the router takes (no id is that long; longer is refused with a 400). */
export const maxParamLength = 512

/**
 * The router's own refusals (Fastify's `frameworkErrors` option), which otherwise answer in Fastify's
 * shape: a path segment that is not valid percent-encoding, a path parameter longer than the router
 * takes. No route is matched yet, so they get the default envelope, as a 400.
 */
export function frameworkFailure(maxParamLength: number) {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const detail =
      err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? `A path parameter is longer than ${maxParamLength} characters; no id is that long.`
        : `The path ${shortPath(request.url)} is not valid percent-encoding; encode each path segment as UTF-8 (e.g. with encodeURIComponent).`
    request.log.info({ code: err.code }, 'request refused')
    reply
      .code(400)
      .header('x-request-id', request.id)
      .send(
        defaultFailure({
          status: 400,
          code: 'VALIDATION_FAILED',
          detail,
          correlationId: null,
          messageId: uuidv7(),
          requestId: request.id,
        }),
      )
  }
}

/**
 * Requests that are not HTTP at all (a NUL or a bare line break in a header, headers over 16 KiB, a
 * request that took too long to arrive): Node's parser refuses them before there is a request, and
 * Fastify's `clientErrorHandler` writes the answer to the socket itself. This one writes the failure
 * envelope, with a request id, and closes the connection as Node would.
 */
export function clientFailure(this: FastifyInstance, err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [code, detail]: [ErrorCode, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['REQUEST_TIMEOUT', 'The request did not arrive in time; send it again.']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? ['HEADERS_TOO_LARGE', 'The request headers are larger than 16 KiB.']
        : [
            'VALIDATION_FAILED',
            'The request is not valid HTTP/1.1 (a header may hold a NUL or a line break); nothing was done.',
          ]
  const status = httpStatusOf(code)
  const requestId = randomUUID()
  this.log.info({ code: err.code, requestId }, 'request refused: not valid HTTP')
  const body = JSON.stringify(
    defaultFailure({ status, code, detail, correlationId: null, messageId: uuidv7(), requestId }),
  )
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(err)
}
