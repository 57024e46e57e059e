// `alertbridge-vendor listen --forward-to <url>`: this vendor's webhook events by long-poll
// (GET /api/vendor-api/events), each posted to a local endpoint exactly as the service would post it:
// the raw body and the Standard Webhooks headers the service signed, verbatim, so the endpoint
// verifies it with the vendor's own webhook secret. One line per event, with the endpoint's answer.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { AlertbridgeError, type EventsPage, type ListenedEvent } from '@alertbridge/vendor'
import { connect, connectionHelp, connectionOptions, type Io, UsageError } from './io.js'

export const listenHelp = `alertbridge-vendor listen [--forward-to <url>] [options]

Long-polls this vendor's webhook events and forwards each one, its body and signed webhook-* headers
unchanged, to --forward-to; prints one line per event with the endpoint's status. Ctrl-C stops it.
While it runs the service counts the vendor as listening, and records its events even without a
webhook URL.

  --forward-to <url>        where to POST each event (without it, events are only printed)
  --header "Name: value"    a header to add to each forwarded request (repeatable), e.g. the auth
                            header your endpoint expects
  --save <dir>              also write each event to <dir>/<deliveryId>.json and .headers.json
                            (for \`alertbridge-vendor verify\`)
  --after <cursor>          resume after this cursor (printed when it stops) instead of from now
  --print-body              print each event's body too
  --wait-seconds <0-25>     how long each long-poll waits for an event (default 25)

${connectionHelp}`

/** How long the endpoint may take, as the service allows (docs/webhooks.md). */
const forwardTimeoutMs = 15_000
/** How long to wait before polling again once the client's own retries gave up. */
const pauseMs = 5_000

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })

function headerPairs(values: string[] | undefined): [string, string][] {
  return (values ?? []).map((h) => {
    const at = h.indexOf(':')
    if (at <= 0) throw new UsageError(`--header '${h}': expected "Name: value"`)
    return [h.slice(0, at).trim(), h.slice(at + 1).trim()]
  })
}

/** A line's description of the event: its type, and a status_update's event name and test mark. */
function describe(e: ListenedEvent): string {
  try {
    const body = JSON.parse(e.body) as { payload?: { event?: unknown; test?: unknown } }
    const name = typeof body.payload?.event === 'string' ? ` "${body.payload.event}"` : ''
    return `${e.eventType}${name}${body.payload?.test === true ? ' (test)' : ''}`
  } catch {
    return e.eventType
  }
}

export async function listen(argv: string[], io: Io): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...connectionOptions,
      'forward-to': { type: 'string' },
      header: { type: 'string', multiple: true },
      save: { type: 'string' },
      after: { type: 'string' },
      'print-body': { type: 'boolean' },
      'wait-seconds': { type: 'string' },
    },
    strict: true,
  })
  const target = values['forward-to']
  if (target !== undefined) {
    try {
      new URL(target)
    } catch {
      throw new UsageError(`--forward-to: '${target}' is not a URL`)
    }
  }
  const extra = headerPairs(values.header)
  const waitSeconds = values['wait-seconds'] === undefined ? 25 : Number(values['wait-seconds'])
  if (!Number.isInteger(waitSeconds) || waitSeconds < 0 || waitSeconds > 25)
    throw new UsageError('--wait-seconds: 0 to 25')
  const saveDir = values.save ? resolve(io.cwd, values.save) : null
  if (saveDir) mkdirSync(saveDir, { recursive: true })
  const { client } = connect(io, values)
  const send = io.fetch ?? ((r: Request) => fetch(r))

  io.err(
    target
      ? `Ready: forwarding this vendor's events to ${target} (Ctrl-C to stop)`
      : "Ready: printing this vendor's events (Ctrl-C to stop; --forward-to <url> to forward them)",
  )
  const forward = async (e: ListenedEvent) => {
    if (saveDir) {
      writeFileSync(join(saveDir, `${e.deliveryId}.json`), e.body)
      writeFileSync(join(saveDir, `${e.deliveryId}.headers.json`), `${JSON.stringify(e.headers, null, 2)}\n`)
    }
    let answer = ''
    if (target) {
      const headers = new Headers([['content-type', 'application/json'], ...extra])
      for (const [name, value] of Object.entries(e.headers)) headers.set(name, value)
      const started = Date.now()
      try {
        const res = await send(
          new Request(target, {
            method: 'POST',
            headers,
            body: e.body,
            redirect: 'manual',
            signal: AbortSignal.timeout(forwardTimeoutMs),
          }),
        )
        await res.body?.cancel().catch(() => {})
        answer = ` -> ${res.status} (${Date.now() - started} ms)`
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name
        answer = ` -> failed: ${cause === 'TimeoutError' ? `no answer in ${forwardTimeoutMs / 1000} s` : cause}`
      }
    }
    io.out(`${e.createdAt}  ${describe(e)}  ${e.deliveryId}${answer}`)
    if (values['print-body']) io.out(e.body)
  }
  let after = values.after ?? null
  while (!io.signal?.aborted) {
    let page: EventsPage
    try {
      page = await client.events({ after, waitSeconds, signal: io.signal })
    } catch (err) {
      if (io.signal?.aborted) break
      // A refusal (credentials, a bad cursor) ends it; a service away for a while does not.
      if (err instanceof AlertbridgeError && err.status < 500) throw err
      io.err(`the service did not answer (${(err as Error).message}); polling again in ${pauseMs / 1000} s`)
      await pause(pauseMs, io.signal)
      continue
    }
    for (const e of page.data) await forward(e)
    after = page.nextCursor ?? after
  }
  if (after) io.err(`stopped; resume with --after ${after}`)
  return 0
}
