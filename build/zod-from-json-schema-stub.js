// Stands in for zod's `classic/from-json-schema.js` in the bundle: the CLI never converts a JSON Schema into a
// zod schema, and that module spreads all of zod's schemas and checks into an object when it loads.
export function fromJSONSchema() {
  throw new Error('z.fromJSONSchema is not bundled in codexbar');
}
