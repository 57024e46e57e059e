// Accepting an invitation: the token travels in the link's fragment (#…), which browsers never send
// to a server, so it does not end up in logs; the new user chooses a password and is signed in.
import { type FormEvent, useEffect, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { ApiError } from '../api/client'
import { NewPassword, usePasswordJudge } from '../components/NewPassword'
import { useAcceptInvite } from '../hooks/session'

export function AcceptInvite() {
  const location = useLocation()
  const navigate = useNavigate()
  const accept = useAcceptInvite()
  const token = decodeURIComponent(location.hash.replace(/^#(token=)?/, ''))
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const judge = usePasswordJudge()
  const judgement = judge ? judge(password, [name]) : null
  useEffect(() => {
    document.title = 'Accept invitation · alertbridge'
  }, [])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (password.length < 12) return setProblem('Choose a password of at least 12 characters.')
    if (judgement && !judgement.ok) return setProblem(`Choose another password. ${judgement.reason}`)
    if (password !== again) return setProblem('The two passwords differ.')
    setProblem(null)
    accept.mutate(
      { inviteToken: token, password, ...(name ? { name } : {}) },
      { onSuccess: () => navigate('/integrations', { replace: true }) },
    )
  }
  const failure =
    accept.error instanceof ApiError
      ? accept.error.status === 401 || accept.error.status === 404 || accept.error.status === 410
        ? 'This invitation is not valid any more (used or expired). Ask your administrator for a new one.'
        : accept.error.detail
      : accept.error
        ? 'Accepting the invitation failed. Try again.'
        : null
  return (
    <main id="main" className="auth-page">
      <div className="panel">
        <h1>Accept your invitation</h1>
        {!token ? (
          <p className="notice error" role="alert">
            This link has no invitation in it. Open the full link you were sent, or{' '}
            <Link to="/sign-in">sign in</Link>.
          </p>
        ) : (
          <form onSubmit={submit} noValidate>
            <div className="field">
              <label htmlFor="name">Your name</label>
              <input id="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
            </div>
            <NewPassword
              id="new-password"
              label="Password"
              value={password}
              onChange={setPassword}
              judgement={judgement}
            />
            <div className="field">
              <label htmlFor="password-again">Password again</label>
              <input
                id="password-again"
                type="password"
                autoComplete="new-password"
                value={again}
                onChange={(e) => setAgain(e.target.value)}
              />
            </div>
            {(problem || failure) && (
              <div className="notice error" role="alert">
                {problem ?? failure}
              </div>
            )}
            <button type="submit" disabled={accept.isPending}>
              {accept.isPending ? 'Setting up…' : 'Set password and sign in'}
            </button>
          </form>
        )}
      </div>
    </main>
  )
}
