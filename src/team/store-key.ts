/**
 * The keys of `team cost`'s event stores. The Admin API names no team id, so a
 * team is known by its admin key: the store key is a SHA-256 over the admin key under a label of its own,
 * cut to 32 hex digits. It is one-way (Cursor's keys are long random secrets, so no key can be found from
 * it by guessing) and differs from every other hash of the key; the key itself is never stored, logged or
 * passed on. A `--member` run, which asks the API for one member's events, keeps them in a store of its
 * own, keyed by the team key and the email, so a file name never reveals which member was asked for.
 */
import { createHash } from 'node:crypto';

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 32);

/** The team's store key, from the Admin API key. */
export function teamStoreKey(apiKey: string): string {
  return hash('codexbar-team-events/1', apiKey);
}

/** The store key of one member's events within a team, the email as it is sent to the API. */
export function memberStoreKey(teamKey: string, member: string): string {
  return hash('codexbar-team-member-events/1', teamKey, member);
}
