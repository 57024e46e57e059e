// The private-address guard for outbound URLs, checked when a URL is configured
// (docs/webhooks.md#private-addresses: outbound calls refuse private and loopback addresses unless
// configured to allow them). Every connection is checked again at connect time by the client (http.ts).
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Checked when a URL is configured: http(s) only, https required unless allowPrivateNetwork, no userinfo, the
 * host (resolved with dns.lookup all:true, or an IP literal) must be public unicast unless allowPrivateNetwork.
 */
export async function checkOutboundUrl(
  url: string,
  opts: { allowPrivateNetwork: boolean; lookup?: (host: string) => Promise<string[]> },
): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (!URL.canParse(url)) return { ok: false, reason: 'the URL cannot be parsed' }
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { ok: false, reason: `protocol ${parsed.protocol} is not allowed; use https` }
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'the URL must not carry a user name or password' }
  }
  if (opts.allowPrivateNetwork) return { ok: true }
  if (parsed.protocol !== 'https:') return { ok: false, reason: 'https is required' }

  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1')
  let addresses: string[]
  if (isIP(host) !== 0) {
    addresses = [host]
  } else {
    try {
      addresses = await (opts.lookup ?? lookupAll)(host)
    } catch {
      // A name that does not resolve yet is no threat: every connection checks the address again.
      addresses = []
    }
  }
  const refused = addresses.find((a) => !isPublicAddress(a))
  if (refused !== undefined) {
    const via = refused === host ? '' : ` (${host} resolves to it)`
    return { ok: false, reason: `${refused} is not a public address${via}` }
  }
  return { ok: true }
}

async function lookupAll(host: string): Promise<string[]> {
  const found = await dnsLookup(host, { all: true })
  return found.map((a) => a.address)
}

/**
 * Pure: whether an IP address (v4 or v6, incl. IPv4-mapped v6) is public unicast. Uses ipaddr.js range(): only
 * 'unicast' is public, so IPv4-mapped IPv6 addresses are never public (as at connect time).
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false
  return ipaddr.parse(ip).range() === 'unicast'
}
