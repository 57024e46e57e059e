// The workspace packages as a vendor gets them (docs/vendors.md#sdk-and-cli): `npm pack` of each,
// then `npm install` of the tarballs into an empty folder outside the repository. They are packed
// from a copy of their sources, beside links to the repository's node_modules (their prepack runs
// tsc), so that packing never rewrites the packages/*/dist a running suite imports.
import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

export interface Ran {
  code: number | null
  stdout: string
  stderr: string
}

/** The environment without what an outer `npm test` sets for its own npm (its prefix, workspace, …). */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_/i.test(k)) env[k] = v
  return { ...env, ...extra }
}

/** Runs a program to its end (killed after `timeoutMs`); never blocks this process's event loop. */
export function runProgram(
  command: string,
  args: string[],
  o: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: o.cwd,
      env: o.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 60_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

export interface PackedFile {
  name: string
  version: string
  filename: string
  /** Where the tarball is. */
  path: string
  files: string[]
}

const PACKAGES = { vendor: '@alertbridge/vendor', cli: '@alertbridge/vendor-cli' } as const

/** A copy of packages/vendor and packages/cli (sources, not dist/) that resolves like the workspace. */
function stage(root: string, into: string): void {
  cpSync(join(root, 'tsconfig.json'), join(into, 'tsconfig.json'))
  for (const dir of Object.keys(PACKAGES)) {
    const from = join(root, 'packages', dir)
    cpSync(from, join(into, 'packages', dir), {
      recursive: true,
      filter: (src) => !['dist', 'node_modules'].includes(relative(from, src)),
    })
  }
  const modules = join(root, 'node_modules')
  const staged = join(into, 'node_modules')
  mkdirSync(join(staged, '@alertbridge'), { recursive: true })
  for (const name of readdirSync(modules)) {
    if (name !== '@alertbridge') symlinkSync(join(modules, name), join(staged, name))
  }
  for (const [dir, name] of Object.entries(PACKAGES))
    symlinkSync(join(into, 'packages', dir), join(staged, name))
}

/** `npm pack` of the SDK then the CLI (each building its dist/ in prepack), tarballs into `dest`. */
export async function packBoth(root: string, dest: string): Promise<PackedFile[]> {
  const staging = mkdtempSync(join(tmpdir(), 'alertbridge-staged-'))
  try {
    stage(root, staging)
    const packed: PackedFile[] = []
    for (const dir of Object.keys(PACKAGES)) {
      const ran = await runProgram('npm', ['pack', '--json', '--pack-destination', dest], {
        cwd: join(staging, 'packages', dir),
        timeoutMs: 90_000,
      })
      if (ran.code !== 0) throw new Error(`npm pack of packages/${dir} failed:\n${ran.stderr}${ran.stdout}`)
      // The JSON array, whatever a script printed before it.
      const [info] = JSON.parse(ran.stdout.slice(ran.stdout.search(/^\[/m))) as {
        name: string
        version: string
        filename: string
        files: { path: string }[]
      }[]
      if (!info) throw new Error(`npm pack of packages/${dir} named no tarball:\n${ran.stdout}`)
      packed.push({ ...info, path: join(dest, info.filename), files: info.files.map((f) => f.path).sort() })
    }
    return packed
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

const OFFLINE = /E(NOTFOUND|AI_AGAIN|CONNREFUSED|CONNRESET|TIMEDOUT|NETUNREACH)|network|offline/i

/** An empty ES-module project in `dir` with the tarballs installed (their dependencies from the registry). */
export async function installTarballs(dir: string, tarballs: string[]): Promise<void> {
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'vendor-app', private: true, type: 'module' }),
  )
  const ran = await runProgram(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', ...tarballs],
    { cwd: dir, timeoutMs: 120_000 },
  )
  if (ran.code === 0) return
  if (OFFLINE.test(ran.stderr))
    throw new Error(
      'npm install of the packed SDK and CLI needs the npm registry for their dependencies ' +
        `(openapi-fetch, standardwebhooks), and could not reach it (CI has it). npm said:\n${ran.stderr}`,
    )
  throw new Error(`npm install of the tarballs failed:\n${ran.stderr}${ran.stdout}`)
}

/**
 * A TypeScript consumer of the installed packages, compiled by the repository's tsc as a vendor's
 * project would (strict, NodeNext): the exports' declarations resolve, and they refuse what they must.
 */
export function typecheckConsumer(root: string, app: string): Promise<Ran> {
  writeFileSync(
    join(app, 'consumer.ts'),
    `import { VendorClient, verifyWebhook, type AlertResult } from '@alertbridge/vendor'
import { run } from '@alertbridge/vendor-cli'
const ab = new VendorClient({ baseUrl: 'http://localhost:8080', clientId: 'id', clientSecret: 'secret' })
export const opened: Promise<AlertResult> = ab.open({ title: 't', summary: 's', alertType: 'a', accountId: 'x', productGroup: 'p' })
export const used = [verifyWebhook, run]
// @ts-expect-error the base URL is a string
new VendorClient({ baseUrl: 8080, clientId: 'id', clientSecret: 'secret' })
// @ts-expect-error an alert without its title
ab.open({ summary: 's', alertType: 'a', accountId: 'x', productGroup: 'p' })
`,
  )
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
  const options = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--lib', 'es2023']
  const types = ['--typeRoots', join(root, 'node_modules', '@types'), '--types', 'node']
  return runProgram(process.execPath, [tsc, ...options, ...types, 'consumer.ts'], {
    cwd: app,
    timeoutMs: 120_000,
  })
}
