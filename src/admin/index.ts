// The admin module's entry (docs/architecture.md#the-modules): everything other modules use of it, and
// nothing else. A file outside this folder imports only from here.

export { adminModule } from './module.js'
