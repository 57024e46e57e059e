// The private-address guard for outbound URLs, checked when a URL is configured
// (docs/webhooks.md#private-addresses: outbound calls refuse private and loopback addresses unless
// configured to allow them). Every connection is checked again at connect time by the client (http.ts).
import { lookup as dnsLookupCallback, type LookupAddress, type LookupOptions } from 'node:dns'
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
import { isAllowedLoopback } from '../core/loopback.js'

/**
 * Checked when a URL is configured: http(s) only, https required unless allowPrivateNetwork, no userinfo, the
 * host (resolved with dns.lookup all:true, or an IP literal) must be public unicast unless allowPrivateNetwork.
 * A URL of one of `loopbackOrigins` (the demo's own webhook URL, src/platform/core/loopback.ts) is accepted.
 */
export async function checkOutboundUrl(
  url: string,
  opts: {
    allowPrivateNetwork: boolean
    loopbackOrigins?: readonly string[]
    lookup?: (host: string) => Promise<string[]>
  },
): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (!URL.canParse(url)) return { ok: false, reason: 'the URL cannot be parsed' }
  const parsed = new URL(url)
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { ok: false, reason: `protocol ${parsed.protocol} is not allowed; use https` }
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { ok: false, reason: 'the URL must not carry a user name or password' }
  }
  if (opts.allowPrivateNetwork || isAllowedLoopback(url, opts.loopbackOrigins ?? [])) return { ok: true }
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
 * Pure: whether an IP address (v4 or v6) is public unicast (docs/webhooks.md#private-addresses). Only
 * ipaddr.js's 'unicast' range is public, so every IPv6 form that embeds an IPv4 address by a
 * translation scheme (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4,
 * Teredo, SIIT) is refused whatever it embeds, as at connect time. ipaddr.js calls the deprecated
 * IPv4-compatible form `::a.b.c.d` (`::/96`, written `::7f00:1` once a URL is parsed) unicast; some
 * stacks still reach the IPv4 host through it, so it is judged as the IPv4 address it carries.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false
  const parsed = ipaddr.parse(ip)
  if (parsed.range() !== 'unicast') return false
  if (parsed.kind() === 'ipv6') {
    const embedded = ipv4Compatible(parsed as ipaddr.IPv6)
    if (embedded !== null) return embedded.range() === 'unicast'
  }
  return true
}

/** The IPv4 address an IPv4-compatible IPv6 address (`::a.b.c.d`, the first 96 bits zero) carries. */
function ipv4Compatible(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = v6.parts
  if (parts.slice(0, 6).some((p) => p !== 0)) return null
  const [hi = 0, lo = 0] = parts.slice(6)
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff])
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void
/** The shape of dns.lookup that net.connect calls (its `lookup` option). */
export type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void

/**
 * The connect-time guard of an allowed loopback origin (`localhost`): a lookup that fails the connection
 * when the name resolves to anything but a loopback address.
 */
export function loopbackOnlyLookup(base: Lookup = dnsLookupCallback as unknown as Lookup): Lookup {
  return (hostname, options, callback) => {
    base(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family)
      const all = Array.isArray(address) ? address.map((a) => a.address) : [address]
      const refused = all.find((a) => !ipaddr.isValid(a) || ipaddr.process(a).range() !== 'loopback')
      if (refused === undefined) return callback(null, address, family)
      const blocked = Object.assign(
        new Error(
          `the address ${refused} of ${hostname} is not a loopback address; the connection was refused`,
        ),
        { code: blockedCode },
      )
      callback(blocked, address, family)
    })
  }
}

/** The code of the error a refused address fails a connection with (http.ts names it `blocked`). */
export const blockedCode = 'ERR_ADDRESS_BLOCKED'

/**
 * The connect-time half of the guard, for host names: a lookup that fails the connection when any address
 * the name resolves to is not public (isPublicAddress), before a socket is opened. IP literals are not
 * looked up; http.ts checks those itself.
 */
export function publicOnlyLookup(base: Lookup = dnsLookupCallback as unknown as Lookup): Lookup {
  return (hostname, options, callback) => {
    base(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family)
      const all = Array.isArray(address) ? address.map((a) => a.address) : [address]
      const refused = all.find((a) => !isPublicAddress(a))
      if (refused === undefined) return callback(null, address, family)
      const blocked = Object.assign(
        new Error(
          `the address ${refused} of ${hostname} is not a public address; the connection was refused`,
        ),
        { code: blockedCode },
      )
      callback(blocked, address, family)
    })
  }
}
