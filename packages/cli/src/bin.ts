#!/usr/bin/env node
// The alertbridge-vendor program: cli.ts on this process's arguments, streams and environment.
// Ctrl-C ends a running `listen` cleanly (a second one exits at once).
import { run } from './cli.js'

const stop = new AbortController()
process.once('SIGINT', () => {
  stop.abort()
  process.once('SIGINT', () => process.exit(130))
})
process.once('SIGTERM', () => stop.abort())

process.exitCode = await run(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
  signal: stop.signal,
})
