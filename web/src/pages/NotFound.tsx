import { Link } from 'react-router'
import { Page } from '../components/Page'

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no such page. Go to the <Link to="/integrations">integrations</Link>.
      </p>
    </Page>
  )
}
