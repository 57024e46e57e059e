// Which integration a screen is about: the vendor's name, the state, and the integration's other screens.
import { Link } from 'react-router'
import type { Integration } from '../api/types'
import { useVendorName } from '../hooks/integrations'
import { StateBadge } from './Badge'

const screens = [
  { path: 'setup/connect', label: 'Setup' },
  { path: 'rules', label: 'Rules' },
  { path: 'settings', label: 'Settings' },
  { path: 'maintenance', label: 'Maintenance' },
] as const

export function IntegrationHeader({ integration, current }: { integration: Integration; current?: string }) {
  const id = integration.integrationId
  const vendor = useVendorName(id)
  return (
    <p className="row">
      <span>
        Integration with <strong>{vendor ?? id}</strong> <StateBadge state={integration.state} />
      </span>
      {screens
        .filter((s) => s.label !== current)
        .map((s) => (
          <Link key={s.path} to={`/integrations/${encodeURIComponent(id)}/${s.path}`}>
            {s.label}
          </Link>
        ))}
      <Link to={`/tickets?integrationId=${encodeURIComponent(id)}`}>Tickets</Link>
    </p>
  )
}
