/**
 * Query parameters (docs/behaviour.md §Serve.5): `provider` for every data route, `detail` for the
 * snapshot. Only the last value of a repeated parameter counts; unknown parameters are ignored.
 */
import { badQuery, type ServeResponse } from './responses.js';

export type DetailLevel = 'full' | 'shell';

const CURSOR_ALIASES = new Set(['cursor', 'all', 'both']);

function last(query: URLSearchParams, name: string): string | undefined {
  return query.getAll(name).at(-1);
}

/** Every accepted value means Cursor, the one provider codexbar serves; the selection key is `cursor`. */
export function providerSelection(query: URLSearchParams): { provider: 'cursor' } | ServeResponse {
  const value = last(query, 'provider');
  if (value === undefined || CURSOR_ALIASES.has(value.trim().toLowerCase())) return { provider: 'cursor' };
  return badQuery(`Unknown provider '${value}'.`);
}

export function detailLevel(query: URLSearchParams): { detail: DetailLevel } | ServeResponse {
  const value = last(query, 'detail');
  if (value === undefined) return { detail: 'full' };
  const detail = value.trim().toLowerCase();
  if (detail === 'full' || detail === 'shell') return { detail };
  return badQuery(`Unknown detail '${value}'; use full or shell.`);
}

export function isResponse(value: object): value is ServeResponse {
  return 'status' in value && 'body' in value;
}
