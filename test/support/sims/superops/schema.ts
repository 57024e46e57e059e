// The part of SuperOps' published MSP GraphQL schema (docs/psa/superops.md) that alertbridge uses,
// built with graphql-js so that the simulator parses, validates and executes a request the way a
// GraphQL server does: an unknown field, a missing required argument or a wrong enum value is refused
// before any resolver runs. Names and shapes are SuperOps' own; JSON objects (a ticket's client, its
// technician group, a note's author) are the `JSON` scalar as SuperOps types them.
import { buildSchema } from 'graphql'

export const superOpsSdl = /* GraphQL */ `
  scalar JSON

  enum TicketSource { FORM AGENT EMAIL AI PHONE INTEGRATION }
  enum NotePrivacyType { PRIVATE PUBLIC }
  enum SortOrder { ASC DESC }
  enum QuantityChangeOperation { INCREASE DECREASE BASELINE }
  enum WorkItemModule { TICKET TASK }

  input SortInput { attribute: String!, order: SortOrder }
  input ListInfoInput { page: Int, pageSize: Int, condition: JSON, sort: [SortInput] }
  type ListInfo { page: Int, pageSize: Int, totalCount: Int, hasMore: Boolean }

  type Client { accountId: ID!, name: String, stage: String, status: String }
  type ClientList { clients: [Client], listInfo: ListInfo }

  type Ticket {
    ticketId: ID!
    displayId: String
    subject: String
    status: String
    priority: String
    category: String
    source: String
    sourceReferenceId: String
    client: JSON
    techGroup: JSON
    technician: JSON
    createdTime: String
    updatedTime: String
    resolutionTime: String
    worklogTimespent: String
  }
  type TicketList { tickets: [Ticket], listInfo: ListInfo }

  type TicketNote { noteId: ID!, addedBy: JSON, addedOn: String, content: String, privacyType: NotePrivacyType }
  type TicketStatus { id: ID, name: String, description: String }
  type TicketPriority { id: ID, name: String, colorCode: String }
  type TicketCategory { id: ID, name: String, subCategories: JSON }
  type TechnicianGroup { groupId: ID!, name: String }

  type BillableContract { chargeItem: JSON, quantity: Float, quantityCalculationType: String }
  type ClientContract {
    contractId: ID!
    name: String
    client: JSON
    startDate: String
    billableContract: BillableContract
  }
  type ClientContractList { clientContracts: [ClientContract], listInfo: ListInfo }

  type WorklogEntry { itemId: ID!, qty: Float, billDateTime: String, notes: String, technician: JSON }

  input TicketIdentifierInput { ticketId: ID! }
  input ClientIdentifierInput { accountId: ID! }
  input TechnicianGroupIdentifierInput { groupId: ID! }
  input TicketNoteListInput { ticketId: ID! }

  input CreateTicketInput {
    subject: String!
    client: ClientIdentifierInput!
    source: TicketSource!
    description: String
    status: String
    priority: String
    category: String
    techGroup: TechnicianGroupIdentifierInput
    sourceReferenceId: String
    suppressCloseNotification: Boolean
  }
  input UpdateTicketInput {
    ticketId: ID!
    subject: String
    status: String
    priority: String
    category: String
    techGroup: TechnicianGroupIdentifierInput
    suppressCloseNotification: Boolean
  }
  input CreateTicketNoteInput {
    ticket: TicketIdentifierInput!
    content: String!
    privacyType: NotePrivacyType!
    addedOn: String
  }

  input ContractQuantityChangeInput {
    quantity: Float!
    effectiveDate: String
    quantityChangeOperation: QuantityChangeOperation!
  }
  input BillableContractUpdateInput { change: ContractQuantityChangeInput! }
  input ClientContractUpdateInput { contractId: ID!, billableContract: BillableContractUpdateInput! }
  input UpdateClientContractInput { contract: ClientContractUpdateInput! }
  input ClientContractIdentifierInput { contractId: ID! }

  input WorkItemInput { workId: ID!, module: WorkItemModule! }
  input CreateWorklogEntryInput { workItem: WorkItemInput!, qty: Float!, billDateTime: String, notes: String }

  type Query {
    getTicket(input: TicketIdentifierInput!): Ticket
    getTicketList(input: ListInfoInput!): TicketList
    getTicketNoteList(input: TicketNoteListInput!): [TicketNote]
    getClientList(input: ListInfoInput!): ClientList
    getStatusList: [TicketStatus]
    getPriorityList: [TicketPriority]
    getCategoryList: [TicketCategory]
    getTechnicianGroupList: [TechnicianGroup]
    getClientContractList(input: ListInfoInput!): ClientContractList
    getClientContract(input: ClientContractIdentifierInput!): ClientContract
  }

  type Mutation {
    createTicket(input: CreateTicketInput!): Ticket
    updateTicket(input: UpdateTicketInput!): Ticket
    createTicketNote(input: CreateTicketNoteInput!): TicketNote
    updateClientContract(input: UpdateClientContractInput!): ClientContract
    createWorklogEntries(input: [CreateWorklogEntryInput!]!): [WorklogEntry]
  }
`

export const superOpsSchema = buildSchema(superOpsSdl)
