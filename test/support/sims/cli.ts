// `npm run sim -- <kind> [--port N] [--count N]`: PSA simulators on loopback, standalone, so that the
// whole service can be tried end to end against them (connect a partner with `baseUrl` set to a printed
// URL and ALLOW_PRIVATE_NETWORK=true). With --count, that many simulators on consecutive ports (or
// each on a free one with --port 0), one line each. Faults are switched over HTTP: PUT /__sim/faults.
import { parseArgs } from 'node:util'
import { simulators } from './index.js'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { port: { type: 'string', default: '0' }, count: { type: 'string', default: '1' } },
})
const kind = positionals[0] ?? ''
const start = simulators[kind as keyof typeof simulators]
const count = Number(values.count)
if (!start || !Number.isInteger(count) || count < 1) {
  process.stderr.write(
    `usage: npm run sim -- <${Object.keys(simulators).join('|')}> [--port N] [--count N]\n`,
  )
  process.exit(2)
}
const port = Number(values.port)
const sims: Awaited<ReturnType<typeof start>>[] = []
for (let i = 0; i < count; i++) {
  const sim = await start({ port: port === 0 ? 0 : port + i })
  sims.push(sim)
  process.stdout.write(`${kind} simulator listening on ${sim.url}\n`)
}
if (count === 1) process.stdout.write(`${sims[0]?.describe()}\n`)
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void Promise.all(sims.map((s) => s.close())).then(() => process.exit(0)))
