// Listens, sets timeouts, closes gracefully. Everything else is built by boot.ts and app.ts.
import { boot } from './boot.js'
import { ConfigError, loadConfig } from './config.js'
import { demoCurl, ensureDemo } from './demo.js'

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, ...(process.argv.includes('--demo') ? { DEMO: 'true' } : {}) })
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
  if (config.demo) {
    const demo = await ensureDemo(services, dataDir)
    lines.push(
      'demo: vendor, partner (sandbox PSA), integration (pending, alerting on), one rule, one account mapping.',
      `demo partner API key: ${demo.partnerApiKey}`,
      'create a ticket:',
      `  ${demoCurl(baseUrl, demo)}`,
      'see it:',
      `  curl -s ${baseUrl}/api/partner/tickets -H 'authorization: Bearer ${demo.partnerApiKey}'`,
    )
  }
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

main().catch((err) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`)
    process.exit(2)
  }
  process.stderr.write(
    `alertbridge failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  )
  process.exit(1)
})
