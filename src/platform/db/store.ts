// Every repository over one connection (or one transaction). `transaction` hands the callback a
// Store whose repositories all write inside the same transaction.
import type SQLite from 'better-sqlite3'
import { type Kysely, sql } from 'kysely'
import { PsaEffectRepository } from '../../alerts/executor/psa-effects-repository.js'
import { RuleRepository } from '../../alerts/rules/repository.js'
import { CatchAllRepository } from '../../alerts/steps/catch-all/repository.js'
import { MaintenanceRepository } from '../../alerts/steps/maintenance/repository.js'
import { StormRepository } from '../../alerts/steps/storm/repository.js'
import { TicketRepository } from '../../alerts/tickets/repository.js'
import { UsagePushRepository } from '../../billing/usage-pushes-repository.js'
import { UsageRepository } from '../../billing/usage-repository.js'
import { PsaSyncRepository } from '../../psa-sync/repository.js'
import { AuditRepository } from '../../tenants/audit/repository.js'
import { TokenRepository } from '../../tenants/credentials/tokens-repository.js'
import { PortalUserRepository } from '../../tenants/people/repository.js'
import { IntegrationRepository } from '../../tenants/repositories/integrations.js'
import { MappingRepository } from '../../tenants/repositories/mappings.js'
import { NameRepository } from '../../tenants/repositories/names.js'
import { PartnerRepository } from '../../tenants/repositories/partners.js'
import { ServiceMappingRepository } from '../../tenants/repositories/service-mappings.js'
import { SettingsRepository } from '../../tenants/repositories/settings.js'
import { VendorDataRepository } from '../../tenants/repositories/vendor-data.js'
import { VendorRepository } from '../../tenants/repositories/vendors.js'
import { DeliveryRepository } from '../../webhooks/deliveries-repository.js'
import { DeliveryFeedRepository } from '../../webhooks/delivery-feed.js'
import { EventRepository } from '../../webhooks/events-repository.js'
import { IdempotencyRepository } from '../http/idempotency-keys.js'
import type { CryptoBox } from '../security/crypto-box.js'
import type { Database } from './schema.js'

export class Store {
  readonly vendors: VendorRepository
  readonly partners: PartnerRepository
  readonly integrations: IntegrationRepository
  readonly vendorData: VendorDataRepository
  readonly mappings: MappingRepository
  /** The names beside ids on the partner's screens, in bulk for a page (vendors, accounts, companies). */
  readonly names: NameRepository
  readonly serviceMappings: ServiceMappingRepository
  readonly usage: UsageRepository
  /** Usage pushed to the PSA: line mappings per account and the last push's state. */
  readonly usagePushes: UsagePushRepository
  readonly rules: RuleRepository
  readonly tickets: TicketRepository
  readonly events: EventRepository
  readonly tokens: TokenRepository
  readonly settings: SettingsRepository
  readonly deliveries: DeliveryRepository
  /** A vendor's deliveries after a cursor (the events long-poll). */
  readonly deliveryFeed: DeliveryFeedRepository
  readonly psaEffects: PsaEffectRepository
  /** Two-way sync: how each partner's PSA is heard, and the ticket reads and changes it makes. */
  readonly psaSync: PsaSyncRepository
  /** The operator audit log. */
  readonly audit: AuditRepository
  /** The partner portal's users and their sessions. */
  readonly portalUsers: PortalUserRepository
  /** The vendors' idempotency keys and the answers kept for them (docs/vendor-api.md#idempotency-keys). */
  readonly idempotency: IdempotencyRepository
  /** Maintenance windows and the alerts they hold (src/alerts/steps/maintenance/repository.ts). */
  readonly maintenance: MaintenanceRepository
  /** The catch-all account's tickets and the accounts seen unmapped (docs/decision-table.md#catch-all). */
  readonly catchAll: CatchAllRepository
  /** Storm control's folded incidents and note lines (docs/decision-table.md#storm). */
  readonly storms: StormRepository

  constructor(
    readonly kysely: Kysely<Database>,
    private readonly box: CryptoBox,
    private readonly inTransaction = false,
    /** The embedded connection, when the database is SQLite: savepoints skip the query builder. */
    private readonly sqlite: SQLite.Database | null = null,
  ) {
    this.vendors = new VendorRepository(kysely, box)
    this.partners = new PartnerRepository(kysely, box)
    this.integrations = new IntegrationRepository(kysely, box)
    this.vendorData = new VendorDataRepository(kysely)
    this.mappings = new MappingRepository(kysely)
    this.names = new NameRepository(kysely)
    this.serviceMappings = new ServiceMappingRepository(kysely)
    this.usage = new UsageRepository(kysely)
    this.usagePushes = new UsagePushRepository(kysely)
    this.rules = new RuleRepository(kysely)
    this.tickets = new TicketRepository(kysely)
    this.events = new EventRepository(kysely)
    this.tokens = new TokenRepository(kysely)
    this.settings = new SettingsRepository(kysely)
    this.deliveries = new DeliveryRepository(kysely)
    this.deliveryFeed = new DeliveryFeedRepository(kysely)
    this.psaEffects = new PsaEffectRepository(kysely)
    this.psaSync = new PsaSyncRepository(kysely, box)
    this.audit = new AuditRepository(kysely)
    this.portalUsers = new PortalUserRepository(kysely)
    this.idempotency = new IdempotencyRepository(kysely, box)
    this.maintenance = new MaintenanceRepository(kysely)
    this.catchAll = new CatchAllRepository(kysely)
    this.storms = new StormRepository(kysely)
  }

  async transaction<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this)
    return this.kysely.transaction().execute((trx) => work(new Store(trx, this.box, true, this.sqlite)))
  }

  /**
   * Inside a transaction: runs `work` under a savepoint; if it throws, what it wrote is rolled back (the
   * transaction's earlier writes stay) and the error is thrown on. On SQLite the transaction holds the one
   * connection, so the savepoint statements run on it directly (its statement cache, connect.ts, prepares
   * each once): the write batches use one per write (docs/decisions/speed/write-batcher.md).
   */
  async savepoint<T>(name: string, work: () => Promise<T>): Promise<T> {
    return this.savepointUnless(name, async () => ({ keep: true, value: await work() }))
  }

  /**
   * The same, where `work` says whether to keep what it wrote: `keep: false` rolls its writes back
   * (the transaction's earlier writes stay) and answers its value, without an exception (another
   * attempt got there first, say). A throw still rolls back and is thrown on.
   */
  async savepointUnless<T>(name: string, work: () => Promise<{ keep: boolean; value: T }>): Promise<T> {
    const sqlite = this.sqlite
    const run = sqlite
      ? async (statement: string) => {
          sqlite.prepare(statement).run()
        }
      : async (statement: string) => {
          await sql.raw(statement).execute(this.kysely)
        }
    await run(`savepoint ${name}`)
    let done: { keep: boolean; value: T }
    try {
      done = await work()
    } catch (err) {
      await run(`rollback to savepoint ${name}`)
      await run(`release savepoint ${name}`)
      throw err
    }
    if (!done.keep) await run(`rollback to savepoint ${name}`)
    await run(`release savepoint ${name}`)
    return done.value
  }
}
