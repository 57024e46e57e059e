// Runs a document's fenced blocks as a reader would (docs/development.md#documents-that-run): cuts them
// out in order with their info strings, runs `sh` blocks through bash in one working directory, and
// checks what a block's `# → …` comments and `# the receiver prints: …` lines promise.
import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'

/** A fenced block: its language, the words after it (`file=verify.mjs`, `no-run`, `env`), its text. */
export interface Block {
  /** The name of a `<!-- snippet: name -->` marker just before the fence (test/webhooks/sender.guide-snippets.test.ts runs those). */
  snippet: string | null
  lang: string
  words: string[]
  code: string
  /** The line of the opening fence, 1-based, for messages. */
  line: number
}

export function blocks(markdown: string): Block[] {
  const found: Block[] = []
  const fence = /^```([^\n]*)\n([\s\S]*?)^```\s*$/gm
  for (const m of markdown.matchAll(fence)) {
    const [lang = '', ...words] = m[1]!.trim().split(/\s+/)
    const before = markdown.slice(0, m.index).trimEnd()
    const snippet = /<!-- snippet: (\S+) -->$/.exec(before)?.[1] ?? null
    found.push({ snippet, lang, words, code: m[2]!, line: before.split('\n').length + 1 })
  }
  return found
}

/** `file=NAME` of a block's info string, or null. */
export const fileOf = (b: Block): string | null =>
  b.words.find((w) => w.startsWith('file='))?.slice('file='.length) ?? null

/**
 * The `# → [status] <json>` promises of a sh block, in order: the JSON values its commands print (a
 * status is the answer's `statusCode`).
 */
export function promisedAnswers(code: string): Record<string, unknown>[] {
  return [...code.matchAll(/^#\s*→\s*(\d{3}\s+)?(\{.*\})\s*$/gm)].map((m) => {
    const body = JSON.parse(m[2]!) as Record<string, unknown>
    return m[1] ? { statusCode: Number(m[1].trim()), ...body } : body
  })
}

/** The `# the receiver prints: …` promises of a sh block. */
export function promisedPrints(code: string): string[] {
  return [...code.matchAll(/^#\s*the receiver prints:\s*(.+?)\s*$/gm)].map((m) => m[1]!)
}

/** A promise with `…` (anything there) as a pattern. */
export function printPattern(promise: string): RegExp {
  const parts = promise.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(parts.join('\\S+'))
}

/** Back-to-back JSON values as `curl -s` prints them (no separator needed). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = []
  let depth = 0
  let start = -1
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"' && depth > 0) inString = true
    else if (c === '{') {
      if (depth === 0) start = i
      depth++
    } else if (c === '}' && depth > 0) {
      depth--
      if (depth === 0) values.push(JSON.parse(text.slice(start, i + 1)))
    }
  }
  return values
}

/**
 * Whether `actual` has every field `promised` names, with its value; `"…"` stands for any non-empty
 * value, and within a string (`"msg_…"`) for any run of non-blank characters.
 */
export function fits(promised: unknown, actual: unknown): boolean {
  if (promised === '…') return actual !== undefined && actual !== null && actual !== ''
  if (typeof promised === 'string' && promised.includes('…'))
    return typeof actual === 'string' && new RegExp(`^${printPattern(promised).source}$`).test(actual)
  if (typeof promised !== 'object' || promised === null) return promised === actual
  if (typeof actual !== 'object' || actual === null) return false
  return Object.entries(promised).every(([k, v]) => fits(v, (actual as Record<string, unknown>)[k]))
}

/**
 * A bash file for BASH_ENV: `curl` as the reader's, which also notes each answer's HTTP status and body
 * in $CURL_LOG (a `# → 201 …` promise is checked against the status of the answer it printed).
 */
export const curlNotes = `curl() {
  local out code
  out=$(command curl -w '\\n%{http_code}' "$@") || return $?
  code=\${out##*$'\\n'}
  out=\${out%$'\\n'*}
  printf '%s' "$out"
  printf '%s %s\\n' "$code" "$(printf '%s' "$out" | tr -d '\\n')" >> "$CURL_LOG"
}
`

/** The statuses `curlNotes` noted, by the answer's body. */
export function notedStatuses(log: string): { status: number; body: string }[] {
  return log
    .split('\n')
    .filter((l) => /^\d{3} /.test(l))
    .map((l) => ({ status: Number(l.slice(0, 3)), body: l.slice(4) }))
}

/** A bash run of one block: what it printed, its exit code; background jobs it left keep `rest`. */
export interface ShRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs a block with `bash -e`, in its own process group (so that the jobs it starts in the background,
 * `node receiver.mjs &`, can be stopped with `stopGroups`). Answers when bash exits; output printed
 * later by its background jobs goes to `background`.
 */
export function runSh(
  code: string,
  o: { cwd: string; env: NodeJS.ProcessEnv; background: { text: string }; groups: ChildProcess[] },
): Promise<ShRun> {
  const child = spawn('bash', ['-e', '-c', code], {
    cwd: o.cwd,
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  o.groups.push(child)
  let stdout = ''
  let stderr = ''
  let exited = false
  child.stdout!.on('data', (c) => {
    if (exited) o.background.text += String(c)
    else stdout += String(c)
  })
  child.stderr!.on('data', (c) => {
    if (exited) o.background.text += String(c)
    else stderr += String(c)
  })
  return new Promise((resolve) => {
    child.on('exit', (status) => {
      // Let the pipes hand over what bash printed before it exited.
      setImmediate(() => {
        exited = true
        resolve({ code: status, stdout, stderr })
      })
    })
  })
}

/** Stops every process group runSh started (the background jobs of the blocks). */
export function stopGroups(groups: ChildProcess[]): void {
  for (const g of groups) {
    try {
      if (g.pid) process.kill(-g.pid, 'SIGTERM')
    } catch {
      // Already gone.
    }
  }
}

/** The JSON values a block printed against its `# →` promises, in order, one each. */
export function assertAnswers(
  block: Block,
  run: ShRun,
  noted: { status: number; body: string }[] = [],
): void {
  const promised = promisedAnswers(block.code)
  const printed = jsonValues(run.stdout)
  assert.equal(
    printed.length,
    promised.length,
    `block at line ${block.line}: ${promised.length} answers promised, ${printed.length} printed:\n${run.stdout}`,
  )
  promised.forEach((p, i) => {
    if (typeof p.statusCode === 'number' && !('statusCode' in (printed[i] as object))) {
      const answer = noted.find((n) => fits(printed[i], safeJson(n.body)))
      assert.equal(answer?.status, p.statusCode, `block at line ${block.line}: answer ${i + 1}'s status`)
      const { statusCode: _, ...body } = p
      p = body
    }
    assert.ok(
      fits(p, printed[i]),
      `block at line ${block.line}: answer ${i + 1} is not ${JSON.stringify(p)}: ${JSON.stringify(printed[i])}`,
    )
  })
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
