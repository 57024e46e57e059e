// The setup wizard of one integration: connect the PSA → map accounts → map services to billing
// lines → rules → review and complete the mapping (mapping → pending). Each step has its own URL.
import { Link, Navigate, useParams } from 'react-router'
import { IntegrationHeader } from '../../components/IntegrationHeader'
import { Page } from '../../components/Page'
import { QueryView } from '../../components/State'
import { useIntegration } from '../../hooks/integrations'
import { AccountsStep } from './AccountsStep'
import { ConnectStep } from './ConnectStep'
import { ReviewStep } from './ReviewStep'
import { RulesStep } from './RulesStep'
import { ServicesStep } from './ServicesStep'

export const steps = [
  { id: 'connect', label: 'Connect PSA' },
  { id: 'accounts', label: 'Map accounts' },
  { id: 'services', label: 'Map services' },
  { id: 'rules', label: 'Rules' },
  { id: 'review', label: 'Review' },
] as const

export function Wizard() {
  const { id = '', step = 'connect' } = useParams()
  const integration = useIntegration(id)
  const index = steps.findIndex((s) => s.id === step)
  if (index < 0) return <Navigate to={`/integrations/${encodeURIComponent(id)}/setup/connect`} replace />
  const current = steps[index]!
  const previous = steps[index - 1]
  const next = steps[index + 1]
  const base = `/integrations/${encodeURIComponent(id)}/setup`
  return (
    <Page title={`Set up: ${current.label}`}>
      <QueryView query={integration} what="Loading the integration">
        {(i) => (
          <>
            <IntegrationHeader integration={i} current="Setup" />
            <nav aria-label="Setup steps">
              <ol className="steps">
                {steps.map((s) => (
                  <li key={s.id}>
                    <Link to={`${base}/${s.id}`} aria-current={s.id === step ? 'step' : undefined}>
                      {s.label}
                    </Link>
                  </li>
                ))}
              </ol>
            </nav>
            {step === 'connect' && <ConnectStep />}
            {step === 'accounts' && <AccountsStep integrationId={id} />}
            {step === 'services' && <ServicesStep integrationId={id} />}
            {step === 'rules' && <RulesStep integrationId={id} />}
            {step === 'review' && <ReviewStep integration={i} />}
            <nav className="row spread" aria-label="Wizard">
              {previous ? (
                <Link className="button secondary" to={`${base}/${previous.id}`}>
                  Back: {previous.label}
                </Link>
              ) : (
                <span />
              )}
              {next && (
                <Link className="button" to={`${base}/${next.id}`}>
                  Next: {next.label}
                </Link>
              )}
            </nav>
          </>
        )}
      </QueryView>
    </Page>
  )
}
