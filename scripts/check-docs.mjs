// `npm run check:docs`: the repository's documents hold together and cite only what is in it.
//   1. Every relative Markdown link in README.md, docs/**/*.md and packages/*/README.md names a file that exists and, for
//      a Markdown file, a heading anchor it has (GitHub's slugs, duplicates suffixed -1, -2, …; an
//      explicit <a id="…"> or <a name="…"> counts too).
//   2. No comment, string or document in src/, test/, scripts/, bench/, web/src/, packages/, docs/, README.md or
//      the build files (.ci/, compose.yaml, Dockerfile, biome.json, .dependency-cruiser.cjs) cites
//      something outside the repository: the old design and interface papers, their section numbers,
//      the reference notes, issue numbers, or ../shared/.
//   3. Every `docs/….md` or `docs/….md#anchor` that code names exists, with the anchor.
// Prints file:line for each problem and exits 1 if there is any. Plain Node, no dependencies.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const self = relative(root, fileURLToPath(import.meta.url))

const DOC_ROOTS = ['README.md', 'docs', 'packages']
const CITE_ROOTS = [
  'src',
  'test',
  'scripts',
  'bench',
  'web/src',
  'packages',
  'docs',
  'README.md',
  '.ci',
  'compose.yaml',
  'Dockerfile',
  'biome.json',
  '.dependency-cruiser.cjs',
]
/** Text files by name: a known extension, or none at all (.ci/run, Dockerfile). */
const TEXT_FILE = /(\.(md|ts|tsx|mts|cts|js|mjs|cjs|json|css|html|yaml|yml|sh|sql|txt)|(^|\/)[^./]+)$/
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'data', 'screenshots'])

/** Citations of what is not in the repository. This file itself is not scanned. */
const OUTSIDE = [
  [/\.\.\/shared\b/, 'the ../shared folder'],
  [/\bDESIGN(\.md)?\s*§/, 'a DESIGN section'],
  [/\bDESIGN\.md\b/, 'DESIGN.md'],
  [/\b[Ss]pec\s*§/, 'a section of the interface spec'],
  [/\b[Rr]eference\s*§/, 'a section of a shared reference note'],
  [/\binterface\.md\b/, 'the interface spec'],
  [/\b(psa-apis|msp-integrations|STYLE)\.md\b/, 'a shared reference note'],
  [/\breference\/webhooks\.md\b/, 'a shared reference note'],
  [/\b[Ii]ssue\s+[0-9]+/, 'an issue number'],
  [/(?<!\bRFC[ -]?\d+\s*)§\s*\d/, 'a section number without its document (name an RFC as "RFC N §x")'],
]

const problems = []
const report = (file, line, message) => problems.push(`${file}:${line}: ${message}`)

function walk(path, into) {
  const abs = join(root, path)
  if (!existsSync(abs)) return into
  const stat = statSync(abs)
  if (stat.isFile()) {
    into.push(path)
    return into
  }
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(join(path, entry.name), into)
    } else if (entry.isFile()) {
      into.push(join(path, entry.name))
    }
  }
  return into
}

const toPosix = (path) => path.split(sep).join('/')

// ── Markdown: headings, anchors, links ─────────────────────────────────────────────────────────

/** The lines of a Markdown file with fenced code blocks blanked, so neither headings nor links are read there. */
function proseLines(text) {
  const lines = text.split('\n')
  let fence = null
  return lines.map((line) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (fence) {
      if (
        open &&
        open[1][0] === fence[0] &&
        open[1].length >= fence.length &&
        !/\S/.test(line.slice(open[0].length))
      )
        fence = null
      return ''
    }
    if (open) {
      fence = open[1]
      return ''
    }
    return line
  })
}

/** The text a heading renders to, as far as the slug is concerned. */
function headingText(raw) {
  return raw
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_]+)[*_](?=[^\w*]|$)/g, '$1$2')
    .trim()
}

/** GitHub's heading slug: lower case, punctuation dropped (letters, digits, `_`, `-` and spaces kept), spaces → '-'. */
function slug(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

const anchorCache = new Map()

/** Every anchor a Markdown file offers: its headings' slugs (with GitHub's -1, -2 for repeats) and explicit ids. */
function anchorsOf(path) {
  let anchors = anchorCache.get(path)
  if (anchors) return anchors
  anchors = new Set()
  const seen = new Map()
  const lines = proseLines(readFileSync(join(root, path), 'utf8'))
  const add = (text) => {
    const base = slug(headingText(text))
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line)
    if (atx) add(atx[1] ?? '')
    else if (i > 0 && /^ {0,3}(=+|-+)[ \t]*$/.test(line)) {
      // A setext heading: the paragraph line above an underline of = or -.
      const prev = lines[i - 1]
      if (prev.trim() !== '' && !/^ {0,3}(#|>|[-*+] |\d+[.)] |\||<|(=+|-+)[ \t]*$)/.test(prev)) add(prev)
    }
    for (const m of line.matchAll(/<a\s+[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1])
  })
  anchorCache.set(path, anchors)
  return anchors
}

/** Inline links and images, [text](target) or [text](<target> "title"), outside code spans. */
function* linksIn(line) {
  const bare = line.replace(/(`+)(?:(?!\1).)+\1/g, (code) => ' '.repeat(code.length))
  for (const m of bare.matchAll(
    /!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
  )) {
    yield m[1].replace(/^<|>$/g, '')
  }
  for (const m of bare.matchAll(/^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/g)) {
    yield m[1].replace(/^<|>$/g, '')
  }
}

/**
 * Checks that `target` (relative to `fromDir`) names an existing file and, in Markdown, an existing anchor.
 * `what` says how the problem is worded: a Markdown link, or a path named in code.
 */
function checkTarget(file, line, fromDir, target, what = 'link') {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return // a URL
  const hash = target.indexOf('#')
  const pathPart = hash < 0 ? target : target.slice(0, hash)
  const anchor = hash < 0 ? null : target.slice(hash + 1)
  let decoded
  try {
    decoded = decodeURIComponent(pathPart.split('?')[0])
  } catch {
    report(file, line, `${what} ${target}: not a valid URL path`)
    return
  }
  const targetPath = decoded === '' ? file : toPosix(relative(root, resolve(root, fromDir, decoded)))
  if (targetPath.startsWith('..')) {
    report(file, line, `${what} ${target}: points outside the repository`)
    return
  }
  const abs = join(root, targetPath)
  if (!existsSync(abs)) {
    report(file, line, `${what} ${target}: ${targetPath} does not exist`)
    return
  }
  if (anchor === null || anchor === '' || !targetPath.endsWith('.md') || !statSync(abs).isFile()) return
  let wanted = anchor
  try {
    wanted = decodeURIComponent(anchor)
  } catch {}
  const anchors = anchorsOf(targetPath)
  if (!anchors.has(wanted) && !anchors.has(wanted.toLowerCase())) {
    report(file, line, `${what} ${target}: ${targetPath} has no heading or anchor "#${wanted}"`)
  }
}

const docs = DOC_ROOTS.flatMap((path) => walk(path, []))
  .filter((path) => path.endsWith('.md'))
  .map(toPosix)
for (const file of docs) {
  const lines = proseLines(readFileSync(join(root, file), 'utf8'))
  lines.forEach((text, i) => {
    for (const target of linksIn(text)) checkTarget(file, i + 1, dirname(file), target)
  })
}

// ── Citations ───────────────────────────────────────────────────────────────────────────────────

const citing = CITE_ROOTS.flatMap((path) => walk(path, []))
  .map(toPosix)
  .filter((path) => TEXT_FILE.test(path) && path !== toPosix(self))
for (const file of citing) {
  const text = readFileSync(join(root, file), 'utf8')
  const lines = text.split('\n')
  lines.forEach((line, i) => {
    for (const [pattern, what] of OUTSIDE) {
      const m = pattern.exec(line)
      if (m) {
        report(file, i + 1, `cites ${what} ("${m[0]}"), which is not in the repository: cite docs/ instead`)
        break
      }
    }
    // A docs/….md the line names must exist, with its anchor (a Markdown link was checked above).
    if (file.endsWith('.md')) return
    for (const m of line.matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md(?:#[\w-]+)?/g)) {
      checkTarget(file, i + 1, '.', m[0], 'names')
    }
  })
}

if (problems.length > 0) {
  process.stderr.write(`${problems.join('\n')}\n\ncheck:docs: ${problems.length} problem(s)\n`)
  process.exit(1)
}
process.stdout.write(`check:docs: ${docs.length} documents and ${citing.length} files hold together\n`)
