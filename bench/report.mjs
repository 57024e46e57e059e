// The bench's report: the machine, the table of targets against the baseline, and what makes a row
// a failed run.
import os from 'node:os'

export function machine() {
  const cpus = os.cpus()
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  }
}

export const truncate = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
export const integer = (n) => Math.round(n).toLocaleString('en-US')
const ms = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(2))
const codes = (statusCodes) =>
  Object.entries(statusCodes)
    .map(([code, count]) => `${code}×${integer(count)}`)
    .join(' ')

export function table(rows) {
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'responses',
    'non-2xx',
    'errors',
    'vs baseline',
    'status codes',
  ]
  const right = new Set([1, 2, 3, 4, 5, 6, 7])
  const lines = rows.map((r) =>
    r.error
      ? [r.name, `ERROR: ${truncate(r.error.split('\n')[0], 120)}`]
      : [
          r.name,
          integer(r.reqPerSec),
          ms(r.latencyMs.p50),
          ms(r.latencyMs.p99),
          integer(r.responses),
          integer(r.non2xx),
          integer(r.requestErrors + r.timeouts + r.bodyMismatches),
          r.ratio === null ? '-' : `${r.ratio.toFixed(2)}x`,
          codes(r.statusCodes),
        ],
  )
  const widths = header.map((h, i) =>
    Math.max(h.length, ...lines.filter((l) => l.length === header.length).map((l) => l[i].length)),
  )
  widths[0] = Math.max(widths[0], ...lines.map((l) => l[0].length))
  const format = (cells) =>
    cells
      .map((c, i) => {
        if (cells.length !== header.length && i === 1) return c // an error message takes the rest of the line
        return right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])
      })
      .join('  ')
      .trimEnd()
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n')
}

/** What makes a row a failed run: an error, or any answer that is not the expected 201. */
export function problems(row) {
  if (row.error) return [row.error]
  const found = []
  const unexpected = Object.entries(row.statusCodes).filter(([code]) => code !== '201' && code !== '2xx')
  if (unexpected.length > 0) found.push(`answers other than 201: ${codes(Object.fromEntries(unexpected))}`)
  if (row.requestErrors > 0) found.push(`${integer(row.requestErrors)} request errors (sockets)`)
  if (row.timeouts > 0) found.push(`${integer(row.timeouts)} timeouts`)
  if (row.bodyMismatches > 0) found.push(`${integer(row.bodyMismatches)} bodies without "message":"created"`)
  if (row.serviceLog?.error > 0) {
    found.push(
      `the service logged ${integer(row.serviceLog.error)} errors; the last: ${row.serviceLog.lastError}`,
    )
  }
  return found
}

/** The PSA rows: each scenario's time and its target. */
export function psaTable(rows) {
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`
  return rows
    .map((r) => {
      if (r.error) return `${r.name}: ERROR ${truncate(r.error.split('\n')[0], 160)}`
      const measured =
        r.ratio !== undefined
          ? `${s(r.totalMs)}, ${r.ratio.toFixed(2)}× the slowest partner's ${s(r.idealMs)} at its concurrency`
          : `${s(r.totalMs)}, ${(r.delay * 100).toFixed(1)} % later than A (${s(r.baselineMs)})`
      const failed = r.failed > 0 ? `; ${r.failed} alerts failed` : ''
      return `${r.name}: ${measured} (target ${r.target}: ${r.pass ? 'met' : 'NOT met'})${failed}`
    })
    .join('\n')
}
