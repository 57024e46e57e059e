// What a command reads and writes besides its arguments: the process's streams, environment and
// working directory, or a test's stand-ins.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { VendorClient, type VendorClientOptions } from '@alertbridge/vendor'

export interface Io {
  /** One line to stdout (the command's result). */
  out(line: string): void
  /** One line to stderr (progress, warnings, errors). */
  err(line: string): void
  env: Record<string, string | undefined>
  cwd: string
  /** Ends a long-running command (listen) when aborted: Ctrl-C. */
  signal?: AbortSignal
  /** The fetch the client and the forwarder send with (tests may wrap it). */
  fetch?: (request: Request) => Promise<Response>
}

/** A refusal of the command line itself: printed with the usage hint, exit code 2. */
export class UsageError extends Error {}

export const readText = (io: Io, file: string): string => {
  try {
    return readFileSync(resolve(io.cwd, file), 'utf8')
  } catch (err) {
    throw new UsageError(
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    )
  }
}

export const readJson = (io: Io, file: string): unknown => {
  const text = readText(io, file)
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new UsageError(`${file} is not JSON: ${(err as Error).message}`)
  }
}

/** The connection options every command that calls the service takes, each also from the environment. */
export const connectionOptions = {
  url: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'org-token': { type: 'string' },
  'integration-id': { type: 'string' },
} as const

export const connectionHelp = `Connection (a flag, else the environment variable):
  --url <url>               ALERTBRIDGE_URL              the service, e.g. http://localhost:8080
  --client-id <id>          ALERTBRIDGE_CLIENT_ID
  --client-secret <secret>  ALERTBRIDGE_CLIENT_SECRET
  --org-token <token>       ALERTBRIDGE_ORGANIZATION_OEM_TOKEN  the partner's organizationOemToken
                                                         (alerts need it; it binds tokens to that integration)
  --integration-id <id>     ALERTBRIDGE_INTEGRATION_ID   the integration alerts go to`

type Values = { [K in keyof typeof connectionOptions]?: string | undefined }

export interface Connection {
  client: VendorClient
  integrationId: string | undefined
  organizationOemToken: string | undefined
}

/** The client the flags and environment describe; `alerts` also needs the organization token and integration. */
export function connect(io: Io, v: Values, o: { alerts?: boolean } = {}): Connection {
  const pick = (flag: string | undefined, env: string) => flag ?? (io.env[env] || undefined)
  const baseUrl = pick(v.url, 'ALERTBRIDGE_URL')
  const clientId = pick(v['client-id'], 'ALERTBRIDGE_CLIENT_ID')
  const clientSecret = pick(v['client-secret'], 'ALERTBRIDGE_CLIENT_SECRET')
  const organizationOemToken = pick(v['org-token'], 'ALERTBRIDGE_ORGANIZATION_OEM_TOKEN')
  const integrationId = pick(v['integration-id'], 'ALERTBRIDGE_INTEGRATION_ID')
  const missing = [
    !baseUrl && '--url (ALERTBRIDGE_URL)',
    !clientId && '--client-id (ALERTBRIDGE_CLIENT_ID)',
    !clientSecret && '--client-secret (ALERTBRIDGE_CLIENT_SECRET)',
    o.alerts && !organizationOemToken && '--org-token (ALERTBRIDGE_ORGANIZATION_OEM_TOKEN)',
    o.alerts && !integrationId && '--integration-id (ALERTBRIDGE_INTEGRATION_ID)',
  ].filter(Boolean)
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}`)
  try {
    new URL(baseUrl!)
  } catch {
    throw new UsageError(`--url: '${baseUrl}' is not a URL (e.g. http://localhost:8080)`)
  }
  const options: VendorClientOptions = {
    baseUrl: baseUrl!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    organizationOemToken,
    integrationId,
    userAgent: 'alertbridge-vendor-cli',
    fetch: io.fetch,
    retry: {
      // A person waits at the terminal: 5 attempts (about 15 s of backoff), not the SDK's 10.
      maxAttempts: 5,
      onRetry: (r) =>
        io.err(
          `retrying ${r.method} ${new URL(r.url).pathname} in ${(r.delayMs / 1000).toFixed(1)} s (${
            r.status ?? (r.error as Error)?.message ?? 'error'
          }${r.retryAfter ? ', Retry-After' : ''})`,
        ),
    },
  }
  return { client: new VendorClient(options), integrationId, organizationOemToken }
}
