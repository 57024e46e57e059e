// Schemas the operator's, the vendor's and the partner's APIs share for rotations and disabled tenants.
import Type from 'typebox'
import { HeaderName, HeaderValue, headerValueText } from '../platform/http/header-fields.js'
import { exampleInstant } from '../platform/http/openapi/examples.js'
import { Nullable } from '../platform/http/schemas.js'
import {
  type Disabled,
  overlapSeconds,
  type RotationState,
  rotationState,
} from './credentials/credentials.js'

export const RotationView = Type.Object({
  rotatedAt: Nullable(Type.String({ description: 'the last rotation; null if never rotated' })),
  previousValidUntil: Nullable(
    Type.String({
      description: 'until when the value the last rotation replaced still works; null: it no longer does',
    }),
  ),
})

/** A rotation as the OpenAPI document's examples show it: rotated a day before its overlap ends. */
export const rotationExample = { rotatedAt: exampleInstant, previousValidUntil: '2026-02-01T12:00:00.000Z' }

export const rotationView = (
  r: { rotatedAt: string | null; previousExpiresAt: string | null },
  now: string,
): RotationState => rotationState(r.rotatedAt, r.previousExpiresAt, now)

export const OverlapSeconds = Type.Integer({
  minimum: overlapSeconds.min,
  maximum: overlapSeconds.max,
  description: `how long the replaced value keeps working, in seconds: 0 (it stops now, as after a leak) to ${overlapSeconds.max} (7 days); default ${overlapSeconds.default} (24 hours)`,
})

/** The body of a rotation: the overlap window, optional. */
export const RotateBody = Type.Object(
  { overlapSeconds: Type.Optional(OverlapSeconds) },
  { additionalProperties: false },
)

/** An outbound URL a tenant configures (a webhook, a catalogue); the service checks its host as well. */
export const OutboundUrl = Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 2048 })

/**
 * The vendor's own header on every webhook attempt: an Authorization value, or a named header. The
 * service checks both further (headerFieldProblem: the value's characters, names it will not send).
 */
export const WebhookAuthHeader = Type.Union([
  Type.String({ ...HeaderValue, description: `value of the Authorization header: ${headerValueText}` }),
  Type.Object({ name: HeaderName, value: HeaderValue }),
])

export const DisabledView = Nullable(
  Type.Object(
    { at: Type.String(), reason: Nullable(Type.String()) },
    { description: 'set while the operator has it disabled: every credential of it is refused' },
  ),
)

export const disabledView = (d: Disabled | null) => (d ? { at: d.at, reason: d.reason } : null)
