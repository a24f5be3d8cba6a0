import { z } from 'zod';
import { lenientBoolean, lenientId, lenientNumber, lenientString } from './lenient.js';

/** POST /api/dashboard/teams, decoded leniently. */
const teamSchema = z.object({
  id: lenientId,
  name: lenientString,
  role: lenientString,
  seats: lenientNumber,
  hasBilling: lenientBoolean,
});

export const teamsSchema = z.object({
  // A malformed entry reads as null so the team choice can refuse an ambiguous list instead of skipping it.
  teams: z.array(teamSchema.nullable().catch(null)).optional().catch(undefined),
});

export type TeamsResponse = z.infer<typeof teamsSchema>;
