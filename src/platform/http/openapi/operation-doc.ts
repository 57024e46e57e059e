// One line of the operations table of the OpenAPI document (operations.ts).

export interface OperationDoc {
  /** The operationId: camelCase, unique in the document (what a generated client names the call). */
  id: string
  /** What the call does beyond its summary: when to use it, what it changes, what to watch for. */
  description?: string
  /** An example request body (JSON), when one made from the schema would say too little. */
  body?: unknown
  /** Examples of answers, by status code. */
  answers?: Record<string, unknown>
  /** Descriptions of responses that say more than the status's own. */
  responses?: Record<string, string>
}
