// Every document the SuperOps adapter sends is valid against the simulator's copy of SuperOps'
// published schema (the same subset the simulator executes), and sends every value as a variable.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Kind, validate, visit } from 'graphql'
import { documents } from '../../../src/psa/superops/documents.js'
import { superOpsSchema } from '../../support/sims/superops/schema.js'

describe('SuperOps documents', () => {
  for (const [name, doc] of Object.entries(documents)) {
    test(`${name}: valid against the schema, one named operation, no literal values`, () => {
      assert.deepEqual(validate(superOpsSchema, doc), [])
      const ops = doc.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION)
      assert.equal(ops.length, 1)
      assert.equal(ops[0]?.kind === Kind.OPERATION_DEFINITION ? ops[0].name?.value : null, name)
      const literals: string[] = []
      visit(doc, {
        Argument(node) {
          if (node.value.kind !== Kind.VARIABLE) literals.push(node.name.value)
        },
      })
      assert.deepEqual(literals, [], 'every argument is a variable')
    })
  }
})
