/** `team spend --sort` keys: separate from the spend collector so registering the flag loads nothing else. */
export const SPEND_SORTS = ['spend', 'total', 'percent', 'name', 'email'] as const;
export type SpendSort = (typeof SPEND_SORTS)[number];
