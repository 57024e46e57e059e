// The rule tester's plain sentence (src/alerts/dry-run/summary.ts): every outcome of the dry run in a
// service manager's words, names where known and ids otherwise, and never the API's paths, row names or
// error codes.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  type DryRunFacts,
  dryRunSummary,
  ruleLabel,
  type SummaryNames,
} from '../../../src/alerts/dry-run/summary.js'

const rule = {
  productGroup: 'Endpoint Security',
  alertTypes: [] as string[],
  action: 'ticket' as const,
  suppressStatuses: [] as ('OPEN' | 'UPDATE' | 'RESOLVED')[],
}
const open = { correlationId: 'cid-1', psaTicketId: 'SBX-1001' }

const facts = (over: Partial<DryRunFacts> = {}): DryRunFacts => ({
  action: 'create',
  row: 'create',
  error: null,
  alert: {
    accountId: 'contoso-001',
    productGroup: 'Endpoint Security',
    alertType: 'Malware Detected',
    incidentStatus: 'OPEN',
    correlationId: null,
  },
  integration: { state: 'connected', closeOnlyUntouched: false },
  matchedRule: rule,
  existingTicket: null,
  psaCompanyId: '310',
  board: '2',
  catchAll: null,
  replaces: null,
  conditionsUnmet: false,
  storm: null,
  maintenance: null,
  partnerTest: false,
  ...over,
})
const followUp = (incidentStatus: 'UPDATE' | 'RESOLVED', over: Partial<DryRunFacts> = {}) =>
  facts({
    alert: { ...facts().alert, incidentStatus, correlationId: 'cid-1' },
    existingTicket: { ...open },
    psaCompanyId: null,
    board: null,
    ...over,
  })
const refused = (row: DryRunFacts['row'], error: DryRunFacts['error'], over: Partial<DryRunFacts> = {}) =>
  facts({ action: 'refuse', row, error, psaCompanyId: null, board: null, matchedRule: null, ...over })
const names: SummaryNames = {
  account: 'Contoso Dental',
  psaCompany: 'Contoso Dental Group',
  board: 'Service Desk',
}

/** No jargon: no API path, row name, error code, JSON field name or "decision table". */
function plain(sentence: string): void {
  assert.doesNotMatch(sentence, /\/api\/|[A-Z]{3,}_[A-Z]|decision table|correlationId|psaCompanyId|\brow\b/)
  assert.match(sentence, /^[A-Z].*\.$/s, `a sentence: ${sentence}`)
}

describe('the dry run in plain words', () => {
  test('create: the PSA company and board by name, by id without names', () => {
    const s = dryRunSummary(facts(), names)
    assert.equal(s, 'This alert would open a ticket in Contoso Dental Group on the Service Desk board.')
    assert.equal(dryRunSummary(facts()), 'This alert would open a ticket in PSA company 310 on board 2.')
    assert.equal(
      dryRunSummary(facts({ board: null }), { psaCompany: 'Contoso Dental Group' }),
      "This alert would open a ticket in Contoso Dental Group on the PSA's default board.",
    )
    plain(s)
  })

  test('catch-all and replace-closed', () => {
    const caught = dryRunSummary(facts({ row: 'catch-all', catchAll: 'not-mapped' }), {
      ...names,
      psaCompany: 'Unsorted alerts',
    })
    assert.match(
      caught,
      /catch-all company Unsorted alerts on the Service Desk board, because Contoso Dental is not mapped yet/,
    )
    assert.match(caught, /Map the account on the Map accounts step/)
    assert.match(
      dryRunSummary(facts({ row: 'catch-all', catchAll: 'unknown' })),
      /because account 'contoso-001' is not known to the vendor yet/,
    )
    const replaced = dryRunSummary(facts({ row: 'replace-closed', replaces: { ...open } }), names)
    assert.equal(
      replaced,
      'This alert would open a new ticket in Contoso Dental Group on the Service Desk board, linked to the closed ticket SBX-1001.',
    )
    for (const s of [caught, replaced]) plain(s)
  })

  test('append: same ticket, de-duplicated, an update; reopen', () => {
    const same = facts({
      action: 'append',
      row: 'repeat',
      alert: { ...facts().alert, correlationId: 'cid-1' },
      existingTicket: { ...open },
    })
    assert.equal(dryRunSummary(same), 'This alert would be added as a note to the open ticket SBX-1001.')
    const dedup = facts({ action: 'append', row: 'repeat', existingTicket: { ...open } })
    assert.match(
      dryRunSummary(dedup),
      /repeats one that is still open: it would be added as a note to ticket SBX-1001/,
    )
    const update = followUp('UPDATE', { action: 'append', row: 'update' })
    assert.equal(dryRunSummary(update), 'This update would be added as a note to ticket SBX-1001.')
    const noPsaId = followUp('UPDATE', {
      action: 'append',
      row: 'update',
      existingTicket: { correlationId: 'cid-1', psaTicketId: null },
    })
    assert.equal(dryRunSummary(noPsaId), "This update would be added as a note to the ticket 'cid-1'.")
    const reopen = facts({ action: 'reopen', row: 'reopen-closed', existingTicket: { ...open } })
    assert.match(dryRunSummary(reopen), /would reopen the closed ticket SBX-1001/)
    for (const f of [same, dedup, update, reopen]) plain(dryRunSummary(f))
  })

  test('close, close with closeOnlyUntouched, a partner test close', () => {
    const close = followUp('RESOLVED', { action: 'close', row: 'close' })
    assert.equal(dryRunSummary(close), 'This alert would close ticket SBX-1001 with a resolution note.')
    const untouched = followUp('RESOLVED', {
      action: 'close',
      row: 'close',
      integration: { state: 'connected', closeOnlyUntouched: true },
    })
    assert.match(
      dryRunSummary(untouched),
      /If a technician has already worked on it, it gets the note and stays open\.$/,
    )
    const test = followUp('RESOLVED', { action: 'close', row: 'partner-test-close', partnerTest: true })
    assert.match(dryRunSummary(test), /close your test ticket SBX-1001.*the vendor is not told/)
    for (const f of [close, untouched, test]) plain(dryRunSummary(f))
  })

  test('storm: a new storm ticket, folded into one, a follow-up, the last one closing it', () => {
    const storm = (s: DryRunFacts['storm'], over: Partial<DryRunFacts> = {}) =>
      facts({ action: 'fold', row: 'storm', storm: s, ...over })
    const fresh = storm({ step: 'open', ticket: null, closes: false })
    assert.match(
      dryRunSummary(fresh, names),
      /open one storm ticket for Contoso Dental in Contoso Dental Group/,
    )
    const into = storm({ step: 'open', ticket: { ...open }, closes: false })
    assert.match(
      dryRunSummary(into, names),
      /added to the storm ticket SBX-1001 of Contoso Dental instead of opening its own ticket/,
    )
    const line = storm({ step: 'follow-up', ticket: { ...open }, closes: false })
    assert.match(dryRunSummary(line), /part of an alert storm|belongs to an alert storm/)
    const last = storm({ step: 'follow-up', ticket: { ...open }, closes: true })
    assert.match(dryRunSummary(last), /which then closes\.$/)
    for (const f of [fresh, into, line, last]) plain(dryRunSummary(f, names))
  })

  test('suppress: by a rule, its statuses, ticket creation off, maintenance, self-healing off', () => {
    const sup = (over: Partial<DryRunFacts>) =>
      facts({ action: 'suppress', row: 'suppressed', psaCompanyId: null, board: null, ...over })
    const byRule = sup({ matchedRule: { ...rule, productGroup: 'Backup', action: 'suppress' } })
    assert.equal(
      dryRunSummary(byRule),
      "Suppressed: the rule 'Backup: every alert type' drops these alerts, so no ticket would be opened.",
    )
    const byStatus = sup({
      matchedRule: { ...rule, alertTypes: ['Malware Detected'], suppressStatuses: ['OPEN'] },
    })
    assert.match(dryRunSummary(byStatus), /the rule 'Endpoint Security: Malware Detected' ignores new alerts/)
    const creationOff = sup({})
    assert.match(dryRunSummary(creationOff), /ticket creation is turned off for this integration/)
    const status = followUp('UPDATE', {
      action: 'suppress',
      row: 'status-suppressed',
      matchedRule: { ...rule, suppressStatuses: ['UPDATE'] },
    })
    assert.match(dryRunSummary(status), /ignores updates \(UPDATE\), so ticket SBX-1001 is left as it is/)
    const healing = followUp('RESOLVED', { action: 'suppress', row: 'self-healing-off' })
    assert.match(dryRunSummary(healing), /self-healing is off, so ticket SBX-1001 stays open/)
    const windowed = sup({ row: 'maintenance' })
    assert.match(dryRunSummary(windowed), /a maintenance window covers this alert now/)
    const held = sup({
      row: 'maintenance',
      maintenance: { kind: 'hold', window: 'Patch night', until: '2026-11-22T14:00:00.000Z' },
    })
    assert.equal(
      dryRunSummary(held),
      "Held: the maintenance window 'Patch night' holds this alert until 14:00 UTC on 2026-11-22; it is then checked against the rules as they stand.",
    )
    const dropped = followUp('RESOLVED', {
      action: 'suppress',
      row: 'maintenance',
      maintenance: { kind: 'drop' },
    })
    assert.match(dryRunSummary(dropped), /^Dropped: /)
    const leftOpen = followUp('RESOLVED', { action: 'suppress', row: 'close-left-open' })
    assert.match(dryRunSummary(leftOpen), /^Ticket SBX-1001 would get a note and stay open/)
    for (const f of [byRule, byStatus, creationOff, status, healing, windowed, held, dropped, leftOpen])
      plain(dryRunSummary(f))
  })

  test('refuse: every reason in words, with what to do', () => {
    const cases: [DryRunFacts, RegExp][] = [
      [
        refused('integration-not-active', 'INTEGRATION_NOT_ACTIVE', {
          integration: { state: 'mapping', closeOnlyUntouched: false },
        }),
        /^This alert would fail: the integration is still being set up\. Finish the set-up on the Review step\.$/,
      ],
      [
        refused('integration-not-active', 'INTEGRATION_NOT_ACTIVE', {
          integration: { state: 'created', closeOnlyUntouched: false },
        }),
        /vendor has not started its set-up yet/,
      ],
      [
        refused('integration-not-active', 'ALERTING_DISABLED'),
        /alerting is turned off.*Turn it on in the integration's settings/,
      ],
      [refused(null, 'TENANT_DISABLED'), /vendor's access has been switched off/],
      [
        refused('not-in-catalogue', 'INVALID_ALERT'),
        /'Endpoint Security': 'Malware Detected' is not in this integration's catalogue/,
      ],
      [refused('no-mapping-or-rule', 'ACCOUNT_UNKNOWN'), /vendor has not declared account 'contoso-001'/],
      [
        refused('no-mapping-or-rule', 'ACCOUNT_NOT_MAPPED'),
        /account 'contoso-001' is not mapped to a PSA company\. Map it on the Map accounts step\./,
      ],
      [
        refused('no-mapping-or-rule', 'NO_RULE'),
        /no rule covers 'Endpoint Security': 'Malware Detected'\. Add one on the Rules page\./,
      ],
      [
        refused('no-mapping-or-rule', 'NO_RULE', { conditionsUnmet: true }),
        /has conditions this alert meets/,
      ],
      [refused('no-mapping-or-rule', 'RULES_DISABLED'), /every rule for 'Endpoint Security' is turned off/],
      [refused('missing-correlation-id', 'CORRELATION_ID_REQUIRED'), /must say which ticket it is for/],
      [
        refused('ticket-not-found', 'TICKET_NOT_FOUND', {
          alert: { ...facts().alert, incidentStatus: 'UPDATE', correlationId: 'never-seen' },
        }),
        /no ticket has the correlation id 'never-seen'/,
      ],
      [
        refused('ticket-not-found', 'RULE_GONE', { existingTicket: { ...open } }),
        /the rule that opened ticket SBX-1001 has been deleted/,
      ],
      [
        refused('ticket-not-found', 'ACCOUNT_NOT_MAPPED', { existingTicket: { ...open } }),
        /the account of ticket SBX-1001 is no longer mapped/,
      ],
      [
        refused('reopen-refused', 'TICKET_CLOSED', { existingTicket: { ...open } }),
        /does not reopen closed tickets/,
      ],
      [
        refused('update-closed', 'TICKET_CLOSED', { existingTicket: { ...open } }),
        /ticket SBX-1001 is already closed\.$/,
      ],
      [
        refused('already-closed', 'TICKET_CLOSED', { existingTicket: { ...open } }),
        /^Nothing would change: ticket SBX-1001 is already closed\.$/,
      ],
      [refused('psa-failed', 'PSA_ERROR'), /^This alert would fail: it cannot be taken as it is/],
    ]
    for (const [f, expected] of cases) {
      const s = dryRunSummary(f)
      assert.match(s, expected, `${f.row}/${f.error}: ${s}`)
      plain(s)
    }
    // Names where known.
    assert.match(
      dryRunSummary(refused('no-mapping-or-rule', 'ACCOUNT_NOT_MAPPED'), names),
      /fail: Contoso Dental is not mapped to a PSA company/,
    )
  })

  test('a rule is named as the rules list names it', () => {
    assert.equal(ruleLabel({ productGroup: 'Backup', alertTypes: [] }), 'Backup: every alert type')
    assert.equal(
      ruleLabel({ productGroup: 'Backup', alertTypes: ['Backup Failed', 'Backup Warning'] }),
      'Backup: Backup Failed, Backup Warning',
    )
  })
})
