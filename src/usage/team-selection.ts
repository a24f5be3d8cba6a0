/**
 * The team a browser session has selected on cursor.com: cookie `portal-selected-team-id` beats `team_id`.
 * Tokens from the Cursor app or cursor-agent carry no such cookies.
 */
export interface TeamSelection {
  portalSelectedTeamId?: string;
  teamId?: string;
}

export function parseTeamSelection(cookieHeader: string): TeamSelection {
  const selection: TeamSelection = {};
  for (const pair of cookieHeader.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0) continue;
    const name = pair.slice(0, separator).trim();
    const value = cookieValue(pair.slice(separator + 1));
    if (!value) continue;
    if (name === 'portal-selected-team-id' && selection.portalSelectedTeamId === undefined) {
      selection.portalSelectedTeamId = value;
    } else if (name === 'team_id' && selection.teamId === undefined) {
      selection.teamId = value;
    }
  }
  return selection;
}

function cookieValue(raw: string): string | undefined {
  let value = raw.trim();
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  try {
    value = decodeURIComponent(value);
  } catch {
    // A malformed escape is kept as sent; it will simply not match any team id.
  }
  value = value.trim();
  return value === '' ? undefined : value;
}

/** The id the session asks for, if any. */
export function selectedTeamId(selection: TeamSelection): string | undefined {
  return selection.portalSelectedTeamId ?? selection.teamId;
}
