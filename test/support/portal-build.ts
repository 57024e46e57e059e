// The portal's tests need web/dist: built here when missing or older than web/ (as `npm start` does).
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const buildScript = join(process.cwd(), 'scripts', 'build.mjs')

export function ensurePortalBuilt(): void {
  const result = spawnSync(process.execPath, [buildScript, 'web'], { stdio: 'inherit' })
  if (result.status !== 0) throw new Error('building the portal (web/dist) failed')
}
