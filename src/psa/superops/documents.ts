// Every GraphQL document the SuperOps adapter sends (docs/psa/superops.md, "Calls"), written with
// graphql-request's `gql` tag and parsed once with graphql-js when this module loads, so that a
// document that is not GraphQL fails at start, not on a partner's alert. Every value goes in variables;
// nothing a partner or a vendor wrote is ever spliced into a document. The fields selected are the
// published schema's (test/psa/superops/documents.test.ts validates each against the simulator's copy).
import { type DocumentNode, parse } from 'graphql'
import { gql } from 'graphql-request'

const ticketFields = gql`
  fragment TicketFields on Ticket {
    ticketId
    displayId
    subject
    status
    priority
    sourceReferenceId
    client
    createdTime
    updatedTime
    resolutionTime
  }
`

const doc = (source: string): DocumentNode => parse(source)

export const createTicket = doc(gql`
  mutation createTicket($input: CreateTicketInput!) {
    createTicket(input: $input) { ...TicketFields }
  }
  ${ticketFields}
`)

export const updateTicket = doc(gql`
  mutation updateTicket($input: UpdateTicketInput!) {
    updateTicket(input: $input) { ...TicketFields }
  }
  ${ticketFields}
`)

export const getTicket = doc(gql`
  query getTicket($input: TicketIdentifierInput!) {
    getTicket(input: $input) { ...TicketFields worklogTimespent }
  }
  ${ticketFields}
`)

export const getTicketList = doc(gql`
  query getTicketList($input: ListInfoInput!) {
    getTicketList(input: $input) {
      tickets { ...TicketFields }
      listInfo { page pageSize totalCount hasMore }
    }
  }
  ${ticketFields}
`)

export const createTicketNote = doc(gql`
  mutation createTicketNote($input: CreateTicketNoteInput!) {
    createTicketNote(input: $input) { noteId addedBy }
  }
`)

export const getTicketNoteList = doc(gql`
  query getTicketNoteList($input: TicketNoteListInput!) {
    getTicketNoteList(input: $input) { noteId addedBy addedOn content privacyType }
  }
`)

export const getClientList = doc(gql`
  query getClientList($input: ListInfoInput!) {
    getClientList(input: $input) {
      clients { accountId name stage status }
      listInfo { page pageSize totalCount hasMore }
    }
  }
`)

export const getStatusList = doc(gql`
  query getStatusList { getStatusList { id name } }
`)

export const getPriorityList = doc(gql`
  query getPriorityList { getPriorityList { id name } }
`)

export const getCategoryList = doc(gql`
  query getCategoryList { getCategoryList { id name } }
`)

export const getTechnicianGroupList = doc(gql`
  query getTechnicianGroupList { getTechnicianGroupList { groupId name } }
`)

export const getClientContractList = doc(gql`
  query getClientContractList($input: ListInfoInput!) {
    getClientContractList(input: $input) {
      clientContracts {
        contractId
        name
        client
        billableContract { chargeItem quantity quantityCalculationType }
      }
      listInfo { page pageSize totalCount hasMore }
    }
  }
`)

export const getClientContract = doc(gql`
  query getClientContract($input: ClientContractIdentifierInput!) {
    getClientContract(input: $input) {
      contractId
      name
      client
      billableContract { chargeItem quantity quantityCalculationType }
    }
  }
`)

export const updateClientContract = doc(gql`
  mutation updateClientContract($input: UpdateClientContractInput!) {
    updateClientContract(input: $input) {
      contractId
      billableContract { quantity }
    }
  }
`)

/** Every document, by name (for the test that validates them against the schema). */
export const documents = {
  createTicket,
  updateTicket,
  getTicket,
  getTicketList,
  createTicketNote,
  getTicketNoteList,
  getClientList,
  getStatusList,
  getPriorityList,
  getCategoryList,
  getTechnicianGroupList,
  getClientContractList,
  getClientContract,
  updateClientContract,
}
