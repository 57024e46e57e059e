// NinjaOne takes ticket writes only from a user: the partner connects one through NinjaOne's consent
// page (docs/psa/ninjaone.md#connecting-the-consent-flow), and comes back here with a plain message.
import { useLocation } from 'react-router'
import { ErrorNotice, Notice } from '../../components/State'
import { useConnectNinjaOne } from '../../hooks/ninjaone'

export function NinjaOneConnect({ connected }: { connected: boolean }) {
  const connect = useConnectNinjaOne()
  const { pathname, search } = useLocation()
  const back = new URLSearchParams(search)
  const outcome = back.get('ninjaone')
  return (
    <section className="panel" aria-labelledby="ninjaone-connect">
      <h2 id="ninjaone-connect">Connect NinjaOne as a user</h2>
      <p className="small muted">
        NinjaOne writes tickets only for a signed-in user. Register this service's callback as the redirect
        URI of your NinjaOne API application (Web application, scopes Monitoring, Management and Offline
        access), then sign in to NinjaOne as the user tickets are written as.
      </p>
      {outcome === 'connected' && (
        <Notice kind="ok">
          <p>NinjaOne is connected: alertbridge keeps the user's refresh token.</p>
        </Notice>
      )}
      {outcome === 'failed' && (
        <Notice kind="error">
          <p>NinjaOne was not connected: {back.get('reason') ?? 'the consent did not complete'}.</p>
        </Notice>
      )}
      {connected && outcome === null && <p className="small">A NinjaOne user is connected.</p>}
      <button type="button" disabled={connect.isPending} onClick={() => connect.mutate(pathname)}>
        {connect.isPending ? 'Opening NinjaOne…' : connected ? 'Connect NinjaOne again' : 'Connect NinjaOne'}
      </button>
      {connect.error && <ErrorNotice error={connect.error} />}
    </section>
  )
}
