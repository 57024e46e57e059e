// How strong a new password is, judged in the browser as the service judges it
// (src/platform/security/passwords.ts: zxcvbn-ts, a score of 3 of 4 or more). Loaded only by the screens that
// set a password. The browser gets the common passwords and patterns but not the English word and name
// lists (another megabyte): the service, which has them, may still refuse a password the meter calls
// strong, and the portal then shows its reason. The service has the last word.
import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import * as common from '@zxcvbn-ts/language-common'
import { translations } from '@zxcvbn-ts/language-en'

export const minPasswordLength = 12
export const strongEnough = 3

const estimator = new ZxcvbnFactory({
  dictionary: common.dictionary,
  graphs: common.adjacencyGraphs,
  translations,
})

export interface Judgement {
  /** 0 (too guessable) to 4 (very unguessable). */
  score: number
  ok: boolean
  /** Why it is weak, in the estimator's words; empty when it is strong enough. */
  reason: string
}

export function judge(password: string, userInputs: readonly string[] = []): Judgement {
  if (password.length < minPasswordLength)
    return { score: 0, ok: false, reason: `Use at least ${minPasswordLength} characters.` }
  // The product's name too, as the service counts it (src/platform/security/passwords.ts).
  const inputs = [...userInputs, 'alertbridge']
    .flatMap((i) => [i, ...i.split(/[^\p{L}\p{N}]+/u)])
    .filter((i) => i.length > 2)
  const { score, feedback } = estimator.check(password.slice(0, 100), inputs)
  const why = [feedback.warning, ...feedback.suggestions].filter((s): s is string => Boolean(s))
  return {
    score,
    ok: score >= strongEnough,
    reason: score >= strongEnough ? '' : (why.length ? why : ['Add a few more uncommon words.']).join(' '),
  }
}
