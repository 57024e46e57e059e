// A reporter for Node's test runner that writes where the time went, for `TEST_TIMINGS=<file> npm test`
// (scripts/test.mjs): each file's time (its top-level tests and suites added up) and the slowest tests,
// slowest first. A test counts for the file that defines it: the scenarios shared by several files
// (test/support/psa/through-service.ts, test/support/fuzz/routes.ts, …) count for that file. Times are wall clock, with
// other files running beside; the run's own output (the spec reporter) is unchanged.
import { relative } from 'node:path'

const root = new URL('..', import.meta.url).pathname

export default async function* timings(source) {
  const files = new Map()
  const tests = []
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue
    const { data } = event
    const ms = data.details?.duration_ms ?? 0
    const file = data.file ? relative(root, data.file) : '?'
    if (data.nesting === 0 && data.name !== data.file) files.set(file, (files.get(file) ?? 0) + ms)
    if (data.details?.type !== 'suite' && data.name !== data.file) tests.push({ file, name: data.name, ms })
  }
  const s = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`
  yield 'Files, by the time of their top-level tests added up:\n'
  for (const [file, ms] of [...files].sort((a, b) => b[1] - a[1])) yield `${s(ms)}  ${file}\n`
  yield '\nThe slowest 40 tests:\n'
  for (const t of tests.sort((a, b) => b.ms - a.ms).slice(0, 40)) yield `${s(t.ms)}  ${t.file}: ${t.name}\n`
}
