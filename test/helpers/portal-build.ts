// The portal's tests need web/dist: built here when missing or older than web/ (as `npm start` does).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const buildScript = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url))

export function ensurePortalBuilt(): void {
  const result = spawnSync(process.execPath, [buildScript, 'web'], { stdio: 'inherit' })
  if (result.status !== 0) throw new Error('building the portal (web/dist) failed')
}
