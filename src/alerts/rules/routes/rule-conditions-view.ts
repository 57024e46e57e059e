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
        checked: Type.Boolean({
          description:
            "false: not run, the alert's condition work having reached its limit (conditionWork); it does not hold",
        }),
        cut: Type.Optional(
          Type.Object(
            {
              length: Type.Integer({ description: "the field's whole length, in characters" }),
              read: Type.Integer({
                description: 'the characters the condition read: the rest was not matched',
              }),
            },
            { description: 'present when the field is longer than a condition reads' },
          ),
        ),
      }),
    ),
  }),
  {
    description:
      'OPEN: the enabled rules of the group that cover the type, in precedence order, up to the first whose conditions hold',
  },
)

export const ConditionWorkView = Type.Object(
  {
    used: Type.Integer({ description: 'units of condition work the decision took' }),
    limit: Type.Integer({ description: 'the most one alert may take' }),
    spent: Type.Boolean({ description: 'a condition was not run because the rest could not pay for it' }),
  },
  {
    description:
      'OPEN: the condition work deciding the rule took (a character read by equals or contains is a unit; by a pattern, a unit per instruction of its program); docs/partner-api.md#rule-conditions',
  },
)
