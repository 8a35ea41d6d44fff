import type { Migration } from '../migrate';

/**
 * Whose quota each logged request spent: `quota_id` is `demo` for Demo mode's simulated service, or `key:<16 hex>`
 * for a live key, a fingerprint of the service origin and the key (src/core/serviceClient.ts quotaIdOf), never the
 * key itself. Usage's "last 24 hours" counts the current key's requests only, so requests made in Demo mode before a
 * key was pasted, or with a replaced key, are not charged to it. Rows logged before this migration keep NULL: whose
 * they were is not known, and they count for no key.
 */
export const migration: Migration = {
  version: 140,
  name: 'request-quota',
  up(db) {
    db.exec(`
      ALTER TABLE request_log ADD COLUMN quota_id TEXT;
      CREATE INDEX request_log_quota_at ON request_log(quota_id, at);
    `);
  },
};
