#!/usr/bin/env node
// The installed command: runs the built CLI (dist/, written by `npm run build`).
try {
  await import('../dist/bin.js')
} catch (err) {
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !String(err.message).includes('dist')) throw err
  process.stderr.write('alertbridge-vendor is not built yet: run `npm run build` in the repository first\n')
  process.exitCode = 1
}
