// A backlog over QUEUE_BACKLOG_LIMIT (docs/decisions/speed/backlog-keeps-accepting.md) is said in /metrics
// and in the log, and goes away once the backlog is back under it. The worker checks every 10 s; the test
// asks it once directly.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { after, before, describe, test } from 'node:test'
import pino from 'pino'
import { startService, type TestService } from '../support/service.js'

describe('backlog over its limit', () => {
  let svc: TestService
  const lines: { msg: string; queued?: number; limit?: number; level: number }[] = []
  before(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
        done()
      },
    })
    svc = await startService({ env: { QUEUE_BACKLOG_LIMIT: '1' }, logger: pino({ level: 'info' }, sink) })
  })
  after(() => svc.close())

  const overLimit = async () => {
    const text = (await svc.request('GET', '/metrics')).text
    return Number(/^alertbridge_jobs_backlog_over_limit (\d+)$/m.exec(text)?.[1])
  }

  test('two queued jobs over a limit of one: the gauge is 1 and a warning names both; then 0', async () => {
    // Jobs of a kind no runner takes, due in an hour: they stay queued.
    const later = new Date(Date.now() + 3_600_000)
    await svc.services.queue.add([
      { id: 'backlog-1', kind: 'backlog-test', payload: {}, runAt: later },
      { id: 'backlog-2', kind: 'backlog-test', payload: {}, runAt: later },
    ])
    await svc.services.runtime.summarize()
    assert.equal(await overLimit(), 1)
    const warning = lines.find((l) => l.msg === 'the job backlog is over QUEUE_BACKLOG_LIMIT')
    assert.equal(warning?.level, 40)
    assert.equal(warning?.limit, 1)
    assert.ok((warning?.queued ?? 0) >= 2)

    await svc.services.store.kysely.deleteFrom('jobs').where('kind', '=', 'backlog-test').execute()
    await svc.services.runtime.summarize()
    assert.equal(await overLimit(), 0)
    assert.ok(lines.some((l) => l.msg === 'the job backlog is back under its limit'))
  })
})
