// The Maintenance screen in headless Chromium (docs/partner-api.md#maintenance-windows): an admin adds
// a recurring window and sees its next start, sees a one-off window made through the API as active now,
// and deletes one; a viewer sees the list without the buttons; an admin edits a window's name and time
// in the same form, filled in; the dashboard lists the windows of its period under the chart and shades
// the hours they cover.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Browser } from 'playwright-core'
import { browserSkip, launchBrowser, openPortal, portalUser, signInPage } from '../../support/browser.js'
import { type Setup, setupIntegration } from '../../support/fixtures.js'
import { startService, type TestService } from '../../support/service.js'

describe('the portal lists, adds and deletes maintenance windows', { skip: browserSkip }, () => {
  let svc: TestService
  let browser: Browser
  let s: Setup
  before(async () => {
    browser = await launchBrowser()
    svc = await startService()
    s = await setupIntegration(svc)
  })
  after(async () => {
    await browser?.close()
    await svc?.close()
  })
  const path = () => `/api/partner/integrations/${s.integrationId}/maintenance-windows`

  test('add a recurring window, see an active one, delete it', async () => {
    const now = Date.now()
    const made = await s.partner('POST', path(), {
      name: 'Firewall swap',
      startsAt: new Date(now - 60_000).toISOString(),
      endsAt: new Date(now + 3_600_000).toISOString(),
    })
    assert.equal(made.status, 201, made.text)
    const admin = await portalUser(svc, s.partnerId, 'admin')
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/integrations/${s.integrationId}/maintenance`)
      await page.getByRole('heading', { level: 1, name: 'Maintenance' }).waitFor()
      const swap = page.getByRole('row', { name: 'window Firewall swap' })
      await swap.getByText(/active until/).waitFor()

      await page.getByRole('button', { name: 'Add a window' }).click()
      const form = page.getByRole('form', { name: 'New maintenance window' })
      await form.getByLabel('Name').fill('Sunday patching')
      await form.getByLabel('Time zone').fill('Europe/Berlin')
      await form.getByLabel('During the window').selectOption('hold')
      await form.getByRole('button', { name: 'Add window' }).click()
      const sunday = page.getByRole('row', { name: 'window Sunday patching' })
      await sunday.getByText('not active').waitFor()
      await sunday.getByText(/hold/).waitFor()
      const listed = await s.partner('GET', path())
      const created = listed.body.data.find((w: { name: string }) => w.name === 'Sunday patching')
      assert.equal(created.mode, 'hold')
      assert.equal(created.recurrence.rrule, 'FREQ=WEEKLY;BYDAY=SU')
      assert.ok(created.nextStart)

      // A bad rule: the service's sentence, nothing added.
      await page.getByRole('button', { name: 'Add a window' }).click()
      await form.getByLabel('Name').fill('Broken')
      await form.getByLabel('Recurrence (RRULE)').fill('FREQ=SOMETIMES')
      await form.getByRole('button', { name: 'Add window' }).click()
      await form.getByRole('alert').getByText(/rrule/).waitFor()
      await form.getByRole('button', { name: 'Cancel' }).click()

      await swap.getByRole('button', { name: 'Delete Firewall swap' }).click()
      await swap.waitFor({ state: 'detached' })
      const after = await s.partner('GET', path())
      assert.deepEqual(
        after.body.data.map((w: { name: string }) => w.name),
        ['Sunday patching'],
      )
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('a viewer sees the list without buttons', async () => {
    const viewer = await portalUser(svc, s.partnerId, 'viewer')
    const { page, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, viewer, `/integrations/${s.integrationId}/maintenance`)
      await page.getByRole('row', { name: 'window Sunday patching' }).waitFor()
      assert.equal(await page.getByRole('button', { name: 'Add a window' }).count(), 0)
      assert.equal(await page.getByRole('button', { name: /^Delete / }).count(), 0)
      assert.equal(await page.getByRole('button', { name: /^Edit / }).count(), 0)
    } finally {
      await close()
    }
  })

  test('edit a window: the form filled in, its name and time saved', async () => {
    const startsAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000 + 37_000).toISOString()
    const endsAt = new Date(Date.parse(startsAt) + 7_200_000).toISOString()
    const once = await s.partner('POST', path(), { name: 'Router swap', startsAt, endsAt })
    assert.equal(once.status, 201, once.text)
    const admin = await portalUser(svc, s.partnerId, 'admin')
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, admin, `/integrations/${s.integrationId}/maintenance`)
      await page.getByRole('button', { name: 'Edit Sunday patching' }).click()
      const form = page.getByRole('form', { name: 'Edit maintenance window Sunday patching' })
      assert.equal(await form.getByLabel('Name').inputValue(), 'Sunday patching')
      assert.equal(await form.getByLabel('Recurrence (RRULE)').inputValue(), 'FREQ=WEEKLY;BYDAY=SU')
      assert.equal(await form.getByLabel('Time zone').inputValue(), 'Europe/Berlin')
      assert.equal(await form.getByLabel('During the window').inputValue(), 'hold')
      await form.getByLabel('Name').fill('Nightly patching')
      await form.getByLabel('Recurrence (RRULE)').fill('FREQ=DAILY')
      await form.getByLabel('Start time').fill('02:30')
      await form.getByLabel('Duration (minutes)').fill('60')
      await form.getByLabel('First day (optional)').fill('2026-01-01')
      await form.getByRole('button', { name: 'Save window' }).click()
      await form.waitFor({ state: 'detached' })
      await page
        .getByRole('row', { name: 'window Nightly patching' })
        .getByText(/FREQ=DAILY at 02:30/)
        .waitFor()
      assert.equal(await page.getByRole('row', { name: 'window Sunday patching' }).count(), 0)

      const listed = await s.partner('GET', path())
      const nightly = listed.body.data.find((w: { name: string }) => w.name === 'Nightly patching')
      assert.deepEqual(nightly.recurrence, {
        rrule: 'FREQ=DAILY',
        timeZone: 'Europe/Berlin',
        startTime: '02:30',
        durationMinutes: 60,
        startDate: '2026-01-01',
      })
      assert.equal(nightly.mode, 'hold', 'what was not changed stays')
      assert.equal(listed.body.data.length, 2, 'replaced, not added')

      // A one-off's name alone: its instants are kept to the second.
      await page.getByRole('button', { name: 'Edit Router swap' }).click()
      const swap = page.getByRole('form', { name: 'Edit maintenance window Router swap' })
      await swap.getByLabel('Name').fill('Core router swap')
      await swap.getByRole('button', { name: 'Save window' }).click()
      await page.getByRole('row', { name: 'window Core router swap' }).waitFor()
      const after = await s.partner('GET', path())
      const swapped = after.body.data.find((w: { name: string }) => w.name === 'Core router swap')
      assert.equal(swapped.startsAt, startsAt)
      assert.equal(swapped.endsAt, endsAt)

      // Refused: the service's sentence in the form, nothing changed.
      await page.getByRole('button', { name: 'Edit Core router swap' }).click()
      const bad = page.getByRole('form', { name: 'Edit maintenance window Core router swap' })
      await bad.getByLabel('Ends').fill('2020-01-01T00:00')
      await bad.getByRole('button', { name: 'Save window' }).click()
      await bad
        .getByRole('alert')
        .getByText(/endsAt/)
        .waitFor()
      await bad.getByRole('button', { name: 'Cancel' }).click()
      const unchanged = await s.partner('GET', path())
      assert.deepEqual(unchanged.body, after.body)
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })

  test('the dashboard lists the windows of its period and shades the hours they cover', async () => {
    const now = Date.now()
    const hour = 3_600_000
    // Nightly patching (daily, Europe/Berlin) moved to start six hours ago, for an hour.
    const start = new Date(now - 6 * hour)
    const berlin = (d: Date) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(d)
    const berlinDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(d)
    const listed = await s.partner('GET', path())
    const nightly = listed.body.data.find((w: { name: string }) => w.name === 'Nightly patching')
    const moved = await s.partner('PUT', `${path()}/${nightly.id}`, {
      name: 'Nightly patching',
      recurrence: {
        rrule: 'FREQ=DAILY',
        timeZone: 'Europe/Berlin',
        startTime: berlin(start),
        durationMinutes: 60,
        startDate: '2026-01-01',
      },
    })
    assert.equal(moved.status, 200, moved.text)
    const made = await s.partner('POST', path(), {
      name: 'Core switch upgrade',
      startsAt: new Date(now - 3 * hour).toISOString(),
      endsAt: new Date(now - hour).toISOString(),
    })
    assert.equal(made.status, 201, made.text)
    const end = new Date(start.getTime() + hour)
    const nightlySpan =
      berlinDay(start) === berlinDay(end)
        ? `${berlin(start)}–${berlin(end)}`
        : `${berlin(start)} – \\S+ ${berlin(end)}`

    const viewer = await portalUser(svc, s.partnerId, 'viewer')
    const { page, problems, close } = await openPortal(browser, svc)
    try {
      await signInPage(page, viewer, '/dashboard')
      const list = page.getByRole('region', { name: 'Maintenance windows in this period' })
      const items = list.getByRole('listitem')
      await items.filter({ hasText: 'Core switch upgrade' }).waitFor()
      const texts = await items.allTextContents()
      assert.ok(
        texts.some((t) => new RegExp(`^Nightly patching · \\S+ ${nightlySpan} Europe/Berlin`).test(t)),
        texts.join('\n'),
      )
      assert.ok(
        texts.some((t) => /^Core switch upgrade · \S+ \d\d:\d\d(–| – \S+ )\d\d:\d\d \S+/.test(t)),
        texts.join('\n'),
      )

      // The chart's text equivalent: its label, and a column of its table.
      const canvas = page.locator('canvas[role="img"]')
      assert.match((await canvas.getAttribute('aria-label')) ?? '', /periods shaded: Maintenance window/)
      await page.getByText('Show as a table').click()
      const rows = page.getByRole('table', { name: 'Events over time, by event' }).getByRole('row')
      await page.getByRole('columnheader', { name: 'Maintenance window', exact: true }).waitFor()
      const cells = await rows.evaluateAll((trs) => trs.map((tr) => tr.lastElementChild?.textContent ?? ''))
      const upgrade = cells.filter((c) => c.includes('Core switch upgrade')).length
      assert.ok(
        upgrade >= 2 && upgrade <= 3,
        `two hours cover two or three hourly buckets: ${cells.join(' | ')}`,
      )
      assert.ok(
        cells.some((c) => c.includes('Nightly patching')),
        cells.join(' | '),
      )

      // The shading itself: the amber fill behind the bars, across part of the chart's width.
      const shaded = await canvas.evaluate((el) => {
        const c = el as unknown as {
          width: number
          height: number
          getContext(k: '2d'): { getImageData(...a: number[]): { data: Uint8ClampedArray } }
        }
        const { data } = c.getContext('2d').getImageData(0, Math.floor(c.height * 0.3), c.width, 1)
        let n = 0
        for (let i = 0; i < data.length; i += 4)
          if ((data[i + 3] ?? 0) > 0 && (data[i] ?? 0) - (data[i + 2] ?? 0) > 100) n++
        return n / c.width
      })
      assert.ok(shaded > 0.03 && shaded < 0.5, `a part of the chart is shaded: ${shaded}`)
      assert.deepEqual(problems, [])
    } finally {
      await close()
    }
  })
})
