// What a capability module hands the composition root (docs/architecture.md#the-modules): its routes, each
// built with exactly what it uses, and the handlers of its job kinds (the closed catalogue,
// src/platform/queue/kinds.ts). The root registers both and knows nothing of a module's inside.
import type { App } from '../http/app-types.js'
import type { JobKindEntry } from '../queue/port.js'

/** Registers one route file's routes on the app. */
export type Route = (app: App) => void

export interface ModuleParts {
  readonly routes: readonly Route[]
  readonly jobs: readonly JobKindEntry[]
}
