// Where a person opens a ticket in each PSA's own web app (the portal links a ticket there). Built from
// the connection's settings and what it already discovered, never by calling the PSA; null where the
// PSA's web address cannot be known from them. These are the web apps' routes, not API facts: each is
// the form the PSA's own links and integrations use (docs/psa/<kind>.md says which).

import { uriComponent } from '../../platform/core/text.js'

const http = (url: string) => /^https?:\/\//i.test(url)
const trim = (url: string) => url.replace(/\/+$/, '')
const id = (ticketId: string) => uriComponent(ticketId)

/**
 * ConnectWise: the service ticket's full view on the site's web host (a cloud API host
 * `api-na.myconnectwise.net` serves the web app at `na.myconnectwise.net`), under the codebase.
 */
export function connectWiseTicketUrl(
  apiRoot: string,
  codebase: string | null,
  ticketId: string,
): string | null {
  if (!http(apiRoot)) return null
  const web = trim(apiRoot).replace(/^(https?:\/\/)api-([a-z]+\.myconnectwise\.net)$/i, '$1$2')
  const base = codebase ?? 'v4_6_release/'
  return `${web}/${base.endsWith('/') ? base : `${base}/`}ConnectWise.aspx?locale=en_US&routeTo=ServiceFV&recid=${id(ticketId)}`
}

/**
 * Autotask: the ticket's detail page through AutotaskExtend's OpenTicketDetail command, on the web host
 * of the tenant's zone (webservicesN.autotask.net serves the API, wwN.autotask.net the web app). A
 * REST root that is not an Autotask zone (a proxy, a simulator) has no known web host.
 */
export function autotaskTicketUrl(restRoot: string | null, ticketId: string): string | null {
  const zone = restRoot ? /^https:\/\/webservices(\d+)\.autotask\.net\//i.exec(restRoot) : null
  if (!zone) return null
  return `https://ww${zone[1]}.autotask.net/Autotask/AutotaskExtend/ExecuteCommand.aspx?Code=OpenTicketDetail&TicketID=${id(ticketId)}`
}

/** HaloPSA: the agent app's ticket page on the instance. */
export function haloTicketUrl(root: string, ticketId: string): string | null {
  return http(root) ? `${trim(root)}/ticket?id=${id(ticketId)}` : null
}

/** Syncro: the ticket's page on the account's host. */
export function syncroTicketUrl(root: string, ticketId: string): string | null {
  return http(root) ? `${trim(root)}/tickets/${id(ticketId)}` : null
}
