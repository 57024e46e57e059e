// How the portal's users and sessions are shown and asked for
// (docs/partner-api.md#portal-users-and-sessions), for the partner's routes and the operator's invite
// alike.
import Type, { type Static } from 'typebox'
import { Nullable } from '../../platform/http/schemas.js'
import { maxPasswordLength, minPasswordLength } from '../../platform/security/passwords.js'
import { type PortalUser, portalRoles } from './portal.js'

const Role = Type.Enum(portalRoles, { description: 'admin changes things; viewer reads' })
const Name = Type.String({ minLength: 1, maxLength: 128 })

/** The signed-in user, as the session answers show it. */
export const SessionUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  role: Role,
  partnerId: Type.String(),
})

export const SessionView = Type.Object({
  user: SessionUser,
  csrfToken: Type.String({
    description: 'send it as the x-csrf-token header with every change made with this session',
  }),
})
export type SessionView = Static<typeof SessionView>

export const PartnerUserView = Type.Object({
  ...SessionUser.properties,
  status: Type.Enum(['invited', 'active', 'disabled'], {
    description: 'invited: the invite is not accepted yet; disabled: cannot sign in',
  }),
  inviteExpiresAt: Nullable(Type.String({ description: 'while an invite is open' })),
  lastSignInAt: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
})

export const Invited = Type.Object({
  user: PartnerUserView,
  inviteToken: Type.String({
    description: 'shown once: the user accepts it with POST /api/partner/session/invite',
  }),
  inviteExpiresAt: Type.String(),
})

export const InviteBody = Type.Object({
  email: Type.String({ format: 'email', minLength: 3, maxLength: 254 }),
  name: Type.Optional(Name),
  role: Role,
})

export const PatchUserBody = Type.Object({
  role: Type.Optional(Role),
  name: Type.Optional(Nullable(Name)),
  disabled: Type.Optional(Type.Boolean({ description: 'a disabled user cannot sign in; its sessions end' })),
})

export const SignInBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: maxPasswordLength }),
})

export const AcceptInviteBody = Type.Object({
  inviteToken: Type.String({ minLength: 1, maxLength: 128 }),
  password: Type.String({
    minLength: minPasswordLength,
    maxLength: maxPasswordLength,
    description: `at least ${minPasswordLength} characters`,
  }),
  name: Type.Optional(Name),
})

export function sessionUser(u: PortalUser): Static<typeof SessionUser> {
  return { id: u.id, email: u.email, name: u.name, role: u.role, partnerId: u.partnerId }
}

export function partnerUserView(u: PortalUser): Static<typeof PartnerUserView> {
  return {
    ...sessionUser(u),
    status: u.disabledAt !== null ? 'disabled' : u.hasPassword ? 'active' : 'invited',
    inviteExpiresAt: u.invite?.expiresAt ?? null,
    lastSignInAt: u.lastSignInAt,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  }
}
