// Every PSA simulator, by the PSA kind it stands in for.
import { startAutotaskSim } from './autotask/server.js'
import { startConnectWiseSim } from './connectwise/server.js'
import { startKaseyaBmsSim } from './kaseya-bms/server.js'

export const simulators = {
  connectwise: startConnectWiseSim,
  autotask: startAutotaskSim,
  'kaseya-bms': startKaseyaBmsSim,
}
