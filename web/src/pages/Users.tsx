// The partner's portal users. Admins invite (the link is shown once), change roles and remove
// users; viewers see the list. Everyone's own sessions and password are on the account page.
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { Page } from '../components/Page'
import { Pager, usePager } from '../components/Pager'
import { ErrorNotice, Notice, QueryView } from '../components/State'
import { Time } from '../format'
import { useCanEdit, useSession } from '../hooks/session'
import {
  type Invitation,
  type PortalUser,
  useInviteUser,
  useRemoveUser,
  useUpdateUser,
  useUsers,
} from '../hooks/users'

type Role = 'admin' | 'viewer'

function InviteForm() {
  const invite = useInviteUser()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [role, setRole] = useState<Role>('viewer')
  const [sent, setSent] = useState<Invitation | null>(null)
  const [copied, setCopied] = useState(false)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setCopied(false)
    invite.mutate(
      { email, role, ...(name ? { name } : {}) },
      {
        onSuccess: (result) => {
          setSent(result)
          setEmail('')
          setName('')
        },
      },
    )
  }
  const link = sent ? `${window.location.origin}/invite#${sent.inviteToken}` : ''
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="invite-h">
      <h2 id="invite-h">Invite a user</h2>
      <div className="row">
        <div className="field">
          <label htmlFor="invite-email">Email</label>
          <input
            id="invite-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="invite-name">Name (optional)</label>
          <input id="invite-name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="viewer">viewer: reads everything</option>
            <option value="admin">admin: changes settings, invites users</option>
          </select>
        </div>
        <div className="field">
          <button type="submit" disabled={invite.isPending || !email}>
            {invite.isPending ? 'Inviting…' : 'Invite'}
          </button>
        </div>
      </div>
      {invite.error && <ErrorNotice error={invite.error} />}
      {sent && (
        <Notice kind="ok">
          <p>
            Send this link to {sent.user.email}. It is shown only now and works until{' '}
            <Time iso={sent.inviteExpiresAt} />.
          </p>
          <p>
            <label htmlFor="invite-link" className="visually-hidden">
              Invitation link
            </label>
            <input
              id="invite-link"
              readOnly
              value={link}
              className="mono"
              size={60}
              onFocus={(e) => e.target.select()}
            />{' '}
            <button
              type="button"
              className="secondary"
              onClick={() => void navigator.clipboard?.writeText(link).then(() => setCopied(true))}
            >
              {copied ? 'Copied' : 'Copy link'}
            </button>
          </p>
        </Notice>
      )}
    </form>
  )
}

function UserRow({ user, self }: { user: PortalUser; self: boolean }) {
  const canEdit = useCanEdit()
  const update = useUpdateUser()
  const remove = useRemoveUser()
  const [confirming, setConfirming] = useState(false)
  return (
    <tr>
      <td data-label="User">
        <strong>{user.name || user.email}</strong>
        {user.name && <div className="small">{user.email}</div>}
        {self && <div className="small muted">you</div>}
      </td>
      <td data-label="Role">
        {canEdit && !self ? (
          <>
            <label htmlFor={`role-${user.id}`} className="visually-hidden">
              Role of {user.email}
            </label>
            <select
              id={`role-${user.id}`}
              value={user.role}
              disabled={update.isPending}
              onChange={(e) => update.mutate({ userId: user.id, role: e.target.value as Role })}
            >
              <option value="viewer">viewer</option>
              <option value="admin">admin</option>
            </select>
          </>
        ) : (
          user.role
        )}
      </td>
      <td data-label="Status">{user.status ?? '—'}</td>
      <td data-label="Last sign-in">
        <Time iso={user.lastSignInAt ?? null} />
      </td>
      <td data-label="Remove">
        {canEdit && !self && !confirming && (
          <button
            type="button"
            className="link"
            onClick={() => setConfirming(true)}
            aria-label={`Remove ${user.email}`}
          >
            Remove
          </button>
        )}
        {confirming && (
          <fieldset className="row confirm">
            <legend className="visually-hidden">Remove {user.email}?</legend>
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate(user.id)}
            >
              Remove
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </fieldset>
        )}
        {(update.error || remove.error) && <ErrorNotice error={update.error ?? remove.error} />}
      </td>
    </tr>
  )
}

export function Users() {
  const canEdit = useCanEdit()
  const me = useSession().data?.user.id
  const pager = usePager()
  const users = useUsers(pager.cursor)
  return (
    <Page title="Users">
      <p>
        <Link to="/account">Your account: where you are signed in, and your password</Link>
      </p>
      {canEdit && <InviteForm />}
      <QueryView query={users} what="Loading users">
        {(page) => (
          <div className="table-wrap">
            <table className="responsive">
              <caption className="visually-hidden">Portal users</caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">
                    <span className="visually-hidden">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((u) => (
                  <UserRow key={u.id} user={u} self={u.id === me} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      <Pager pager={pager} nextCursor={users.data?.nextCursor} label="Users" />
    </Page>
  )
}
