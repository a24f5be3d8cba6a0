/** Request budgets. Kept free of imports so any entry point can read them cheaply. */

/** usage-summary and each events page. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** auth/me, /api/usage, Grok Bot and v2/usage-status: best-effort lookups that must not hold the run. */
export const OPTIONAL_TIMEOUT_MS = 5_000;
/** The one deadline shared by /teams and every get-team-spend page. */
export const TEAM_DEADLINE_MS = 10_000;
/** `usage --status`: CodexBar's budget for the Statuspage request. */
export const STATUS_TIMEOUT_MS = 10_000;
