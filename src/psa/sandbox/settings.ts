// The sandbox PSA's settings: ticket defaults, and look-up entries to offer beside the seeded ones.
import Type from 'typebox'
import { KindSettings, Str, TicketDefaults } from '../settings.js'

const Entity = Type.Union([
  Type.String({ minLength: 1, maxLength: 128 }),
  Type.Object({ id: Str('id'), name: Type.Optional(Str('name')) }, { additionalProperties: false }),
])

export const SandboxSettings = KindSettings({
  defaults: Type.Optional(TicketDefaults),
  companies: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
  boards: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
  priorities: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
  statuses: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
  types: Type.Optional(Type.Array(Entity, { maxItems: 500 })),
})
