// alertbridge-vendor: the vendor's command line (README.md beside this folder). `run` takes the
// arguments after the program's name and answers the exit code; bin.ts wires it to the process.
import { createRequire } from 'node:module'
import { AlertbridgeError } from '@alertbridge/vendor'
import { type Io, UsageError } from './io.js'
import { listen, listenHelp } from './listen.js'
import { send, sendHelp } from './send.js'
import { trigger, triggerHelp } from './trigger.js'
import { verify, verifyHelp } from './verify.js'

export type { Io } from './io.js'

/**
 * The package's own version: its package.json, one folder up from src/ and dist/ alike. Read when asked
 * (--version), so that code bundled elsewhere (the repository's compiled tests) loads without it.
 */
export function version(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version
}

export const usage = `alertbridge-vendor <command> [options]

Commands:
  send               send an alert, from flags or a JSON file
  listen             long-poll this vendor's webhooks and forward them, signed, to --forward-to <url>
  trigger [event]    send yourself a test event (default "Ticket Created")
  verify             check a saved webhook's signature against a secret (exit 0 valid, 1 not)

alertbridge-vendor <command> --help shows a command's options.`

const commands: Record<string, { run: (argv: string[], io: Io) => Promise<number>; help: string }> = {
  send: { run: send, help: sendHelp },
  listen: { run: listen, help: listenHelp },
  trigger: { run: trigger, help: triggerHelp },
  verify: { run: verify, help: verifyHelp },
}

/** Runs one command; answers the exit code (0 done, 1 refused or invalid, 2 a usage error). */
export async function run(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage)
    return name === undefined ? 2 : 0
  }
  if (name === '--version' || name === '-v') {
    io.out(version())
    return 0
  }
  const command = commands[name]
  if (!command) {
    io.err(`unknown command '${name}'\n\n${usage}`)
    return 2
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.help)
    return 0
  }
  try {
    return await command.run(rest, io)
  } catch (err) {
    const code = (err as { code?: unknown }).code
    if (err instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.err(`${name}: ${(err as Error).message}\n(alertbridge-vendor ${name} --help shows the options)`)
      return 2
    }
    if (err instanceof AlertbridgeError) {
      io.err(`${name}: ${err.message}${err.requestId ? ` (requestId ${err.requestId})` : ''}`)
      return 1
    }
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    io.err(`${name}: ${(err as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`)
    return 1
  }
}
