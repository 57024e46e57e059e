// The frame of every signed-in screen: skip link, top bar with the sections, the user (a link to their
// account: sessions, password) and sign-out.
import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { onChangeForbidden, onSessionExpired } from '../api/client'
import { sessionKeys, useSession, useSignOut } from '../hooks/session'
import { ErrorBoundary } from './ErrorBoundary'
import { ErrorNotice, Loading } from './State'

const sections = [
  { to: '/integrations', label: 'Integrations' },
  { to: '/tickets', label: 'Tickets' },
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/activity', label: 'Activity' },
  { to: '/users', label: 'Users' },
]

export function Layout() {
  const session = useSession()
  const signOut = useSignOut()
  const navigate = useNavigate()
  const location = useLocation()
  const client = useQueryClient()

  // A 401 anywhere means the session ended: back to sign-in, then back here.
  useEffect(() => onSessionExpired(() => client.setQueryData(sessionKeys.current, null)), [client])
  // A change refused with 403: the role may have changed; the session says, and the controls follow.
  useEffect(
    () => onChangeForbidden(() => void client.invalidateQueries({ queryKey: sessionKeys.current })),
    [client],
  )

  if (session.isPending) return <Loading what="Checking your session" />
  if (session.error)
    return (
      <main>
        <ErrorNotice error={session.error} retry={() => void session.refetch()} />
      </main>
    )
  if (!session.data) {
    const next = `${location.pathname}${location.search}`
    return <Navigate to={`/sign-in${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`} replace />
  }
  const { user } = session.data
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/integrations" className="brand">
          alertbridge
        </NavLink>
        <nav aria-label="Sections">
          <ul>
            {sections.map((s) => (
              <li key={s.to}>
                <NavLink to={s.to}>{s.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="userbox">
          <span>
            <NavLink to="/account">
              {user.name || user.email}
              <span className="visually-hidden">: your account</span>
            </NavLink>{' '}
            <span className="small">({user.role})</span>
          </span>
          <button
            type="button"
            className="secondary"
            disabled={signOut.isPending}
            onClick={() => signOut.mutate(undefined, { onSettled: () => navigate('/sign-in') })}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        {user.role === 'viewer' && (
          <p className="notice info small">
            You are signed in as a viewer: you can look at everything but change nothing.
          </p>
        )}
        <ErrorBoundary resetKey={location.pathname}>
          <Outlet />
        </ErrorBoundary>
      </main>
    </>
  )
}
