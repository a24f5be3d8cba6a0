// Stands in for zod's `locales/index.js` in the bundle: the CLI never calls `z.locales.*`, and the English
// messages zod uses by default are imported by zod directly from `locales/en.js`, not through this index.
export {};
