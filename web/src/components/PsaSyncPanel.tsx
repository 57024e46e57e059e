// Two-way sync, as a service manager sees it: how changes made in the PSA (a ticket closed, reopened,
// merged or deleted by a technician) reach alertbridge, when the PSA was last heard, and, where an
// administrator sets the webhook up by hand, the steps with its address and password to copy.
import { useId, useState } from 'react'
import { ApiError } from '../api/client'
import { Ago } from '../format'
import { usePsa, usePsaSync, useRegisterPsaSync } from '../hooks/psa'
import { useCanEdit } from '../hooks/session'
import { psaName } from '../pages/wizard/psaKinds'
import { ErrorNotice, Loading, Notice } from './State'

/** "every 5 minutes", "every minute", "every 30 seconds". */
export function every(ms: number): string {
  const unit = (n: number, word: string) => (n === 1 ? `every ${word}` : `every ${n} ${word}s`)
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return unit(ms / 3_600_000, 'hour')
  if (ms >= 60_000) return unit(Math.round(ms / 60_000), 'minute')
  return unit(Math.max(1, Math.round(ms / 1000)), 'second')
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/** A value to copy: read-only, labelled, with a copy button that says when it copied. */
function CopyField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId()
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null)
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input
          id={id}
          className="mono"
          readOnly
          value={value}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onFocus={(e) => e.target.select()}
        />
        <button
          type="button"
          className="secondary"
          aria-label={`Copy the ${label.toLowerCase()}`}
          onClick={async () => setCopied((await copyText(value)) ? 'yes' : 'no')}
        >
          Copy
        </button>
        <span role="status" className="small">
          {copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Select it and copy it yourself.' : ''}
        </span>
      </div>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  )
}

export function PsaSyncPanel() {
  const uid = useId()
  const canEdit = useCanEdit()
  const psa = usePsa()
  const sync = usePsaSync()
  const register = useRegisterPsaSync()
  const name = psaName(psa.data?.kind)
  const Name = name.charAt(0).toUpperCase() + name.slice(1)
  const s = sync.data
  const notYet = sync.error instanceof ApiError && sync.error.status === 404

  return (
    <section className="panel" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`}>Two-way sync</h2>
      <p className="small muted">
        When a technician closes, reopens, merges or deletes a ticket in {name}, alertbridge finds out and
        shows it on the ticket.
      </p>
      {!s && notYet && (
        <Notice kind="info">
          <p>Two-way sync is being set up; this takes a moment after the connection is saved.</p>
        </Notice>
      )}
      {!s && !notYet && sync.error ? (
        <ErrorNotice error={sync.error} retry={() => void sync.refetch()} />
      ) : null}
      {!s && sync.isPending && <Loading what="Loading two-way sync" />}
      {s && (
        <>
          <p data-testid="sync-mechanism">
            {s.mechanism === 'push' && (
              <>
                <strong>{Name} pushes changes to alertbridge</strong> as they happen. alertbridge also checks
                your open tickets {every(s.pollIntervalMs)}, in case a change is missed.
              </>
            )}
            {s.mechanism === 'manual' && <strong>An administrator sets up the webhook in {name}:</strong>}
            {s.mechanism === 'poll' && (
              <strong>alertbridge checks your open tickets {every(s.pollIntervalMs)}.</strong>
            )}
          </p>
          {s.mechanism === 'poll' && s.detail && (
            <p className="small muted">
              {/cannot push/.test(s.detail)
                ? `${Name} cannot tell alertbridge about changes itself, so alertbridge asks.`
                : `Why not pushed: ${s.detail}`}
            </p>
          )}
          {s.mechanism === 'push' && s.detail && (
            <details className="small muted">
              <summary>For your PSA administrator</summary>
              <p>{s.detail}</p>
            </details>
          )}
          <dl className="facts">
            <dt>Last heard from {name}</dt>
            <dd>
              <Ago iso={s.lastHeardAt} never="not yet" />
            </dd>
            {s.lastPollAt && (
              <>
                <dt>Open tickets last checked</dt>
                <dd>
                  <Ago iso={s.lastPollAt} />
                </dd>
              </>
            )}
          </dl>
          {s.heldUntil && (
            <Notice kind="info">
              <p>
                Checking {name} is held back to leave its request limit to your alerts; the next check is{' '}
                <Ago iso={s.heldUntil} />.
              </p>
              {s.heldReason && <p className="small muted">{s.heldReason}</p>}
            </Notice>
          )}
          {s.pushesRefused > 0 && (
            <Notice kind="warn">
              <p>
                {s.pushesRefused === 1 ? '1 change pushed' : `${s.pushesRefused} changes pushed`} to
                alertbridge
                {s.pushesRefused === 1 ? ' was' : ' were'} refused: the password or signature did not match.
                {s.mechanism === 'manual' ? ` Check the webhook address and password in ${name}.` : ''}
              </p>
            </Notice>
          )}
          {s.mechanism === 'manual' && (
            <>
              {s.instructions && s.instructions.length > 0 && (
                <ol className="steps-list">
                  {s.instructions.map((step) => (
                    <li key={step}>{step}</li>
                  ))}
                </ol>
              )}
              {s.pushUrl ? (
                <CopyField label="Webhook address" value={s.pushUrl} />
              ) : (
                <p className="small">
                  alertbridge does not know its public address yet: ask whoever runs alertbridge to set it.
                </p>
              )}
              {s.pushSecret ? (
                <CopyField
                  label="Webhook password"
                  value={s.pushSecret}
                  hint="Treat it like a password: anyone with it can tell alertbridge a ticket changed."
                />
              ) : (
                <p className="small muted">Only an administrator can see the webhook password.</p>
              )}
            </>
          )}
          {canEdit && (
            <div className="row center">
              <button
                type="button"
                className="secondary"
                disabled={register.isPending}
                aria-describedby={`${uid}-register-hint`}
                onClick={() => register.mutate()}
              >
                {register.isPending ? 'Registering…' : 'Register again'}
              </button>
              <span className="hint" id={`${uid}-register-hint`}>
                Sets up how {name} tells alertbridge about changes again, e.g. after fixing the API user's
                permissions.
              </span>
            </div>
          )}
          {register.error && <ErrorNotice error={register.error} />}
          {register.isSuccess && (
            <Notice kind="ok">
              <p>Registering again; this page shows the result in a moment.</p>
            </Notice>
          )}
        </>
      )}
    </section>
  )
}
