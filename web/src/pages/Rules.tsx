import { useParams } from 'react-router'
import { IntegrationHeader } from '../components/IntegrationHeader'
import { Page } from '../components/Page'
import { RulesEditor } from '../components/RulesEditor'
import { QueryView } from '../components/State'
import { useIntegration } from '../hooks/integrations'

export function RulesPage() {
  const { id = '' } = useParams()
  const integration = useIntegration(id)
  return (
    <Page title="Rules">
      <QueryView query={integration} what="Loading the integration">
        {(i) => (
          <>
            <IntegrationHeader integration={i} current="Rules" />
            <RulesEditor integrationId={id} />
          </>
        )}
      </QueryView>
    </Page>
  )
}
