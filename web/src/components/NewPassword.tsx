// A field for choosing a password, with a live strength meter and the reason a password is too easy to
// guess (web/src/password-strength.ts, loaded when the field is first shown). The service judges again.
import { useEffect, useState } from 'react'
import type { Judgement } from '../password-strength'

type Judge = (password: string, userInputs?: readonly string[]) => Judgement

const words = ['too easy to guess', 'too easy to guess', 'weak', 'strong', 'very strong']

/** The judge, once its module has loaded; null until then (the service still judges on submit). */
export function usePasswordJudge(): Judge | null {
  const [judge, setJudge] = useState<{ fn: Judge } | null>(null)
  useEffect(() => {
    let live = true
    import('../password-strength').then(
      (m) => live && setJudge({ fn: m.judge }),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [])
  return judge?.fn ?? null
}

export function NewPassword({
  id,
  label,
  value,
  onChange,
  judgement,
}: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  /** The judge's answer for `value`, or null while it loads. */
  judgement: Judgement | null
}) {
  const hintId = `${id}-hint`
  const text =
    value.length === 0 || !judgement
      ? 'At least 12 characters; a few uncommon words make a strong password.'
      : judgement.ok
        ? `Strength: ${words[judgement.score]}.`
        : `Strength: ${words[judgement.score]}. ${judgement.reason}`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        autoComplete="new-password"
        aria-describedby={hintId}
        aria-invalid={value.length > 0 && judgement !== null && !judgement.ok}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {value.length > 0 && judgement && (
        <meter
          className="strength"
          min={0}
          max={4}
          low={2}
          high={3}
          optimum={4}
          value={judgement.score}
          aria-labelledby={hintId}
        />
      )}
      <p className="hint" id={hintId} aria-live="polite">
        {text}
      </p>
    </div>
  )
}
