// The rule tester's alert as fields and as JSON (web/src/tester-alert.ts): each turns into the other
// without losing what the fields can hold; what they cannot hold stays JSON, said in plain words.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  type AlertFields,
  alertOfFields,
  fieldsOfJson,
  inputOfPasted,
  jsonOfFields,
  parseAlertJson,
} from '../../web/src/tester-alert.js'

const fields: AlertFields = {
  accountId: 'contoso-001',
  productGroup: 'Endpoint Security',
  alertType: 'Malware Detected',
  incidentStatus: 'OPEN',
  correlationId: '',
  title: 'Malware on WS-7',
  summary: 'Quarantined.',
  extras: [
    { name: 'severity', value: 'critical' },
    { name: 'score', value: '7', json: true },
  ],
}

describe('the tester alert: fields and JSON', () => {
  test('fields → the data sent, extra fields beside the contract ones, JSON values kept as JSON', () => {
    assert.deepEqual(alertOfFields(fields), {
      data: {
        title: 'Malware on WS-7',
        summary: 'Quarantined.',
        productGroup: 'Endpoint Security',
        alertType: 'Malware Detected',
        accountId: 'contoso-001',
        incidentStatus: 'OPEN',
        severity: 'critical',
        score: 7,
      },
    })
    // An OPEN sends no correlationId; an UPDATE sends its ticket's; empty names and summaries are left out.
    const update = alertOfFields({
      ...fields,
      summary: '',
      incidentStatus: 'UPDATE',
      correlationId: 'cid-9',
      extras: [{ name: ' ', value: 'x' }],
    })
    assert.equal(update.correlationId, 'cid-9')
    assert.deepEqual(Object.keys(update.data), [
      'title',
      'productGroup',
      'alertType',
      'accountId',
      'incidentStatus',
    ])
  })

  test('fields → JSON → fields is the same alert, and JSON → fields → JSON the same text', () => {
    const update: AlertFields = { ...fields, incidentStatus: 'RESOLVED', correlationId: 'cid-9' }
    for (const f of [fields, update]) {
      const json = jsonOfFields(f)
      const back = fieldsOfJson(json)
      assert.ok(back.ok)
      assert.deepEqual(back.value, f)
      assert.equal(jsonOfFields(back.value), json)
    }
    const nested =
      '{"title":"t","productGroup":"g","alertType":"a","accountId":"x","incidentStatus":"OPEN","tags":["a",1],"meta":{"k":null}}'
    const f = fieldsOfJson(nested)
    assert.ok(f.ok)
    assert.deepEqual(f.value.extras, [
      { name: 'tags', value: '["a",1]', json: true },
      { name: 'meta', value: '{"k":null}', json: true },
    ])
    assert.deepEqual(JSON.parse(jsonOfFields(f.value)), JSON.parse(nested))
  })

  test("a whole alert request: its data and correlationId, the vendor's credentials dropped", () => {
    const pasted = {
      clientId: 'id',
      clientSecret: 'secret',
      correlationID: 'cid-3',
      data: { title: 't', accountId: 'x', productGroup: 'g', alertType: 'a', incidentStatus: 'UPDATE' },
    }
    assert.deepEqual(inputOfPasted(pasted), { data: pasted.data, correlationId: 'cid-3' })
    const f = fieldsOfJson(JSON.stringify(pasted))
    assert.ok(f.ok)
    assert.equal(f.value.correlationId, 'cid-3')
    assert.equal(f.value.incidentStatus, 'UPDATE')
    assert.deepEqual(f.value.extras, [])
  })

  test('what the fields cannot hold stays JSON, said in plain words', () => {
    assert.deepEqual(parseAlertJson('{"title": '), {
      ok: false,
      problem: 'The alert is not valid JSON: check its quotes, commas and braces.',
    })
    assert.equal(parseAlertJson('[1]').ok, false)
    const notText = fieldsOfJson('{"title": 5}')
    assert.ok(!notText.ok)
    assert.match(notText.problem, /"title" must be text/)
    const status = fieldsOfJson('{"title": "t", "incidentStatus": "CLOSED"}')
    assert.ok(!status.ok)
    assert.match(status.problem, /OPEN, UPDATE or RESOLVED/)
  })
})
