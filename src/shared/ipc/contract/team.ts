import { z } from 'zod';
import { RoleSchema } from '../../team';
import { Done, Void } from './common';

/**
 * The team domain of the contract (docs/architecture.md "A team on one server"): who is signed in, and the members
 * of a team server. In the desktop app `team.me` answers `{ team: false, user: null }` and the other methods a typed
 * error saying they need a team server.
 */

/** A login: 2 to 64 letters, digits and `. _ @ -`, compared without case ("Dana" and "dana" are one login). */
export const LoginSchema = z
  .string()
  .trim()
  .min(2, 'Login: use at least 2 characters.')
  .max(64, 'Login: use at most 64 characters.')
  .regex(/^[A-Za-z0-9._@-]+$/, 'Login: use letters, digits and . _ @ - only.');

/** A password: 10 to 256 characters (a passphrase is welcome). */
export const PasswordSchema = z
  .string()
  .min(10, 'Password: use at least 10 characters.')
  .max(256, 'Password: use at most 256 characters.');

/** A member's display name, shown beside what they made ("by Dana"). */
const NameSchema = z
  .string()
  .trim()
  .min(1, 'Name: enter a name.')
  .max(80, 'Name: use at most 80 characters.');

/** The signed-in member as the page shows them. */
export const TeamUserSchema = z.object({
  id: z.number().int(),
  login: z.string(),
  name: z.string(),
  role: RoleSchema,
});
export type TeamUser = z.infer<typeof TeamUserSchema>;

/** A member as the admin's list shows them; times in ms since the epoch, null: never signed in. */
export const TeamMemberSchema = TeamUserSchema.extend({
  disabled: z.boolean(),
  created_at: z.number(),
  last_sign_in_at: z.number().nullable(),
});
export type TeamMember = z.infer<typeof TeamMemberSchema>;

/** The methods of this domain; contract.ts joins every domain into the one contract. */
export const teamMethods = {
  /** Whether this Lotwatch is a team server, and who is signed in (null: the desktop's one user). */
  'team.me': {
    input: Void,
    output: z.object({ team: z.boolean(), user: TeamUserSchema.nullable() }),
  },
  /** Every member of the team (admin). */
  'team.users.list': { input: Void, output: z.object({ users: z.array(TeamMemberSchema) }) },
  /** Adds a member with a first password the admin hands over (admin). */
  'team.users.create': {
    input: z
      .object({ login: LoginSchema, name: NameSchema, role: RoleSchema, password: PasswordSchema })
      .strict(),
    output: z.object({ user: TeamMemberSchema }),
  },
  /** Renames a member, changes their role, or turns their account off or on (admin); off ends their sessions. */
  'team.users.update': {
    input: z
      .object({
        id: z.number().int().positive(),
        name: NameSchema.optional(),
        role: RoleSchema.optional(),
        disabled: z.boolean().optional(),
      })
      .strict(),
    output: z.object({ user: TeamMemberSchema }),
  },
  /** Sets a member's password (admin), for a member who forgot theirs; ends that member's sessions. */
  'team.users.resetPassword': {
    input: z.object({ id: z.number().int().positive(), password: PasswordSchema }).strict(),
    output: Done,
  },
  /** Changes the signed-in member's own password; their other sessions end, this one stays. */
  'team.password.change': {
    input: z.object({ current: z.string().min(1).max(256), next: PasswordSchema }).strict(),
    output: Done,
  },
} as const;
