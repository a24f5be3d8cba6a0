import type { UsageKindBucket } from './types.js';

const PREFIX = 'USAGE_EVENT_KIND_';

/**
 * Billing bucket of an event's `kind` enum name. Matches the
 * enum names only, with or without the `USAGE_EVENT_KIND_` prefix; the human labels some endpoints send
 * are localised and land in "other".
 */
export function usageKindBucket(kind: string | undefined): UsageKindBucket {
  if (kind === undefined) return 'other';
  const name = kind.startsWith(PREFIX) ? kind.slice(PREFIX.length) : kind;
  if (name.startsWith('INCLUDED_IN_')) return 'included';
  switch (name) {
    case 'ULTRA_REQUESTS':
    case 'FREE_CREDIT':
    case 'CUSTOM_SUBSCRIPTION':
      return 'included';
    case 'USAGE_BASED':
      return 'onDemand';
    case 'ERRORED_NOT_CHARGED':
    case 'ABORTED_NOT_CHARGED':
      return 'notCharged';
    case 'USER_API_KEY':
      return 'byok';
    default:
      return 'other';
  }
}
