// A key ring that counts what it opens: what the tests of sealed values kept opened
// (src/platform/security/opened.ts) count.
import { type CryptoBox, createKeyRing } from '../../src/platform/security/crypto-box.js'

export function countingBox(key: string): CryptoBox & { opened: number } {
  const ring = createKeyRing(key)
  const box = {
    opened: 0,
    seal: (plain: string) => ring.seal(plain),
    open: (sealed: string) => {
      box.opened++
      return ring.open(sealed)
    },
  }
  return box
}
