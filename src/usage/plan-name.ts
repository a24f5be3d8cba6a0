/** The plan name: `Cursor ` plus the mapped membership type; unknown values keep their case. */
const PLAN_NAMES: Readonly<Record<string, string>> = {
  enterprise: 'Enterprise',
  express: 'Start',
  free: 'Free',
  free_trial: 'Pro Trial',
  hobby: 'Hobby',
  pro: 'Pro',
  pro_student: 'Pro',
  pro_plus: 'Pro+',
  team: 'Team',
  ultra: 'Ultra',
};

export function planName(membershipType: string | undefined): string | undefined {
  if (membershipType === undefined) return undefined;
  const mapped = Object.hasOwn(PLAN_NAMES, membershipType.toLowerCase())
    ? PLAN_NAMES[membershipType.toLowerCase()]
    : undefined;
  return `Cursor ${mapped ?? membershipType}`;
}
