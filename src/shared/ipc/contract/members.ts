import { z } from 'zod';

/**
 * A team member as shown beside what they made ("by Dana", docs/architecture.md "A team on one server"): their id in
 * the team's accounts and their display name. Shared by the searches, watchlist and call-watches domains.
 */
export const MemberRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type MemberRef = z.infer<typeof MemberRefSchema>;

/**
 * Who made a search, a watch or a call watch: a member, or null for the local owner (the desktop's one user) and for
 * whatever was made before the team existed. Absent from an answer reads as null.
 */
export const CreatedBySchema = MemberRefSchema.nullable().default(null);
