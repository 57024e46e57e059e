// Listens, sets timeouts, closes gracefully. Everything else is built by boot.ts and app.ts.

import { ConfigError, loadConfig, secretValuesIn } from '../platform/config.js'
import { DatabaseUnavailable } from '../platform/db/failures.js'
import { RedisUnavailable } from '../platform/redis/connect.js'
import { KeyRefusal } from '../platform/security/key-check.js'
import { boot } from './boot.js'
import { demoLines, ensureDemo } from './demo.js'

/** LOG_LEVEL debug or trace: a failed start also prints the stack. */
let debugging = false

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, ...fromArguments(process.argv.slice(2)) })
  debugging = ['debug', 'trace'].includes(config.logLevel)
  const { app, services, logger, newAdminToken, dataDir } = await boot(config)

  app.server.requestTimeout = 60_000
  app.server.keepAliveTimeout = 65_000
  app.server.headersTimeout = 66_000
  await app.listen({ port: config.port, host: config.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host
  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`

  const lines = [`alertbridge listening on ${baseUrl} (API docs: ${baseUrl}/docs)`]
  if (newAdminToken) lines.push(`admin token (shown once; ADMIN_TOKEN overrides it): ${newAdminToken}`)
  for (const origin of config.loopbackOrigins)
    lines.push(
      `demo webhook on loopback: outbound calls may reach ${origin} (the demo's receiver) and no other private address (ALLOW_PRIVATE_NETWORK)`,
    )
  if (config.demo)
    lines.push(
      ...demoLines(
        baseUrl,
        await ensureDemo(services.vendorApi.testTenancies, dataDir, { webhookUrl: config.demoWebhookUrl }),
      ),
    )
  process.stdout.write(`\n${lines.join('\n')}\n\n`)

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    logger.info({ signal }, 'shutting down')
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 15 s; exiting')
      process.exit(1)
    }, 15_000)
    force.unref()
    // Node closes the connections idle when the server closes; one answering a request then stays
    // open for its keep-alive time unless it is closed once it is idle too.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100)
    idle.unref()
    app.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

/**
 * The command line's settings, which win over the environment's: `--demo` (DEMO), `--webhook-url <url>`
 * (DEMO_WEBHOOK_URL, the demo vendor's webhook URL) and `--role=api` or `--role worker` (ROLE; what `npm
 * run start:api` and `npm run start:worker` pass).
 */
function fromArguments(args: string[]): Record<string, string> {
  const settings: Record<string, string> = {}
  if (args.includes('--demo')) settings.DEMO = 'true'
  const argValue = (name: string): string | undefined => {
    const at = args.findIndex((a) => a === name || a.startsWith(`${name}=`))
    const arg = args[at]
    if (arg === undefined) return undefined
    return arg === name ? (args[at + 1] ?? '') : arg.slice(name.length + 1)
  }
  const role = argValue('--role')
  if (role !== undefined) settings.ROLE = role
  const webhookUrl = argValue('--webhook-url')
  if (webhookUrl !== undefined) settings.DEMO_WEBHOOK_URL = webhookUrl
  return settings
}

// A start that fails says so in a sentence: what is wrong and, for a variable, its name; never a
// secret's value (every one the environment holds is blanked out of what is printed, should a
// driver's message carry it) and no stack trace unless LOG_LEVEL asks for debugging.
main().catch((err: unknown) => {
  const secrets = secretValuesIn(process.env)
  const clean = (text: string) => secrets.reduce((t, secret) => t.split(secret).join('[redacted]'), text)
  if (err instanceof ConfigError) {
    process.stderr.write(`${clean(err.message)}\n`)
    process.exit(2)
  }
  let sentence: string
  if (err instanceof DatabaseUnavailable) {
    const hint = err.damaged ? '; restore it from a backup (docs/operations.md)' : ''
    sentence = `DATABASE_URL: ${err.message}${hint}.`
  } else if (err instanceof RedisUnavailable) {
    sentence = `REDIS_URL: ${err.message}.`
  } else if (err instanceof KeyRefusal) {
    sentence = err.message
  } else {
    sentence = err instanceof Error ? err.message : String(err)
  }
  process.stderr.write(`alertbridge did not start: ${clean(sentence)}\n`)
  if (debugging && err instanceof Error && err.stack) process.stderr.write(`${clean(err.stack)}\n`)
  process.exit(1)
})
