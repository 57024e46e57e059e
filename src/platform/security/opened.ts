// What a box opened, kept by the sealed text: for sealed values read on every alert or delivery (a
// partner's PSA settings, a vendor's webhook secret and auth header), which opened (AES-GCM) each time
// cost more than their read. A sealed value never changes (new plaintext is sealed afresh, with a new
// IV), so the sealed text is an exact key; each box keeps its own (a box holds its own keys, and one
// with other keys must still refuse what it cannot open). At most `kept` values per box, the most
// recently used; the plaintexts are what the service holds in memory anyway while it uses them.
import { LRUCache } from 'lru-cache'
import type { CryptoBox } from './crypto-box.js'

const kept = 2000
const byBox = new WeakMap<CryptoBox, LRUCache<string, string>>()

/** `box.open(sealed)`, opened once while it is among the box's recently used values. */
export function openKept(box: CryptoBox, sealed: string): string {
  let cache = byBox.get(box)
  if (!cache) {
    cache = new LRUCache<string, string>({ max: kept })
    byBox.set(box, cache)
  }
  let plain = cache.get(sealed)
  if (plain === undefined) {
    plain = box.open(sealed)
    cache.set(sealed, plain)
  }
  return plain
}
