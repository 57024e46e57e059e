// Usage counts pushed to the built-in sandbox PSA (its faults come from the partner's fault switch).
import type { Setup } from '../support/fixtures.js'
import { usageThroughService } from '../support/psa/usage-through-service.js'

usageThroughService('the sandbox PSA', async () => ({
  psa: { kind: 'sandbox' },
  companyId: '100',
  // The sandbox keeps its lines in the service's own database.
  quantity: async (lineId, { svc, s }) =>
    (await svc.services.psa.sandbox.quantities(s.partnerId, [lineId])).get(lineId) ?? null,
  async fail(s: Setup, status: number, count: number | null) {
    const res = await s.partner('PUT', '/api/partner/sandbox/fault', {
      mode: status === 429 ? 'rate-limited' : 'error',
      operations: ['usage'],
      ...(count === null ? {} : { count }),
    })
    if (res.status !== 200) throw new Error(res.text)
  },
  async heal(s: Setup) {
    const res = await s.partner('DELETE', '/api/partner/sandbox/fault')
    if (res.status !== 204) throw new Error(res.text)
  },
  calls: () => null,
  close: async () => {},
}))
