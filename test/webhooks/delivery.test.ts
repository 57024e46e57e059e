// What a partner may read of a delivery's errors (docs/decisions/bounded-growth/partner-delivery-view.md):
// the kind of a failure without an HTTP answer, never the vendor's host or address that its message names;
// our own sentences as they are.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { errorForPartner } from '../../src/webhooks/delivery.js'

test('an error without an HTTP status shows only its kind', () => {
  assert.equal(
    errorForPartner('conn: ECONNREFUSED: connect ECONNREFUSED 203.0.113.7:8443', null),
    'conn: the connection to the endpoint failed',
  )
  assert.equal(
    errorForPartner('dns: ENOTFOUND: getaddrinfo ENOTFOUND hooks.vendor.example', null),
    "dns: the endpoint's host name did not resolve",
  )
  assert.equal(
    errorForPartner('blocked: DNS lookup 10.1.2.3(family:4, host:internal.vendor) is not allowed.', null),
    "blocked: the endpoint's address is not allowed",
  )
  assert.equal(
    errorForPartner('timeout: timeout after 15000 ms', null),
    'timeout: the endpoint did not answer in time',
  )
  assert.equal(
    errorForPartner('replay failed: tls: ERR_TLS_CERT_ALTNAME_INVALID: hooks.vendor.example', null),
    'tls: the TLS handshake with the endpoint failed',
  )
  assert.equal(
    errorForPartner('weird: something about hooks.vendor.example', null),
    'the attempt got no answer from the endpoint',
  )
})

test('an error with an HTTP status, and our own sentences, are shown as they are', () => {
  assert.equal(errorForPartner('HTTP 500', 500), 'HTTP 500')
  assert.equal(
    errorForPartner('HTTP 429, Retry-After 120 s honoured as 300 s', 429),
    'HTTP 429, Retry-After 120 s honoured as 300 s',
  )
  const disabled = 'The endpoint answered 410 Gone and was disabled; replay once it is enabled.'
  assert.equal(errorForPartner(disabled, null), disabled)
  assert.equal(errorForPartner(null, null), null)
})
