// The sandbox PSA's own tables: its tickets, notes, faults and billing lines.
// Each table joins the Database (src/platform/db/schema.ts) from here.

export interface SandboxTicketsTable {
  id: string
  partner_id: string
  company_id: string
  board: string | null
  priority: string | null
  type: string | null
  status: string
  summary: string
  description: string
  created_at: string
  updated_at: string
  closed_at: string | null
  /** The correlationId the ticket was created for (the sandbox's externalXRef). */
  external_ref: string | null
}

export interface SandboxNotesTable {
  id: string
  partner_id: string
  ticket_id: string
  text: string
  created_at: string
}

export interface SandboxFaultsTable {
  partner_id: string
  mode: string
  operations: string
  remaining: number | null
  created_at: string
}

/** The sandbox PSA's billing lines with a quantity set (the others are at 0). */
export interface SandboxBillingLinesTable {
  partner_id: string
  line_id: string
  quantity: number
  updated_at: string
}

declare module '../../platform/db/schema.js' {
  interface Database {
    sandbox_tickets: SandboxTicketsTable
    sandbox_notes: SandboxNotesTable
    sandbox_faults: SandboxFaultsTable
    sandbox_billing_lines: SandboxBillingLinesTable
  }
}
