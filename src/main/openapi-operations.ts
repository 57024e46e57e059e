// What the OpenAPI document says about each operation beyond its route's schema (docs/vendor-api.md#openapi-document):
// one line per operation, keyed `METHOD /path` in the document's spelling (`{param}`), in the table of its
// audience. A new route adds its line there; test/platform/http/openapi/document.test.ts fails for a route without one.

import { adminOperations } from '../admin/openapi.js'
import { partnerOperations } from '../partner-api/openapi.js'
import type { OperationDoc } from '../platform/http/openapi/operation-doc.js'
import { vendorOperations } from '../vendor-api/openapi.js'

export type { OperationDoc }

export const operations: Record<string, OperationDoc> = {
  ...vendorOperations,
  ...partnerOperations,
  ...adminOperations,
}

/** The operationId of an operation without a line: method and path in camelCase (`getPartnerUsersById`). */
export function derivedOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .flatMap((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)
      return param ? ['by', ...param[1]!.split(/[^A-Za-z0-9]+/)] : segment.split(/[^A-Za-z0-9]+/)
    })
    .filter(Boolean)
  const camel = (w: string) => w[0]!.toUpperCase() + w.slice(1)
  return method.toLowerCase() + words.map(camel).join('')
}
