// Links from a ticket into each PSA's web app, built from the connection alone (no PSA call).
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  autotaskTicketUrl,
  connectWiseTicketUrl,
  haloTicketUrl,
  syncroTicketUrl,
} from '../../../src/psa/core/ticket-urls.js'

describe('PSA ticket URLs', () => {
  test('ConnectWise: a cloud API host links to its web host, under the codebase', () => {
    assert.equal(
      connectWiseTicketUrl('https://api-na.myconnectwise.net', 'v2025_1/', '123'),
      'https://na.myconnectwise.net/v2025_1/ConnectWise.aspx?locale=en_US&routeTo=ServiceFV&recid=123',
    )
    assert.equal(
      connectWiseTicketUrl('https://cw.example.com/', null, '9'),
      'https://cw.example.com/v4_6_release/ConnectWise.aspx?locale=en_US&routeTo=ServiceFV&recid=9',
      'an on-premise host as it is; the default codebase until one is known',
    )
    assert.equal(connectWiseTicketUrl('', null, '9'), null)
  })

  test("Autotask: the zone's web host; none for a root that is not an Autotask zone", () => {
    assert.equal(
      autotaskTicketUrl('https://webservices5.autotask.net/ATServicesRest/', '4711'),
      'https://ww5.autotask.net/Autotask/AutotaskExtend/ExecuteCommand.aspx?Code=OpenTicketDetail&TicketID=4711',
    )
    assert.equal(autotaskTicketUrl('http://127.0.0.1:9102/ATServicesRest/', '4711'), null)
    assert.equal(autotaskTicketUrl(null, '4711'), null, 'zone not found yet')
  })

  test('HaloPSA and Syncro: the ticket page on the instance; ids are encoded', () => {
    assert.equal(haloTicketUrl('https://acme.halopsa.com/', '42'), 'https://acme.halopsa.com/ticket?id=42')
    assert.equal(
      syncroTicketUrl('https://acme.syncromsp.com', '7 8'),
      'https://acme.syncromsp.com/tickets/7%208',
    )
    assert.equal(haloTicketUrl('javascript:alert(1)', '1'), null, 'only http(s) links')
  })

  test("a PSA's id with a lone surrogate (JSON may carry one) is encoded as U+FFFD, never thrown on", () => {
    assert.equal(
      haloTicketUrl('https://acme.halopsa.com', '4\ud8002'),
      'https://acme.halopsa.com/ticket?id=4%EF%BF%BD2',
    )
    assert.equal(
      syncroTicketUrl('https://a.syncromsp.com', '\udfff'),
      'https://a.syncromsp.com/tickets/%EF%BF%BD',
    )
    // A whole pair is text: kept.
    assert.equal(
      syncroTicketUrl('https://a.syncromsp.com', '😀'),
      'https://a.syncromsp.com/tickets/%F0%9F%98%80',
    )
  })
})
