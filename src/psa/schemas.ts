// The API shapes of a PSA connection, shared by the operator's and the partner's routes: a kind and
// that kind's settings going in (checked per kind by the registry), secrets masked coming out.
import Type from 'typebox'
import { psaKinds } from './stored.js'

export const PsaInput = Type.Object(
  { kind: Type.Enum(psaKinds) },
  {
    additionalProperties: true,
    description: 'kind plus the settings of that kind (docs/psa/README.md lists them)',
  },
)

export const PsaView = Type.Object(
  { kind: Type.String() },
  { additionalProperties: true, description: 'kind plus its settings, secrets masked' },
)
