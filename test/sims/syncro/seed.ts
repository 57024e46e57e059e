// What a fresh simulated Syncro account holds: customers (businesses, and people without a business
// name), Syncro's default ticket statuses plus a custom "Resolved - Pending Confirmation" that does not
// resolve a ticket, problem types, the fixed priorities, and invoice schedules with line items.
import type { Customer, Schedule } from './types.js'

export const DEFAULT_STATUSES = [
  'New',
  'In Progress',
  'Resolved',
  'Invoiced',
  'Waiting for Parts',
  'Waiting on Customer',
  'Scheduled',
  'Customer Reply',
  // A custom status: its name starts like the closed one, but it leaves the ticket open.
  'Resolved - Pending Confirmation',
]

export const CLOSING_STATUSES = ['Resolved', 'Invoiced']

export const PROBLEM_TYPES = ['Hardware', 'Software', 'Network', 'Security Alert', 'Other']

export const PRIORITIES = ['0 Urgent', '1 High', '2 Normal', '3 Low']

const businesses = ['Northwind', 'Contoso', 'Fabrikam', "O'Brien & Sons", 'Tailspin', 'Woodgrove', 'Adatum']
const people = [
  ['Ada', 'Lovelace'],
  ['Grace', 'Hopper'],
  ['Alan', 'Turing'],
  ['Edsger', 'Dijkstra'],
]

/**
 * Customer 1 is a business; every fourth customer is a person (no business name); one person has only
 * an e-mail address; one customer is disabled.
 */
export function seedCustomers(count: number): Customer[] {
  const at = '2024-01-02T09:00:00.000Z'
  return Array.from({ length: count }, (_, i) => {
    const id = 1000 + i + 1
    const person = i % 4 === 3
    const [first = '', last = ''] = people[Math.floor(i / 4) % people.length] ?? []
    const emailOnly = i === 7
    return {
      id,
      business_name: person ? null : `${businesses[i % businesses.length]} ${String(i + 1).padStart(3, '0')}`,
      firstname: person && !emailOnly ? first : null,
      lastname: person && !emailOnly ? `${last} ${i + 1}` : null,
      fullname: person && !emailOnly ? `${first} ${last} ${i + 1}` : null,
      email: `contact${i + 1}@example.com`,
      disabled: i === 5,
      created_at: at,
    }
  })
}

/** Invoice schedules of the first customers, each with line items. */
export function seedSchedules(customers: Customer[]): Schedule[] {
  const [first, second] = customers
  const out: Schedule[] = []
  if (first) {
    out.push({
      id: 501,
      customer_id: first.id,
      name: 'Managed Services - Monthly',
      frequency: 'Monthly',
      next_run: '2030-01-01',
      paused: false,
      line_items: [
        line(7001, 31, 'Endpoint Security', 'Endpoint protection per device', 10, 4.5),
        line(7002, 32, 'Cloud Backup', 'Backup storage per TB', 2, 25),
      ],
    })
    out.push({
      id: 502,
      customer_id: first.id,
      name: 'Annual Licences',
      frequency: 'Annually',
      next_run: '2030-06-01',
      paused: false,
      line_items: [line(7003, 33, 'Firewall Licence', 'Firewall subscription', 1, 300)],
    })
  }
  if (second) {
    out.push({
      id: 503,
      customer_id: second.id,
      name: 'Managed Services - Monthly',
      frequency: 'Monthly',
      next_run: '2030-01-01',
      paused: false,
      line_items: [line(7004, 31, 'Endpoint Security', 'Endpoint protection per device', 25, 4.5)],
    })
  }
  return out
}

function line(id: number, productId: number, item: string, name: string, quantity: number, price: number) {
  return { id, product_id: productId, item, name, quantity, price_retail: price, taxable: true }
}
