import { RulesEditor } from '../../components/RulesEditor'

export function RulesStep({ integrationId }: { integrationId: string }) {
  return (
    <section aria-labelledby="rules-step">
      <h2 id="rules-step">Which alerts become tickets</h2>
      <p className="muted">
        Rules are checked from the top; the first enabled rule that fits an alert decides what happens to it.
        A new alert that no enabled rule fits fails, and the vendor is told why.
      </p>
      <RulesEditor integrationId={integrationId} />
    </section>
  )
}
