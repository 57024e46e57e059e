// Every PSA simulator, by the PSA kind it stands in for.
import { startAutotaskSim } from './autotask/server.js'
import { startConnectWiseSim } from './connectwise/server.js'
import { startHaloPsaSim } from './halopsa/server.js'
import { startKaseyaBmsSim } from './kaseya-bms/server.js'
import { startNinjaOneSim } from './ninjaone/server.js'
import { startPulsewayPsaSim } from './pulseway-psa/server.js'
import { startSuperOpsSim } from './superops/server.js'
import { startSyncroSim } from './syncro/server.js'

export const simulators = {
  connectwise: startConnectWiseSim,
  autotask: startAutotaskSim,
  halopsa: startHaloPsaSim,
  'kaseya-bms': startKaseyaBmsSim,
  syncro: startSyncroSim,
  'pulseway-psa': startPulsewayPsaSim,
  superops: startSuperOpsSim,
  ninjaone: startNinjaOneSim,
}
