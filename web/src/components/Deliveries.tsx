// Webhook delivery health: the status updates sent to the vendor about this partner's alerts. Dead
// deliveries (every retry failed) can be sent again.
import { useState } from 'react'
import { Time } from '../format'
import { type DeliveryStatus, useDeliveries, useReplayDelivery } from '../hooks/deliveries'
import { useCanEdit } from '../hooks/session'
import { Badge } from './Badge'
import { Pager, usePager } from './Pager'
import { ErrorNotice, Notice, QueryView } from './State'

export function Deliveries() {
  const canEdit = useCanEdit()
  const [status, setStatus] = useState<DeliveryStatus | ''>('dead')
  const pager = usePager(status)
  const list = useDeliveries(status || null, pager.cursor)
  const replay = useReplayDelivery()
  const [replayed, setReplayed] = useState<string | null>(null)
  return (
    <section className="panel" aria-labelledby="deliveries-h">
      <h2 id="deliveries-h">Webhook deliveries to the vendor</h2>
      <div className="row">
        <div className="field">
          <label htmlFor="d-status">Show</label>
          <select
            id="d-status"
            value={status}
            onChange={(e) => setStatus(e.target.value as DeliveryStatus | '')}
          >
            <option value="dead">Dead (every retry failed)</option>
            <option value="pending">Pending or retrying</option>
            <option value="delivered">Delivered</option>
            <option value="">All</option>
          </select>
        </div>
      </div>
      {replayed && <Notice kind="ok">Delivery {replayed} was sent again.</Notice>}
      {replay.error && <ErrorNotice error={replay.error} />}
      <QueryView query={list} what="Loading deliveries">
        {(page) =>
          page.data.length === 0 ? (
            <p>{status === 'dead' ? 'No dead deliveries: the vendor is getting every update.' : 'None.'}</p>
          ) : (
            <div className="table-wrap">
              <table className="responsive">
                <caption className="visually-hidden">Webhook deliveries</caption>
                <thead>
                  <tr>
                    <th scope="col">Delivery</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last answer</th>
                    <th scope="col">Created</th>
                    <th scope="col">
                      <span className="visually-hidden">Replay</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.map((d) => (
                    <tr key={d.id}>
                      <td data-label="Delivery">
                        {d.eventType}
                        <div className="mono small">{d.id}</div>
                      </td>
                      <td data-label="Status">
                        <Badge kind={d.status === 'pending' ? 'pending-delivery' : d.status}>
                          {d.status}
                        </Badge>
                      </td>
                      <td data-label="Attempts">{d.attempts}</td>
                      <td data-label="Last answer">
                        {d.lastError ?? (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : '—')}
                      </td>
                      <td data-label="Created">
                        <Time iso={d.createdAt} />
                      </td>
                      <td data-label="Replay">
                        {canEdit && d.status === 'dead' && (
                          <button
                            type="button"
                            className="secondary"
                            disabled={replay.isPending}
                            aria-label={`Replay delivery ${d.id}`}
                            onClick={() => replay.mutate(d.id, { onSuccess: () => setReplayed(d.id) })}
                          >
                            Replay
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      <Pager pager={pager} nextCursor={list.data?.nextCursor} label="Deliveries" />
    </section>
  )
}
