// A POST whose JSON body is optional (its fields all have defaults): no body reads as `{}`, so that the
// route's object schema still checks a body when one is sent.
import type { FastifyReply, FastifyRequest } from 'fastify'

export function emptyBodyAsObject(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  if (request.body === undefined || request.body === null) request.body = {}
  done()
}
