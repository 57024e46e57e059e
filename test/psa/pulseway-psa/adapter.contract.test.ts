// The adapter contract on Pulseway PSA, against the Pulseway simulator on loopback: tokens that expire
// every few seconds (so the run renews them midway), accounts over three pages, several hundred tickets
// (four pages of the ticket list), recurring services for usage; no webhooks (the fixture is the
// Kaseya v2 engine's, test/support/psa/kaseya-v2-contract.ts).
import { pulsewayPsa } from '../../../src/psa/pulseway-psa/adapter.js'
import { adapterContract } from '../../support/psa/contract.js'
import { v2ContractFixture } from '../../support/psa/kaseya-v2-contract.js'
import { startPulsewayPsaSim } from '../../support/sims/pulseway-psa/server.js'

adapterContract(
  'Pulseway PSA',
  v2ContractFixture({
    name: 'Pulseway PSA',
    kind: 'pulseway-psa',
    adapter: pulsewayPsa,
    start: startPulsewayPsaSim,
    password: 'pulseway-password',
  }),
)
