// Case-ignoring "contains" searches in SQL that behave alike on SQLite and PostgreSQL.

/** A LIKE pattern that finds `text` anywhere, its own % and _ taken literally (escaped with \). */
export const containing = (text: string): string =>
  `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
