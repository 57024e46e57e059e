// BENCH_AGAINST=<rev>: the same load against another git revision, in the same run, so that any change
// can be measured against main (or main against an older commit) on the same machine at the same time.
//
// The revision is checked out into a temporary git worktree (detached, removed at the end unless
// BENCH_AGAINST_KEEP=1), given this checkout's node_modules (a symlink: the dependencies of the
// revisions compared here are the same or a subset; BENCH_AGAINST_INSTALL=1 runs `npm ci` there
// instead) and built with its own compiler settings (its tsconfig.build.json). Each service target then
// runs alternately on this code and on the revision, BENCH_AGAINST_ROUNDS times each (default 2), so
// that a slow moment of the machine falls on both, and so does the worker drain (BENCH_ONLY=drain); the
// report gives each side's runs and the ratio of their means.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

const git = (args, cwd = root) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()

/** Checks the revision out and builds it; answers { rev, commit, root, remove() }. */
export function prepareRevision(rev) {
  const commit = git(['rev-parse', '--verify', `${rev}^{commit}`])
  // git checks a worktree out into an empty directory, such as this new one.
  const dir = mkdtempSync(join(os.tmpdir(), `alertbridge-bench-${commit.slice(0, 7)}-`))
  process.stdout.write(`checking out ${rev} (${commit.slice(0, 10)}) into ${dir} and building it…\n`)
  git(['worktree', 'add', '--detach', '--quiet', dir, commit])
  const remove = () => {
    if (process.env.BENCH_AGAINST_KEEP === '1') return
    try {
      git(['worktree', 'remove', '--force', dir])
    } catch {
      rmSync(dir, { recursive: true, force: true })
      git(['worktree', 'prune'])
    }
  }
  try {
    if (process.env.BENCH_AGAINST_INSTALL === '1') {
      const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' })
      if (npm.status !== 0) throw new Error(`npm ci failed in ${dir}`)
    } else {
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
    }
    const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc')
    const built = spawnSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.build.json')], {
      cwd: dir,
      stdio: 'inherit',
    })
    if (built.status !== 0 || !existsSync(join(dir, 'dist')))
      throw new Error(`the build of ${rev} failed; see the compiler output above`)
  } catch (err) {
    remove()
    throw err
  }
  return { rev, commit, root: dir, remove }
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length

/**
 * Runs `run(codeRoot)` alternately on this code (codeRoot undefined) and on the prepared revision,
 * `rounds` times each; `run` answers the run's row (a failure as a row with its error). Answers the
 * pair againstTable reads; `unit` is what its rows measure: 'req/s' (a load) or 'alerts/s' (a drain).
 */
export async function alternate(name, unit, rounds, other, run) {
  const pair = { name, unit, ours: [], theirs: [] }
  for (let round = 0; round < rounds; round++) {
    for (const [side, codeRoot] of [
      ['ours', undefined],
      ['theirs', other.root],
    ]) {
      process.stdout.write(`running ${name} on ${side === 'ours' ? 'this code' : other.rev}…\n`)
      pair[side].push(await run(codeRoot))
    }
  }
  return pair
}

/** The comparison table: per target, each side's runs (req/s, p99; alerts/s end to end) and the ratios. */
export function againstTable(rev, pairs) {
  const fmt = (n) => Math.round(n).toLocaleString('en-US')
  const lines = [`this code against ${rev}, alternating runs (${pairs[0]?.ours.length ?? 0} each):`, '']
  for (const { name, unit, ours, theirs } of pairs) {
    const ok = (rows) => rows.filter((r) => !r.error)
    const [a, b] = [ok(ours), ok(theirs)]
    const errors = [...ours, ...theirs].filter((r) => r.error).map((r) => r.error.split('\n')[0])
    if (a.length === 0 || b.length === 0) {
      lines.push(`${name}: ERROR ${errors[0] ?? 'no run'}`)
      continue
    }
    if (unit === 'alerts/s') {
      // The worker drain: a queue emptied.
      const aps = (rows) => rows.map((r) => fmt(r.alertsPerSec)).join(', ')
      lines.push(
        `${name}: ${aps(a)} alerts/s against ${aps(b)} alerts/s: ` +
          `${(mean(a.map((r) => r.alertsPerSec)) / mean(b.map((r) => r.alertsPerSec))).toFixed(2)}×`,
      )
      for (const e of errors) lines.push(`  a run failed: ${e}`)
      continue
    }
    const rps = (rows) => rows.map((r) => fmt(r.reqPerSec)).join(', ')
    const p99 = (rows) => rows.map((r) => r.latencyMs.p99).join(', ')
    lines.push(
      `${name}: ${rps(a)} req/s (p99 ${p99(a)} ms) against ${rps(b)} req/s (p99 ${p99(b)} ms): ` +
        `${(mean(a.map((r) => r.reqPerSec)) / mean(b.map((r) => r.reqPerSec))).toFixed(2)}×`,
    )
    const e2e = (rows) => rows.filter((r) => r.endToEnd).map((r) => r.endToEnd.alertsPerSec)
    if (e2e(a).length > 0 && e2e(b).length > 0)
      lines.push(
        `  end to end: ${e2e(a).map(fmt).join(', ')} alerts/s against ${e2e(b).map(fmt).join(', ')}: ` +
          `${(mean(e2e(a)) / mean(e2e(b))).toFixed(2)}×`,
      )
    const cpu = (rows) => rows.filter((r) => r.cpuPerRequestUs).map((r) => r.cpuPerRequestUs)
    if (cpu(a).length > 0 && cpu(b).length > 0)
      lines.push(
        `  service CPU per request: ${cpu(a).map(fmt).join(', ')} µs against ${cpu(b).map(fmt).join(', ')} µs`,
      )
    for (const e of errors) lines.push(`  a run failed: ${e}`)
  }
  return lines.join('\n')
}
