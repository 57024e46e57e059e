// The signed-in user's own account: where they are signed in (browser, address, when), ending one
// session or every other ("Sign out everywhere else"), and changing their password, which ends every
// other session. Viewers and admins alike: it is their own.
import { type FormEvent, useState } from 'react'
import { ApiError } from '../api/client'
import { NewPassword, usePasswordJudge } from '../components/NewPassword'
import { Page } from '../components/Page'
import { ErrorNotice, Notice, QueryView } from '../components/State'
import { deviceOf } from '../device'
import { Ago, Time } from '../format'
import {
  type OwnSession,
  useChangePassword,
  useEndOtherSessions,
  useEndSession,
  useOwnSessions,
} from '../hooks/account'
import { useSession } from '../hooks/session'

function SessionRow({ session, onEnded }: { session: OwnSession; onEnded: (what: string) => void }) {
  const end = useEndSession()
  const device = deviceOf(session.userAgent)
  return (
    <tr>
      <td data-label="Device">
        <strong>{device}</strong>
        {session.current && <div className="small">This session</div>}
        {session.userAgent && <div className="small muted mono">{session.userAgent}</div>}
      </td>
      <td data-label="Address">{session.address ?? '—'}</td>
      <td data-label="Signed in">
        <Time iso={session.createdAt} />
      </td>
      <td data-label="Last seen">
        <Ago iso={session.lastSeenAt} />
      </td>
      <td data-label="End">
        {!session.current && (
          <button
            type="button"
            className="secondary"
            disabled={end.isPending}
            aria-label={`End the session of ${device}, signed in ${new Date(session.createdAt).toLocaleString()}`}
            // The row goes once the list is read again: the parent tells what happened.
            onClick={() =>
              end.mutateAsync(session.id).then(
                () => onEnded(`The session of ${device} ended.`),
                () => undefined,
              )
            }
          >
            End
          </button>
        )}
        {end.error && <ErrorNotice error={end.error} />}
      </td>
    </tr>
  )
}

function Sessions() {
  const sessions = useOwnSessions()
  const endOthers = useEndOtherSessions()
  const [result, setResult] = useState('')
  const others = sessions.data?.data.filter((s) => !s.current).length ?? 0
  return (
    <section className="panel" aria-labelledby="sessions-h">
      <h2 id="sessions-h">Where you are signed in</h2>
      <QueryView query={sessions} what="Loading your sessions">
        {(list) => (
          <div className="table-wrap">
            <table className="responsive">
              <caption className="visually-hidden">Your sessions</caption>
              <thead>
                <tr>
                  <th scope="col">Device</th>
                  <th scope="col">Address</th>
                  <th scope="col">Signed in</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">
                    <span className="visually-hidden">End</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((s) => (
                  <SessionRow key={s.id} session={s} onEnded={setResult} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      <p>
        <button
          type="button"
          disabled={endOthers.isPending || others === 0}
          onClick={() =>
            endOthers.mutate(undefined, {
              onSuccess: (r) =>
                setResult(
                  r.ended === 1
                    ? 'Signed out of 1 other session.'
                    : `Signed out of ${r.ended} other sessions.`,
                ),
            })
          }
        >
          Sign out everywhere else
        </button>
      </p>
      {endOthers.error && <ErrorNotice error={endOthers.error} />}
      <p role="status" className="small">
        {result}
      </p>
    </section>
  )
}

function ChangePassword() {
  const user = useSession().data?.user
  const change = useChangePassword()
  const judge = usePasswordJudge()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [again, setAgain] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [done, setDone] = useState('')
  const judgement = judge ? judge(next, [user?.email ?? '', user?.name ?? '']) : null
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setDone('')
    if (!current) return setProblem('Enter your current password.')
    if (next.length < 12) return setProblem('Choose a new password of at least 12 characters.')
    if (judgement && !judgement.ok) return setProblem(`Choose another password. ${judgement.reason}`)
    if (next !== again) return setProblem('The two new passwords differ.')
    setProblem(null)
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: (r) => {
          setCurrent('')
          setNext('')
          setAgain('')
          setDone(
            r.endedSessions === 0
              ? 'Your password is changed.'
              : `Your password is changed; your ${r.endedSessions === 1 ? 'other session has' : `${r.endedSessions} other sessions have`} ended.`,
          )
        },
      },
    )
  }
  const failure =
    change.error instanceof ApiError && change.error.status === 401 ? 'The current password is wrong.' : null
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="password-h" noValidate>
      <h2 id="password-h">Change your password</h2>
      <p className="small muted">Changing it signs you out everywhere else.</p>
      <div className="field">
        <label htmlFor="current-password">Current password</label>
        <input
          id="current-password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
      </div>
      <NewPassword
        id="account-new-password"
        label="New password"
        value={next}
        onChange={setNext}
        judgement={judgement}
      />
      <div className="field">
        <label htmlFor="account-password-again">New password again</label>
        <input
          id="account-password-again"
          type="password"
          autoComplete="new-password"
          value={again}
          onChange={(e) => setAgain(e.target.value)}
        />
      </div>
      {problem && (
        <div className="notice error" role="alert">
          {problem}
        </div>
      )}
      {!problem &&
        change.error &&
        (failure ? <Notice kind="error">{failure}</Notice> : <ErrorNotice error={change.error} />)}
      <button type="submit" disabled={change.isPending}>
        {change.isPending ? 'Changing…' : 'Change password'}
      </button>
      <p role="status" className="small">
        {done}
      </p>
    </form>
  )
}

export function Account() {
  return (
    <Page title="Your account">
      <Sessions />
      <ChangePassword />
    </Page>
  )
}
