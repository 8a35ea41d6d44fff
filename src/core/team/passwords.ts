import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/*
 * Password hashing for a team's members (docs/architecture.md "A team on one server"): argon2id through
 * @node-rs/argon2 at its defaults, which are OWASP's recommendation (19 MiB of memory, 2 passes, 1 lane; about 30 ms
 * on the test machine). Only the PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`) is stored.
 */

/** Hashes `password` with argon2id and a fresh random salt; answers the PHC string to store. */
export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * Whether `password` matches the stored PHC string `stored`. A stored value that is not a hash this library reads
 * answers false (never throws), after the same work as a real check.
 */
export async function passwordMatches(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    await verify(await dummyHash(), password).catch(() => false);
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * A hash of a random password no one knows, made once per process: a sign-in with an unknown login is checked
 * against it, so that it costs the same time as a wrong password for a real login (the answer's timing does not tell
 * which logins exist).
 */
export function dummyHash(): Promise<string> {
  dummy ??= hash(randomBytes(24).toString('base64url'));
  return dummy;
}

/** A random password for a first admin or a reset said once: 20 characters of base64url (120 bits). */
export function generatedPassword(): string {
  return randomBytes(15).toString('base64url');
}
