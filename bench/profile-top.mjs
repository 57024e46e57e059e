// `node bench/profile-top.mjs <file.cpuprofile> [n]`: the n (default 10) frames with the most self
// time in a CPU profile that `node --cpu-prof` wrote (BENCH_PROFILE_DIR makes the bench's services
// write one each): the tables of docs/performance.md. Frames are merged by function, file and line;
// the idle and garbage-collector pseudo-frames are listed like the others.
import { readFileSync } from 'node:fs'
import { relative } from 'node:path'

const [file, count = '10'] = process.argv.slice(2)
if (!file) {
  process.stderr.write('usage: node bench/profile-top.mjs <file.cpuprofile> [n]\n')
  process.exit(2)
}
const profile = JSON.parse(readFileSync(file, 'utf8'))
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const self = new Map()
// timeDeltas[i] is the time before samples[i]: each sample's node gets the delta that follows it.
for (let i = 0; i < profile.samples.length; i++) {
  const node = byId.get(profile.samples[i])
  const dt = profile.timeDeltas[i + 1] ?? 0
  const f = node.callFrame
  const where = f.url ? `${relative(process.cwd(), f.url.replace('file://', ''))}:${f.lineNumber + 1}` : ''
  const key = `${f.functionName || '(anonymous)'} ${where}`.trim()
  self.set(key, (self.get(key) ?? 0) + dt)
}
const total = [...self.values()].reduce((a, b) => a + b, 0)
const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(count))
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n`)
for (const [key, us] of top)
  process.stdout.write(`${((us / total) * 100).toFixed(1).padStart(5)} %  ${key}\n`)
