// The folder the service's files are read from (docs/ for the guide pages, web/dist/ for the
// portal): the nearest folder above this module holding alertbridge's package.json. The same from
// src/ (through tsx), from dist/, and from a bundle placed elsewhere beside a link to them (the test
// build), whatever the working directory.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'alertbridge')
          return dir
      } catch {
        // not a manifest we can read: look further up
      }
    }
    if (dirname(dir) === dir) throw new Error(`no alertbridge package.json above ${from}`)
  }
}

export const appRoot = findRoot(dirname(fileURLToPath(import.meta.url)))
