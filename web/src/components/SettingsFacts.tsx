// The integration's settings as a viewer sees them: the same words as the admin's form
// (pages/IntegrationSettings.tsx), as text, with no control a viewer may not use.
import type { Integration } from '../api/types'
import { hoursOf, keyFields, policies, switches } from '../settings-words'
import { Fact, Facts } from './Facts'

export function SettingsFacts({ integration }: { integration: Integration }) {
  const d = integration.deduplication
  const c = integration.closedTickets
  const policy = policies(hoursOf(c.reopenWindowMinutes)).find((p) => p.id === c.policy)
  const fields = keyFields.filter((f) => (d.keyFields as string[]).includes(f.id)).map((f) => f.label)
  return (
    <section aria-labelledby="settings-facts-h">
      <h2 id="settings-facts-h">Settings</h2>
      <Facts label="Settings">
        {switches.map((s) => (
          <Fact key={s.id} term={s.label}>
            <strong>{integration[s.id] ? 'On:' : 'Off:'}</strong> {integration[s.id] ? s.on : s.off}
          </Fact>
        ))}
        <Fact term="De-duplication">
          {d.enabled ? (
            <>
              <strong>On:</strong> a new alert is added to an open ticket of the same incident, the same when{' '}
              {fields.join(', ').toLowerCase()} are equal
              {d.windowMinutes ? `, for tickets opened within ${d.windowMinutes} minutes` : ''}.
            </>
          ) : (
            <>
              <strong>Off:</strong> every new alert opens its own ticket.
            </>
          )}
        </Fact>
        <Fact term="An update to a closed ticket">
          {policy ? `${policy.label}: ${policy.hint}` : c.policy}
        </Fact>
        <Fact term="Only close tickets nobody has worked">
          {c.closeOnlyUntouched
            ? 'Yes: a ticket a technician has worked on stays open, with a note saying the alert was resolved.'
            : 'No: a resolved alert closes its ticket, worked on or not.'}
        </Fact>
      </Facts>
      <p className="small muted">An admin of your organisation changes these.</p>
    </section>
  )
}
