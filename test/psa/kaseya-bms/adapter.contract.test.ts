// The adapter contract on Kaseya BMS, against the BMS simulator on loopback: tokens that expire every
// few seconds (so the run renews them midway), accounts over three pages, several hundred tickets
// (four pages of the ticket list, many on the fixture's account), recurring services for usage
// (the fixture is the Kaseya v2 engine's, test/support/psa/kaseya-v2-contract.ts).
import { kaseyaBmsPsa } from '../../../src/psa/kaseya-bms/adapter.js'
import { adapterContract } from '../../support/psa/contract.js'
import { v2ContractFixture } from '../../support/psa/kaseya-v2-contract.js'
import { startKaseyaBmsSim } from '../../support/sims/kaseya-bms/server.js'

adapterContract(
  'Kaseya BMS',
  v2ContractFixture({
    name: 'Kaseya BMS',
    kind: 'kaseya-bms',
    adapter: kaseyaBmsPsa,
    start: startKaseyaBmsSim,
    password: 'bms-password',
  }),
)
