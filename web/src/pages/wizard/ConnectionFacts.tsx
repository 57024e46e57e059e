// The PSA connection as a viewer sees it: which PSA, its settings (secrets only as saved or not) and the
// ticket defaults by the PSA's names, as text; an admin changes them in the form (ConnectStep.tsx).
import type { PsaView } from '../../api/types'
import { Fact, Facts, LookupFact } from '../../components/Facts'
import { defaultFields, psaKinds } from './psaKinds'

export function ConnectionFacts({ view }: { view: PsaView }) {
  const kind = psaKinds.find((k) => k.kind === view.kind)
  const values = view as Record<string, unknown>
  const defaults = ((values.defaults ?? {}) as Record<string, unknown>) ?? {}
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null)
  const board = text(defaults.board)
  return (
    <section className="panel" aria-labelledby="psa-facts">
      <h2 id="psa-facts">Your PSA connection</h2>
      <Facts label="PSA connection">
        <Fact term="PSA">{kind?.label ?? view.kind}</Fact>
        {kind?.fields
          .filter((f) => !f.list)
          .map((f) => (
            <Fact key={f.name} term={f.label}>
              {f.secret ? (text(values[f.name]) ? 'saved' : 'not set') : (text(values[f.name]) ?? 'not set')}
            </Fact>
          ))}
        {defaultFields.map((f) => (
          <LookupFact
            key={f.name}
            what={f.list}
            term={f.label}
            value={text(defaults[f.name])}
            board={f.name === 'board' ? null : board}
          />
        ))}
        {kind?.fields
          .filter((f) => f.list)
          .map((f) =>
            f.list ? (
              <LookupFact key={f.name} what={f.list} term={f.label} value={text(values[f.name])} />
            ) : null,
          )}
      </Facts>
      <p className="small muted">An admin of your organisation changes the connection.</p>
    </section>
  )
}
