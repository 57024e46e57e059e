// Renders every error in one envelope: the contract's failure shape (statusCode, message "failed")
// plus `error` (machine code), `detail` (what to fix) and `requestId`. Alert routes add the `data`
// block of their strategy. 5xx details are never leaked.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { v7 as uuidv7 } from 'uuid'
import { syncBody } from '../alerts/responses.js'
import { ApiError } from './errors.js'

export type FailureShape = 'default' | 'sync' | 'webhook' | 'oauth'

declare module 'fastify' {
  interface FastifyContextConfig {
    failureShape?: FailureShape
  }
}

interface ValidationIssue {
  instancePath?: string
  message?: string
}

function fromFramework(err: FastifyError): ApiError {
  if (err instanceof ApiError) return err
  if (err.validation) {
    const where = err.validationContext ?? 'request'
    const issues = (err.validation as ValidationIssue[])
      .slice(0, 3)
      .map((v) => `${where}${v.instancePath ?? ''} ${v.message ?? 'is invalid'}`)
    return new ApiError('VALIDATION_FAILED', `${issues.join('; ')}.`)
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('BODY_TOO_LARGE', 'The body is larger than 256 KiB.')
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
  if (err.statusCode === 413) return new ApiError('BODY_TOO_LARGE', 'The body is larger than 256 KiB.')
  return new ApiError('INTERNAL', 'An unexpected error occurred; quote the requestId to support.')
}

/** The correlation id the caller sent, if the body got far enough to be read. */
function requestCorrelationId(request: FastifyRequest): string | null {
  const body = request.body as Record<string, unknown> | undefined
  const value = body && typeof body === 'object' ? (body.correlationId ?? body.correlationID) : undefined
  return typeof value === 'string' && value.length <= 128 ? value : null
}

export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  const shape = request.routeOptions.config?.failureShape ?? 'default'
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value)
  const correlationId =
    error.extra.correlationId !== undefined ? error.extra.correlationId : requestCorrelationId(request)
  const messageId = error.extra.messageId ?? uuidv7()
  reply.code(error.status)
  const answer = {
    message: 'failed' as const,
    httpStatus: error.status,
    error: error.code,
    detail: error.detail,
    correlationId,
  }
  switch (shape) {
    case 'sync':
      return reply.send(syncBody(answer, messageId, request.id))
    case 'webhook':
      return reply.send({
        statusCode: error.status,
        message: 'failed',
        data: { messageId, correlationId },
        error: error.code,
        detail: error.detail,
        requestId: request.id,
      })
    case 'oauth':
      return reply.send({
        statusCode: error.status,
        message: 'failed',
        error: error.code,
        error_description: error.detail,
        detail: error.detail,
        requestId: request.id,
      })
    case 'default':
      return reply.send({
        statusCode: error.status,
        message: 'failed',
        error: error.code,
        detail: error.detail,
        requestId: request.id,
      })
  }
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const error = fromFramework(err)
    if (error.status >= 500) request.log.error({ err }, 'request failed')
    else request.log.info({ code: error.code, detail: error.detail }, 'request refused')
    return sendFailure(request, reply, error)
  })
  app.setNotFoundHandler((request, reply) =>
    sendFailure(
      request,
      reply,
      new ApiError('NOT_FOUND', `There is no route ${request.method} ${request.url.split('?')[0]}.`),
    ),
  )
}
