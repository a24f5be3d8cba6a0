import { cookieHeaderProblem } from '../../api/header-value.js';
import { isoSeconds } from '../../lib/iso-date.js';
import { cookieForToken } from '../cookie.js';
import { inspectAccessToken } from '../jwt.js';
import { type AuthSourceId, type SourceResult, skipped } from '../types.js';

export interface AccessTokenSource {
  source: AuthSourceId;
  /** e.g. `Cursor app token`; starts every description and reason. */
  label: string;
  /** Already shortened with displayPath. */
  location: string;
  now: Date;
  /** Returned as the skip's `hint` when the token has expired. */
  expiredHint?: string;
}

/**
 * docs/invariants.md, "Tokens used as found, with 60 s to spare", shared by the app and cursor-agent tokens:
 * a usable JWT becomes the session cookie; an expired or malformed one is skipped with a reason that names
 * the problem, never the token.
 */
export function sessionFromAccessToken(stored: string, from: AccessTokenSource): SourceResult {
  // A token with a trailing newline (or other surrounding space) is the same token.
  const token = stored.trim();
  const inspection = inspectAccessToken(token, from.now);
  if (inspection.kind === 'malformed') {
    return skipped('malformed', `${from.label} is malformed (${inspection.reason})`);
  }
  if (inspection.kind === 'expired') {
    const { expiresAt } = inspection.identity;
    const when =
      expiresAt.getTime() <= from.now.getTime()
        ? `expired ${isoSeconds(expiresAt)}`
        : `expires ${isoSeconds(expiresAt)}, less than 60 s away`;
    return skipped('expired', `${from.label} is expired (${when})`, from.expiredHint);
  }
  const cookieHeader = cookieForToken(inspection.identity, token);
  const refused = cookieHeaderProblem(cookieHeader);
  if (refused) return skipped('malformed', `${from.label} cannot be sent: ${refused}`);
  return {
    kind: 'session',
    session: {
      source: from.source,
      description: `${from.label} (${from.location})`,
      cookieHeader,
      accessToken: token,
      jwt: inspection.identity,
    },
  };
}
