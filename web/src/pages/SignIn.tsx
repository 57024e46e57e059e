// Sign in with email and password; after repeated failures the service asks this address to wait a
// little longer each time (429, its sentence says how long).
import { type FormEvent, useEffect, useState } from 'react'
import { Navigate, useNavigate, useSearchParams } from 'react-router'
import { ApiError } from '../api/client'
import { Loading } from '../components/State'
import { useSession, useSignIn } from '../hooks/session'

/** Only a path of this portal, never another site (an open redirect). */
export function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/integrations'
}

function message(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return 'The email or the password is wrong.'
    if (err.status === 429)
      return (
        err.detail ||
        `Too many failed sign-ins. Wait ${err.retryAfterSeconds ?? 'a few'} seconds and try again.`
      )
    return err.detail
  }
  return 'Signing in failed. Try again.'
}

export function SignIn() {
  const session = useSession()
  const signIn = useSignIn()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  useEffect(() => {
    document.title = 'Sign in · alertbridge'
  }, [])

  if (session.isPending) return <Loading what="Checking your session" />
  if (session.data) return <Navigate to={safeNext(params.get('next'))} replace />

  const submit = (e: FormEvent) => {
    e.preventDefault()
    signIn.mutate(
      { email, password },
      { onSuccess: () => navigate(safeNext(params.get('next')), { replace: true }) },
    )
  }
  return (
    <main id="main" className="auth-page">
      <div className="panel">
        <h1>Sign in to alertbridge</h1>
        <p className="muted">
          The partner portal: connect your PSA, map accounts, tune rules and watch tickets.
        </p>
        <form onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor="email">Email</label>
            <input
              id="email"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="password">Password</label>
            <input
              id="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          {signIn.error && (
            <div className="notice error" role="alert">
              {message(signIn.error)}
            </div>
          )}
          <button type="submit" disabled={signIn.isPending || !email || !password}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p className="small muted">No account? Ask your administrator for an invitation.</p>
      </div>
    </main>
  )
}
