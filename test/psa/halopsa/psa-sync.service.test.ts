// HaloPSA two-way sync through the service: the webhook an administrator adds in Halo from the portal's
// steps (the URL and the Basic auth password the partner API shows), test/support/psa/sync-through-service.ts.
import { haloService } from '../../support/psa/service-fixtures.js'
import { syncThroughService } from '../../support/psa/sync-through-service.js'

syncThroughService({
  service: haloService,
  push: 'manual',
  async setUpByHand(sim, url, secret) {
    const r = await fetch(`${sim.url}/__sim/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url, username: 'alertbridge', password: secret }),
    })
    if (r.status !== 201) throw new Error(`the simulator refused the webhook: ${r.status} ${await r.text()}`)
  },
  // The batch list reads every pushed ticket at once; a closed one is then read on its own (its merge).
  reads: { pattern: /\/api\/Tickets\/\d+$/, method: 'GET' },
  merges: true,
  signsBody: false,
})
