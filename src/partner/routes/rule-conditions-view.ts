// The dry run's account of a rule's conditions (docs/partner-api.md#rule-conditions): the rules of the
// alert's group and type tried in precedence order, up to the first whose conditions all hold.
import Type from 'typebox'

export const RuleChecksView = Type.Array(
  Type.Object({
    ruleId: Type.String(),
    precedence: Type.Integer(),
    holds: Type.Boolean({ description: 'every condition holds (a rule without conditions: true)' }),
    conditions: Type.Array(
      Type.Object({
        condition: Type.Object({
          field: Type.String(),
          equals: Type.Optional(Type.String()),
          contains: Type.Optional(Type.String()),
          matches: Type.Optional(Type.String()),
        }),
        holds: Type.Boolean(),
        detail: Type.String({ description: 'the value seen and the test, in one sentence' }),
      }),
    ),
  }),
  {
    description:
      'OPEN: the enabled rules of the group that cover the type, in precedence order, up to the first whose conditions hold',
  },
)
