import { z } from 'zod';

/** The browsers codexbar reads the cursor.com cookie from: the values of config `browser` and `--browser`. */
export const BROWSER_IDS = ['firefox', 'chrome', 'chromium', 'brave', 'edge', 'vivaldi', 'arc'] as const;
export type BrowserId = (typeof BROWSER_IDS)[number];

// CodexBar decodes optionals with `decodeIfPresent`, so `null` means absent; unknown keys are kept (loose
// objects) so a config written by CodexBar is read as it is.

/**
 * Built on first use, like every schema a run may not need (bench/README.md, Start-up): most runs have no
 * config file to check.
 */
function buildSchemas() {
  const providerSourceSchema = z.enum(['auto', 'web', 'cli', 'rpc', 'oauth', 'api']);
  const cookieSourceSchema = z.enum(['auto', 'manual', 'off']);

  const tokenAccountSchema = z.looseObject({
    id: z.string(),
    label: z.string(),
    /** For Cursor, a Cookie header. */
    token: z.string(),
    /** Epoch seconds. */
    addedAt: z.number(),
    lastUsed: z.number().nullish(),
  });

  const tokenAccountsSchema = z.looseObject({
    version: z.number().int(),
    activeIndex: z.number().int(),
    accounts: z.array(tokenAccountSchema),
  });

  /** Every provider entry shares these fields (one Codable struct upstream), so they are checked on all of them. */
  const providerEntrySchema = z.looseObject({
    id: z.string(),
    enabled: z.boolean().nullish(),
    source: providerSourceSchema.nullish(),
    cookieSource: cookieSourceSchema.nullish(),
    cookieHeader: z.string().nullish(),
    tokenAccounts: tokenAccountsSchema.nullish(),
    /** codexbar's own: the one browser to read the cursor.com cookie from. */
    browser: z.enum(BROWSER_IDS).nullish(),
    /** codexbar's own: consent to the macOS Keychain prompt for a browser's cookie key. */
    allowKeychainPrompt: z.boolean().nullish(),
    /** codexbar's own: consent to refresh an expired or rejected Cursor token for a run (docs/api2.md). */
    allowTokenRefresh: z.boolean().nullish(),
    /** CodexBar leaves it unused for Cursor; codexbar reads it as the Admin API key for `team`. */
    apiKey: z.string().nullish(),
  });

  /** codexbar's own: `proxy`'s upstream and provider key (docs/proxy.md). */
  const proxySchema = z.looseObject({
    upstream: z.string().nullish(),
    upstreamKey: z.string().nullish(),
  });

  const configFileSchema = z.looseObject({
    version: z.number().int(),
    providers: z.array(providerEntrySchema),
    proxy: proxySchema.nullish(),
  });
  return { providerSourceSchema, cookieSourceSchema, tokenAccountsSchema, configFileSchema };
}

type Schemas = ReturnType<typeof buildSchemas>;

export const configFileSchema = z.lazy(() => buildSchemas().configFileSchema);

export type ProviderSource = z.infer<Schemas['providerSourceSchema']>;
export type CookieSource = z.infer<Schemas['cookieSourceSchema']>;
export type TokenAccounts = z.infer<Schemas['tokenAccountsSchema']>;
export type ConfigFile = z.infer<typeof configFileSchema>;
