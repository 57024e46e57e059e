// How a signed-in portal user's own sessions and password change are shown and asked for
// (docs/partner-api.md#portal-users-and-sessions).
import Type from 'typebox'
import { Nullable } from '../../platform/http/schemas.js'
import { maxPasswordLength, minPasswordLength } from '../../platform/security/passwords.js'

export const SessionSummaryView = Type.Object({
  id: Type.String({ description: 'names the session to end it; not the cookie, nor its stored digest' }),
  current: Type.Boolean({ description: 'the session this request was made with' }),
  userAgent: Nullable(Type.String({ description: 'the browser’s User-Agent at sign-in' })),
  address: Nullable(Type.String({ description: 'the client address at sign-in' })),
  createdAt: Type.String({ description: 'signed in at' }),
  lastSeenAt: Type.String({ description: 'last used at (written at most once a minute)' }),
  expiresAt: Type.String({ description: 'ends at the latest at' }),
})

export const SessionList = Type.Object({ data: Type.Array(SessionSummaryView) })

export const EndedSessions = Type.Object({
  ended: Type.Integer({ minimum: 0, description: 'how many sessions ended' }),
})

export const SessionHandleParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: maxPasswordLength }),
  newPassword: Type.String({
    minLength: minPasswordLength,
    maxLength: maxPasswordLength,
    description: `at least ${minPasswordLength} characters, and not easy to guess (the refusal says why)`,
  }),
})

export const PasswordChanged = Type.Object({
  endedSessions: Type.Integer({ minimum: 0, description: 'your other sessions, all ended' }),
})
