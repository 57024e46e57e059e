// Every module's repositories, registered on the Store (src/platform/db/store.ts): each module's entry
// imports the files that define its repositories, and the composition root imports this file before it
// makes a Store. A module that adds repositories needs no line here; a new module does.
import '../platform/http/idempotency-keys.js'
import '../alerts/index.js'
import '../billing/index.js'
import '../psa-sync/index.js'
import '../tenants/index.js'
import '../webhooks/index.js'
