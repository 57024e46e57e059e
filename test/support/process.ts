// Runs the real server process (src/main/server.ts, see `entry`) with a chosen environment: either until it
// listens (then the test talks HTTP to it and stops it), or until it exits (a start that must fail).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The repository: where the tests run from (`npm test` runs them there, compiled or not). */
export const root = process.cwd()

function newestMtime(dir: string): number {
  let newest = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name)
    newest = Math.max(newest, e.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs)
  }
  return newest
}

let built: boolean | undefined
/**
 * The arguments of `node` that run one of the service's entry points, `src/<path>.ts`: its build in
 * dist/ when that is at least as new as every file of src/ (`npm run build`, as CI does before the
 * tests; the same rule as `npm start`), else the sources through tsx. A process starts in about half
 * the CPU time from the build, and the tests start many.
 */
export function entry(path: string): string[] {
  if (built === undefined) {
    const stamp = join(root, 'dist', '.tsbuildinfo')
    built = existsSync(stamp) && newestMtime(join(root, 'src')) <= statSync(stamp).mtimeMs
  }
  return built ? [join('dist', `${path}.js`)] : ['--import', 'tsx', `src/${path}.ts`]
}

export interface Running {
  child: ChildProcess
  url: string
  /** stdout and stderr so far. */
  output(): string
  /** Waits until the output matches (a log line), or fails after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** SIGTERM; answers the exit code. */
  stop(): Promise<number | null>
}

/** The environment every started process gets, before the test's own variables. */
function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env }
  // The test decides every variable of the service; none leaks in from the shell running the tests.
  for (const name of [
    'SECRET_KEY',
    'SECRET_KEY_PREVIOUS',
    'ADMIN_TOKEN',
    'DATABASE_URL',
    'REDIS_URL',
    'REDIS_PREFIX',
    'DEMO',
  ])
    delete inherited[name]
  return { ...inherited, PORT: '0', LOG_LEVEL: 'warn', ...env }
}

export function startServer(
  env: Record<string, string>,
  timeoutMs = 40_000,
  /** Command-line arguments of the service (`--demo`, `--role=worker`). */
  args: string[] = [],
): Promise<Running> {
  const child = spawn(process.execPath, [...entry('main/server'), ...args], {
    cwd: root,
    env: baseEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const listeners = new Set<() => void>()
  const append = (chunk: unknown) => {
    output += String(chunk)
    for (const l of listeners) l()
  }
  child.stdout!.on('data', append)
  child.stderr!.on('data', append)
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no banner within ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    const onOutput = () => {
      const m = /listening on (http:\/\/\S+)/.exec(output)
      if (!m) return
      listeners.delete(onOutput)
      clearTimeout(timer)
      resolve({
        child,
        url: m[1]!,
        output: () => output,
        waitForOutput(pattern, waitMs = 30_000) {
          return new Promise((ok, fail) => {
            const t = setTimeout(() => {
              listeners.delete(check)
              fail(new Error(`no ${pattern} in the output within ${waitMs} ms:\n${output}`))
            }, waitMs)
            const check = () => {
              if (!pattern.test(output)) return
              listeners.delete(check)
              clearTimeout(t)
              ok()
            }
            listeners.add(check)
            check()
          })
        },
        async stop() {
          child.kill('SIGTERM')
          return exited
        },
      })
    }
    listeners.add(onOutput)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
}

/** Starts the process expecting it to refuse: answers its exit code and everything it printed. */
export function failedStart(
  env: Record<string, string>,
  timeoutMs = 40_000,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return runToExit('main/server', args, baseEnv(env), timeoutMs)
}

/**
 * Runs an entry point (`src/<path>.ts`, see `entry`) until it exits: its exit code and everything it
 * printed. With `timeoutMs`, a process still running then is killed and the promise rejects.
 */
export function runToExit(
  path: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs?: number,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...entry(path), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (c) => {
    output += String(c)
  })
  child.stderr.on('data', (c) => {
    output += String(c)
  })
  return new Promise((resolve, reject) => {
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            child.kill('SIGKILL')
            reject(new Error(`the process did not exit within ${timeoutMs} ms:\n${output}`))
          }, timeoutMs)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

export { postgresDatabase } from './service.js'

/** A new random SECRET_KEY. */
export const newKey = (): string => randomBytes(32).toString('base64')

/** A stack trace's frame lines ("    at f (file:1:2)"). */
export const stackFrame = /^\s+at .+[:(]/m
