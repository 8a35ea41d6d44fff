import type { Migration } from '../migrate';

/**
 * A team's accounts (docs/architecture.md "A team on one server"). `users` holds each member: a login unique
 * whatever its case, a display name, a role (viewer, buyer, admin), the argon2id hash of the password (never the
 * password), whether an admin turned the account off, and when the member last signed in. `user_sessions` holds every
 * signed-in browser: the SHA-256 of the cookie's random id (a copy of the table opens no session), its CSRF token,
 * when it was made and last used (idle timeout) and when it ends; it is in the database so that every server of the
 * team accepts the cookie. `sign_in_throttle` counts failed sign-ins per login and per client address
 * (`login:<login>`, `addr:<address>`), known logins or not, and until when the next try must wait, so that every
 * server of the team throttles alike. The desktop app keeps these tables empty.
 */
export const migration: Migration = {
  version: 160,
  name: 'team-accounts',
  up(db) {
    db.exec(`
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        login TEXT NOT NULL COLLATE NOCASE,
        name TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('viewer', 'buyer', 'admin')),
        password_hash TEXT NOT NULL,
        disabled INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_sign_in_at INTEGER
      ) STRICT;
      CREATE UNIQUE INDEX users_login ON users(login);

      CREATE TABLE user_sessions (
        id_hash TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        csrf TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX user_sessions_user ON user_sessions(user_id);

      CREATE TABLE sign_in_throttle (
        key TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        last_failure_at INTEGER NOT NULL,
        locked_until INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
