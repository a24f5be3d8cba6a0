import type { UsageSnapshot } from './types.js';

/**
 * docs/behaviour.md §27.3: a snapshot fetched with a token account carries CodexBar's account identity: the
 * label stands in for a missing email, and the cursor.com user id (`accountID`) is left out.
 */
function withAccountLabel(snapshot: UsageSnapshot, label: string): UsageSnapshot {
  const trimmed = label.trim();
  if (trimmed === '') return snapshot;
  const { accountEmail, accountOrganization, loginMethod } = snapshot.identity;
  const email = accountEmail?.trim() ? accountEmail : trimmed;
  return {
    ...snapshot,
    identity: { providerID: 'cursor', accountEmail: email, accountOrganization, loginMethod },
  };
}

/** The snapshot as a row shows it: labelled when a token account fetched it (docs/behaviour.md §27.3). */
export function labelledSnapshot(snapshot: UsageSnapshot, account: string | undefined): UsageSnapshot {
  return account === undefined ? snapshot : withAccountLabel(snapshot, account);
}
