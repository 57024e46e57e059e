import { Link, useParams } from 'react-router'
import { StateBadge } from '../components/Badge'
import { Page } from '../components/Page'
import { RulesEditor } from '../components/RulesEditor'
import { QueryView } from '../components/State'
import { useIntegration } from '../hooks/integrations'
import { vendorOf } from './Integrations'

export function RulesPage() {
  const { id = '' } = useParams()
  const integration = useIntegration(id)
  return (
    <Page title="Rules">
      <QueryView query={integration} what="Loading the integration">
        {(i) => (
          <>
            <p>
              Integration with <strong>{vendorOf(i)}</strong> <StateBadge state={i.state} />{' '}
              <Link to={`/integrations/${encodeURIComponent(id)}/settings`}>Settings</Link>
            </p>
            <RulesEditor integrationId={id} />
          </>
        )}
      </QueryView>
    </Page>
  )
}
