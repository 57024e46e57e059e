// `npm run migrate-data -- --from sqlite:<path> --to postgres://…`: moves an embedded installation's
// data into a PostgreSQL database (ops/data-move/move.ts; docs/deploy.md says when and how).

import { ConfigError, secretValuesIn } from '../../platform/config.js'
import { DatabaseUnavailable } from '../../platform/db/failures.js'
import { CopyRefusal, moveData, moveRequest, UsageError, usage } from './move.js'

async function main(): Promise<number> {
  const request = moveRequest(process.argv.slice(2), process.env)
  await moveData(request, (line) => process.stdout.write(`${line}\n`))
  return 0
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // Never a secret in what is printed: SECRET_KEY's value, nor the password of either URL.
    const urls = process.argv.filter((a) => /postgres(ql)?:\/\//.test(a)).map((a) => a.replace(/^--to=/, ''))
    const secrets = urls.flatMap((url) => secretValuesIn({ ...process.env, DATABASE_URL: url }))
    const clean = (text: string) => secrets.reduce((t, secret) => t.split(secret).join('[redacted]'), text)
    if (err instanceof UsageError) {
      process.stderr.write(`migrate-data: ${clean(err.message)}\n${usage}`)
      process.exit(2)
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`migrate-data: ${clean(err.message)}\n`)
      process.exit(2)
    }
    // Refusals and database failures are one sentence; anything else is shown without its stack.
    const known = err instanceof CopyRefusal || err instanceof DatabaseUnavailable
    const text = err instanceof Error ? err.message : String(err)
    process.stderr.write(
      `migrate-data: ${clean(known ? text : `the move failed, nothing was copied: ${text}`)}\n`,
    )
    process.exit(1)
  },
)
