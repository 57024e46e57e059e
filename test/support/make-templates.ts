// Makes the migrated templates of templates.ts once and prints them as environment lines, for
// scripts/test.mjs to hand every test process.
import { postgresTemplate, sqliteTemplate } from './templates.js'

const lines = [`TEST_SQLITE_TEMPLATE=${await sqliteTemplate()}`]
if (process.env.TEST_POSTGRES_URL) lines.push(`TEST_POSTGRES_TEMPLATE=${await postgresTemplate()}`)
console.log(lines.join('\n'))
