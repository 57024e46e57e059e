// The baseline target of bench/run.mjs, run as a child process (started with fork, so it reports
// its port over IPC). A bare Fastify 5 app with one route, POST /api/oem-alerts-api/alert, that
// validates the body exactly as the service does (the same TypeBox schema, compiled by the same
// validator compiler app.ts sets) and answers 201 with an accept-shaped body. It does nothing else:
// no logger, no auth, no database, no queue. It is the ceiling the service's alert routes are
// measured against on the same machine and with the same load.
import { randomUUID } from 'node:crypto'
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import Fastify from 'fastify'
import { AlertRequest } from '../dist/alerts/intake/schema.js'

const app = Fastify({ logger: false })
app.setValidatorCompiler(TypeBoxValidatorCompiler)

app.post('/api/oem-alerts-api/alert', { schema: { body: AlertRequest } }, async (_request, reply) =>
  reply.code(201).send({ message: 'created', data: { messageId: randomUUID(), correlationId: null } }),
)

await app.listen({ port: 0, host: '127.0.0.1' })
process.send?.({ port: app.server.address().port })

const stop = () =>
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
// The bench process owns this one: if it goes away, so does the baseline.
process.on('disconnect', stop)
