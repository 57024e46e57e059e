// The vendor guide's signature snippets (docs/vendors.md#verifying-signatures) are run as they are
// written there: each is cut from the page, given a small harness, and must accept what alertbridge's
// sender signs (src/webhooks/sender.ts signs with the same `standardwebhooks` library used here),
// accept a rotation's double signature, and refuse a changed body, an old timestamp, a wrong secret
// and a missing signature. Node and Python always run; Go, PowerShell and C# run where the machine has
// them (`go`, `pwsh`, `dotnet`), else the test says it was skipped. The page's event table is checked
// against the catalogue the OpenAPI document is built from (src/webhooks/event-types.ts).
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { Webhook } from 'standardwebhooks'
import { eventTypeList } from '../../src/webhooks/event-types.js'

const root = process.cwd()
const guide = readFileSync(join(root, 'docs', 'vendors.md'), 'utf8')

/** The fenced block after `<!-- snippet: name -->`. */
function snippet(name: string): string {
  const at = guide.indexOf(`<!-- snippet: ${name} -->`)
  assert.ok(at >= 0, `docs/vendors.md has no snippet ${name}`)
  const block = /```[^\n]*\n([\s\S]*?)```/.exec(guide.slice(at))
  assert.ok(block, `snippet ${name} has no code block`)
  return block[1]!
}

const has = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0

interface Case {
  name: string
  secret: string
  headers: Record<string, string>
  body: string
  valid: boolean
}

/** What the sender sends, and what must be refused. */
function cases(): Case[] {
  const secret = `whsec_${randomBytes(32).toString('base64')}`
  const other = `whsec_${randomBytes(32).toString('base64')}`
  const body = JSON.stringify({
    module: 'alerts',
    eventType: 'status_update',
    payload: { event: 'Ticket Created', title: 'Café ☃ — naïve' },
  })
  const id = 'msg_0193a5b47f0070008000000000000001'
  const now = new Date()
  const sign = (s: string, at: Date, b = body) => new Webhook(s).sign(id, at, b)
  const headers = (signature: string, at = now) => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  })
  const old = new Date(now.getTime() - 10 * 60 * 1000)
  return [
    { name: 'signed as the sender signs', secret, headers: headers(sign(secret, now)), body, valid: true },
    {
      name: 'during a rotation: the new secret first, the old one second',
      secret,
      headers: headers(`${sign(other, now)} ${sign(secret, now)}`),
      body,
      valid: true,
    },
    {
      name: 'the body changed',
      secret,
      headers: headers(sign(secret, now)),
      body: body.replace('Created', 'Closed'),
      valid: false,
    },
    { name: 'ten minutes old', secret, headers: headers(sign(secret, old), old), body, valid: false },
    { name: 'signed with another secret', secret, headers: headers(sign(other, now)), body, valid: false },
    { name: 'no v1 signature', secret, headers: headers('v2,abc'), body, valid: false },
  ]
}

mkdirSync(join(root, '.tmp'), { recursive: true })
const work = mkdtempSync(join(root, '.tmp', 'guide-'))
after(() => rmSync(work, { recursive: true, force: true }))

/** Runs a harness that reads the cases as JSON on stdin and prints one true/false per case. */
function runHarness(command: string, args: string[], all: Case[], cwd = work): boolean[] {
  const out = execFileSync(command, args, {
    cwd,
    input: JSON.stringify(all),
    encoding: 'utf8',
    env: {
      ...process.env,
      GOCACHE: join(work, 'gocache'),
      GOPATH: join(work, 'gopath'),
      GOFLAGS: '-mod=mod',
    },
  })
  return out
    .trim()
    .split(/\s+/)
    .map((v) => v.toLowerCase() === 'true')
}

function expectVerdicts(all: Case[], verdicts: boolean[]) {
  assert.equal(verdicts.length, all.length)
  for (const [i, c] of all.entries()) assert.equal(verdicts[i], c.valid, c.name)
}

describe('the vendor guide’s signature snippets', () => {
  test('Node, without a library', async () => {
    const file = join(work, 'verify.mjs')
    writeFileSync(file, snippet('node'))
    const { verifyWebhook } = await import(pathToFileURL(file).href)
    for (const c of cases()) {
      const verdict = (() => {
        try {
          const event = verifyWebhook(c.secret, c.headers, Buffer.from(c.body))
          assert.deepEqual(event, JSON.parse(c.body))
          return true
        } catch {
          return false
        }
      })()
      assert.equal(verdict, c.valid, c.name)
    }
  })

  test('Node, with the standardwebhooks library', async () => {
    const file = join(work, 'verify-library.mjs')
    writeFileSync(file, snippet('node-library'))
    const { verifyWithLibrary } = await import(pathToFileURL(file).href)
    for (const c of cases()) {
      const verdict = (() => {
        try {
          verifyWithLibrary(c.secret, c.headers, Buffer.from(c.body))
          return true
        } catch {
          return false
        }
      })()
      assert.equal(verdict, c.valid, c.name)
    }
  })

  test('Python, standard library only', () => {
    const python = ['python3', 'python'].find((p) => has(p, ['--version']))
    assert.ok(python, 'Python is on every machine the tests run on')
    writeFileSync(
      join(work, 'verify_snippet.py'),
      `${snippet('python')}
import sys
for c in json.load(sys.stdin):
    try:
        event = verify_webhook(c["secret"], c["headers"], c["body"].encode())
        print("true" if event == json.loads(c["body"]) else "false")
    except (ValueError, KeyError):
        print("false")
`,
    )
    const all = cases()
    expectVerdicts(all, runHarness(python, ['verify_snippet.py'], all))
  })

  test('Go', { skip: has('go', ['version']) ? false : 'go is not installed here' }, () => {
    const dir = join(work, 'go')
    mkdirSync(join(dir, 'webhooks'), { recursive: true })
    writeFileSync(join(dir, 'go.mod'), 'module snippet\n\ngo 1.19\n')
    writeFileSync(join(dir, 'webhooks', 'verify.go'), snippet('go'))
    writeFileSync(
      join(dir, 'main.go'),
      `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"snippet/webhooks"
)

type testCase struct {
	Secret  string            \`json:"secret"\`
	Headers map[string]string \`json:"headers"\`
	Body    string            \`json:"body"\`
}

func main() {
	var cases []testCase
	if err := json.NewDecoder(os.Stdin).Decode(&cases); err != nil {
		panic(err)
	}
	for _, c := range cases {
		err := webhooks.Verify(c.Secret, c.Headers["webhook-id"], c.Headers["webhook-timestamp"], c.Headers["webhook-signature"], []byte(c.Body))
		fmt.Println(err == nil)
	}
}
`,
    )
    const all = cases()
    expectVerdicts(all, runHarness('go', ['run', '.'], all, dir))
  })

  test('PowerShell', { skip: has('pwsh', ['-v']) ? false : 'pwsh is not installed here' }, () => {
    writeFileSync(
      join(work, 'verify.ps1'),
      `${snippet('powershell')}
$cases = [Console]::In.ReadToEnd() | ConvertFrom-Json
foreach ($c in $cases) {
  $ok = Test-AlertbridgeWebhook -Secret $c.secret -Id $c.headers.'webhook-id' -Timestamp $c.headers.'webhook-timestamp' -Signatures $c.headers.'webhook-signature' -RawBody ([System.Text.Encoding]::UTF8.GetBytes($c.body))
  Write-Output ($ok.ToString().ToLower())
}
`,
    )
    const all = cases()
    expectVerdicts(all, runHarness('pwsh', ['-NoProfile', '-File', 'verify.ps1'], all))
  })

  test('C#', { skip: has('dotnet', ['--version']) ? false : 'dotnet is not installed here' }, () => {
    const dir = join(work, 'csharp')
    mkdirSync(dir, { recursive: true })
    execFileSync('dotnet', ['new', 'console', '--force', '-o', dir], { stdio: 'ignore' })
    writeFileSync(join(dir, 'Verify.cs'), snippet('csharp'))
    writeFileSync(
      join(dir, 'Program.cs'),
      `using System.Text;
using System.Text.Json;
var cases = JsonDocument.Parse(Console.In.ReadToEnd()).RootElement;
foreach (var c in cases.EnumerateArray()) {
  var h = c.GetProperty("headers");
  Console.WriteLine(AlertbridgeWebhook.Verify(c.GetProperty("secret").GetString()!, h.GetProperty("webhook-id").GetString()!,
    h.GetProperty("webhook-timestamp").GetString()!, h.GetProperty("webhook-signature").GetString()!,
    Encoding.UTF8.GetBytes(c.GetProperty("body").GetString()!)) ? "true" : "false");
}
`,
    )
    const all = cases()
    expectVerdicts(all, runHarness('dotnet', ['run', '--project', dir], all))
  })
})

describe('the vendor guide’s event table', () => {
  test('names every event of the catalogue, and no other', () => {
    const table = guide.slice(guide.indexOf('<!-- catalogue:'))
    const rows = [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!)
    const catalogued = eventTypeList.filter((e) => e.eventType === 'status_update').map((e) => e.event)
    assert.deepEqual([...rows].sort(), [...catalogued].sort())
  })
})
