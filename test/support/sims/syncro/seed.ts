// What a fresh simulated Syncro account holds: customers (businesses, and people without a business
// name), Syncro's default ticket statuses plus a custom "Resolved - Pending Confirmation" that does not
// resolve a ticket, problem types, the fixed priorities, invoice schedules with line items, and several
// hundred tickets of the last days (more than a page of the ticket list, many of one customer, many
// with the subjects alerts use).
import type { Comment, Customer, Schedule, Ticket } from './types.js'

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

/** Subjects of seeded tickets; the first is the one the adapter tests create too. */
const SUBJECTS = [
  'Malware detected on WS-042',
  'Disk full on SRV01',
  'Backup job failed',
  'Printer offline',
  'Password reset',
  'VPN disconnects',
]

/**
 * `count` tickets made over the `days` before `now`, oldest first (ids rising with their time): a third
 * on the first customer, the rest spread over the others. Some were made by alertbridge (their initial
 * comment carries an `alertbridge ref:` line of their own), many share the subjects alerts use, some are
 * resolved; each has a few comments.
 */
export function seedTickets(
  customers: Customer[],
  count: number,
  next: { ticket: number; number: number; comment: number; timer: number },
  now = Date.now(),
  days = 10,
): Ticket[] {
  const out: Ticket[] = []
  const [first] = customers
  if (!first) return out
  for (let i = 0; i < count; i++) {
    const customer = i % 3 === 0 ? first : (customers[1 + (i % (customers.length - 1 || 1))] ?? first)
    const at = new Date(now - ((count - i) / count) * days * 24 * 60 * 60 * 1000).toISOString()
    const id = next.ticket++
    const subject = SUBJECTS[i % SUBJECTS.length] ?? 'Seeded'
    const resolved = i % 4 === 1
    const comment = (subject_: string, body: string): Comment => ({
      id: next.comment++,
      ticket_id: id,
      subject: subject_,
      body,
      hidden: true,
      do_not_email: true,
      tech: null,
      user_id: null,
      created_at: at,
    })
    const byUs = i % 2 === 0
    out.push({
      id,
      number: next.number++,
      subject,
      customer_id: customer.id,
      customer_business_then_name: customer.business_name ?? customer.fullname ?? customer.email ?? '',
      problem_type: 'Security Alert',
      status: resolved ? 'Resolved' : 'New',
      priority: '2 Normal',
      properties: {},
      created_at: at,
      updated_at: at,
      resolved_at: resolved ? at : null,
      comments: [
        comment(
          'Initial Issue',
          byUs
            ? `${subject}: details.\n\nMessage ID: seeded-m-${i}\n\nalertbridge ref: seeded-${i}`
            : `${subject}, reported by phone.`,
        ),
        comment('Update', `Repeated alert.\n\nMessage ID: seeded-u-${i}`),
        ...(resolved ? [comment('Resolution', `Resolved.\n\nMessage ID: seeded-r-${i}`)] : []),
      ],
      ticket_timers: [],
    })
  }
  return out
}
