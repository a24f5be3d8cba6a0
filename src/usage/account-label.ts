import type { UsageSnapshot } from './types.js';

/**
 * The snapshot as a row shows it: one fetched with a token account carries
 * CodexBar's account identity: the label stands in for a missing email, and the cursor.com user id
 * (`accountID`) is left out.
 */
export function labelledSnapshot(snapshot: UsageSnapshot, account: string | undefined): UsageSnapshot {
  const label = account?.trim();
  if (!label) return snapshot;
  const { accountEmail, accountOrganization, loginMethod } = snapshot.identity;
  const email = accountEmail?.trim() ? accountEmail : label;
  return {
    ...snapshot,
    identity: { providerID: 'cursor', accountEmail: email, accountOrganization, loginMethod },
  };
}
