// `npm run check:tests`: every test file names the source file it tests by its path
// (docs/development.md#where-a-test-lives). Under test/, outside test/support/:
//   test/<path>/<name>.test.ts            tests src/<path>/<name>.ts (or .tsx)
//   test/<path>/<name>.<aspect>.test.ts   one aspect of the same file (e.g. executor.batched-drain)
//   test/web/<path>/<Name>…test.ts        web/src/<path>/<Name>.tsx (or .ts): the portal
//   test/packages/<pkg>/<path>/<name>…    packages/<pkg>/src/<path>/<name>.ts: the vendor SDK and CLI
//   test/docs/<path>/<name>…test.ts       docs/<path>/<name>.md: a document whose blocks run; test/docs/README…
//                                         is the repository's README.md (docs/development.md#documents-that-run)
// (a declaration file counts as the source: test/web/api/schema.test.ts tests web/src/api/schema.d.ts).
// Every other file there is an offender too: shared helpers live in test/support/, the one support
// folder, where a test of a helper (the PSA simulators' own tests) names a file beside it the same way.
// Prints each offender and exits 1 if there is any. Plain Node, no dependencies.
import { existsSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const TEST = /^(?<name>[^.]+)(\.[^.]+)*\.test\.ts$/
const EXTENSIONS = ['.ts', '.tsx', '.d.ts']

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    return e.isDirectory() ? walk(path) : [relative(root, path).replaceAll('\\', '/')]
  })
}

/** Where the source a test file names lives, or why it names none. */
function subject(file) {
  const parts = file.split('/').slice(1) // without test/
  const base = parts.pop()
  const match = TEST.exec(base)
  if (!match) return { problem: 'not a test file (*.test.ts): helpers belong in test/support/' }
  const { name } = match.groups
  let dir
  if (parts[0] === 'support') dir = join('test', ...parts)
  else if (parts[0] === 'web') dir = join('web', 'src', ...parts.slice(1))
  else if (parts[0] === 'packages') dir = join('packages', parts[1] ?? '', 'src', ...parts.slice(2))
  else dir = join('src', ...parts)
  const candidates =
    parts[0] === 'docs'
      ? [
          join('docs', ...parts.slice(1), `${name}.md`),
          ...(parts.length === 1 && name === 'README' ? ['README.md'] : []),
        ]
      : EXTENSIONS.map((ext) => join(dir, name + ext))
  for (const [i, c] of candidates.entries()) candidates[i] = c.replaceAll('\\', '/')
  const found = candidates.find((c) => existsSync(join(root, c)))
  return found ? { source: found } : { problem: `names no source file (looked for ${candidates.join(', ')})` }
}

const offenders = []
for (const file of walk(join(root, 'test'))) {
  if (file.startsWith('test/support/') && !file.endsWith('.test.ts')) continue
  const { problem } = subject(file)
  if (problem) offenders.push(`${file}: ${problem}`)
}
if (offenders.length > 0) {
  console.error(`check:tests: ${offenders.length} file(s) under test/ name no source path:`)
  for (const o of offenders) console.error(`  ${o}`)
  process.exit(1)
}
