// Operator API: disabling and enabling a vendor or a partner (docs/operations.md, "Rotating a tenant's
// credentials, disabling a tenant"). While disabled, every credential of the tenant is refused with 403
// TENANT_DISABLED (the token endpoint: 401 invalid_client), its queued alerts wait and a disabled
// vendor's webhook deliveries wait; enabling restores everything.
import Type from 'typebox'
import type { App } from '../../platform/http/app-types.js'
import { orRefuse } from '../../platform/http/errors.js'
import { callers, type OperationDoc, operation } from '../../platform/http/openapi/operation-doc.js'
import { emptyBodyAsObject } from '../../platform/http/optional-body.js'
import { failures, IdParams, Nullable } from '../../platform/http/schemas.js'
import type { TenantKind, TenantStatus } from '../../tenants/index.js'
import { type AuthHooks, actorOf, DisabledView } from '../../tenants/index.js'

const DisableBody = Type.Object(
  {
    reason: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: 500,
          description: 'why, in a sentence: shown to the tenant when a credential is refused',
        }),
      ),
    ),
  },
  { additionalProperties: false },
)

const StatusView = Type.Object({ id: Type.String(), disabled: DisabledView })

export interface AdminTenantStatusRoutesDeps {
  auth: Pick<AuthHooks, 'admin'>
  tenantStatus: Pick<TenantStatus, 'disable' | 'enable'>
}

/** The disable and enable calls in the OpenAPI document, by tenant kind. */
const operations: Record<TenantKind, { disable: OperationDoc; enable: OperationDoc }> = {
  vendor: {
    disable: {
      id: 'disableVendor',
      description: `Its credentials answer 403 TENANT_DISABLED with the reason. ${callers.operatorChange}`,
      body: { reason: 'Contract ended; call the operator.' },
    },
    enable: { id: 'enableVendor', description: callers.operatorChange },
  },
  partner: {
    disable: {
      id: 'disablePartner',
      description: `Its credentials answer 403 TENANT_DISABLED with the reason. ${callers.operatorChange}`,
      body: { reason: 'Contract ended; call the operator.' },
    },
    enable: { id: 'enablePartner', description: callers.operatorChange },
  },
}

export function registerAdminTenantStatus(app: App, s: AdminTenantStatusRoutesDeps): void {
  const base = { onRequest: s.auth.admin }
  const meta = { tags: ['admin'], security: [{ adminToken: [] }] }

  for (const kind of ['vendor', 'partner'] as const satisfies TenantKind[]) {
    app.post(
      `/api/admin/${kind}s/:id/disable`,
      {
        ...base,
        preValidation: emptyBodyAsObject,
        schema: {
          ...meta,
          summary: `Disable a ${kind}: every credential of it is refused, queued work waits`,
          ...operation(operations[kind].disable),
          params: IdParams,
          body: DisableBody,
          response: { 200: StatusView, ...failures(400, 401, 404) },
        },
      },
      async (request) => {
        const { id } = request.params
        const reason = request.body.reason ?? null
        const disabled = orRefuse(await s.tenantStatus.disable(kind, id, reason, actorOf(request)))
        return { id, disabled }
      },
    )
    app.post(
      `/api/admin/${kind}s/:id/enable`,
      {
        ...base,
        schema: {
          ...meta,
          summary: `Enable a disabled ${kind} again: its credentials work, its waiting work goes on`,
          ...operation(operations[kind].enable),
          params: IdParams,
          response: { 200: StatusView, ...failures(401, 404) },
        },
      },
      async (request) => {
        const { id } = request.params
        orRefuse(await s.tenantStatus.enable(kind, id, actorOf(request)))
        return { id, disabled: null }
      },
    )
  }
}
