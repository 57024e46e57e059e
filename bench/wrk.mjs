// wrk as the load generator (BENCH_TOOL=wrk, the default where wrk is installed: apt-get install wrk). It
// is written in C and takes far less CPU than autocannon, which on a 2-core machine shares the cores with
// the target; most figures in docs/performance.md were measured with it. The result has the fields of
// autocannon's that measure.mjs reads. wrk does not keep per-status counts or check bodies: every answer
// that is not 2xx or 3xx is counted as non-2xx.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const wrkAvailable = () => existsSync('/usr/bin/wrk') || existsSync('/usr/local/bin/wrk')

const script = `
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open(os.getenv("WRK_BODY_FILE"), "rb")
wrk.body = f:read("*a")
f:close()
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests":%d,"durationUs":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50":%f,"p99":%f,"mean":%f,"max":%f}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.mean / 1000, latency.max / 1000))
end
`

export function wrkLoad({ url, body, seconds, connections }) {
  const dir = mkdtempSync(join(tmpdir(), 'alertbridge-wrk-'))
  const scriptFile = join(dir, 'post.lua')
  const bodyFile = join(dir, 'body.json')
  writeFileSync(scriptFile, script)
  writeFileSync(bodyFile, body)
  return new Promise((resolve, reject) => {
    execFile(
      'wrk',
      ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', scriptFile, url],
      { env: { ...process.env, WRK_BODY_FILE: bodyFile } },
      (err, stdout, stderr) => {
        rmSync(dir, { recursive: true, force: true })
        const line = /RESULT (\{.*\})/.exec(stdout)?.[1]
        if (err || !line) {
          reject(new Error(`wrk failed: ${err?.message ?? ''} ${stderr}${stdout}`.trim()))
          return
        }
        const r = JSON.parse(line)
        const ok = r.requests - r.status
        resolve({
          requests: { mean: r.requests / (r.durationUs / 1e6) },
          latency: { p50: r.p50, p99: r.p99, mean: r.mean, max: r.max },
          statusCodeStats: {
            '2xx': { count: ok },
            ...(r.status > 0 ? { 'non-2xx': { count: r.status } } : {}),
          },
          '2xx': ok,
          non2xx: r.status,
          errors: r.connect + r.read + r.write,
          timeouts: r.timeout,
          mismatches: 0,
        })
      },
    )
  })
}
