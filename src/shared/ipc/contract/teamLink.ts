import { z } from 'zod';
import { TeamUserSchema } from './team';
import { Void } from './common';
import { isLoopbackUrl } from '../../settings';

/**
 * The desktop app's link to a team server (docs/team.md): Settings → Team server joins one with its address and the
 * member's sign-in; while joined, every other call and event is the team server's, and leaving brings back the data
 * on this computer as it was. Only the desktop app has the link: anywhere else `teamLink.get` answers
 * `available: false` and join and leave a typed error.
 */

/**
 * A team server's address: an http(s) origin (scheme, host and port; no path, query or fragment); plain http only on
 * this computer (loopback), since the member's password goes there.
 */
export const TeamServerAddressSchema = z
  .string()
  .trim()
  .min(1, "Address: enter the team server's address, e.g. https://lotwatch.example.com.")
  .max(300, 'Address: use at most 300 characters.')
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return (
          (u.protocol === 'http:' || u.protocol === 'https:') &&
          u.pathname === '/' &&
          !u.search &&
          !u.hash &&
          !u.username &&
          !u.password
        );
      } catch {
        return false;
      }
    },
    {
      message:
        "Address: enter the team server's address only, starting with https:// or http://, e.g. https://lotwatch.example.com.",
    },
  )
  // The password and the session cookie go to this address: in clear text only to this computer.
  .refine((s) => !URL.canParse(s) || new URL(s).protocol === 'https:' || isLoopbackUrl(s), {
    message:
      'Address: use https:// (the team server behind its reverse proxy); plain http:// is only for a server on this computer.',
  })
  .transform((s) => (URL.canParse(s) ? new URL(s).origin : s));

/** The link as the desktop app sees it. */
export const TeamLinkStateSchema = z.object({
  /** Whether this Lotwatch can join a team server (the desktop app only). */
  available: z.boolean(),
  /** Whether a team server is joined: its data and events replace this computer's until the app leaves it. */
  joined: z.boolean(),
  /** The joined team server's origin, or null. */
  server: z.string().nullable(),
  /** The login the app joined with, or null. */
  login: z.string().nullable(),
  /** The member signed in there (as the server said at the last sign-in), or null. */
  user: TeamUserSchema.nullable(),
  /** False once the team server ended the session (signed out elsewhere, expired, turned off): sign in again. */
  signed_in: z.boolean(),
});
export type TeamLinkState = z.infer<typeof TeamLinkStateSchema>;

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const teamLinkMethods = {
  /** Whether this app can join a team server, and the one it joined. */
  'teamLink.get': { input: Void, output: TeamLinkStateSchema },
  /**
   * Signs in on a team server and uses it from now on (the window loads again on the team's data). Also signs in
   * again on the joined server once its session ended.
   */
  'teamLink.join': {
    input: z
      .object({
        server: TeamServerAddressSchema,
        login: z
          .string()
          .trim()
          .min(1, 'Login: enter your login.')
          .max(64, 'Login: use at most 64 characters.'),
        password: z
          .string()
          .min(1, 'Password: enter your password.')
          .max(256, 'Password: use at most 256 characters.'),
      })
      .strict(),
    output: TeamLinkStateSchema,
  },
  /** Signs out of the team server and goes back to this computer's own data, as it was left. */
  'teamLink.leave': { input: Void, output: TeamLinkStateSchema },
} as const;
