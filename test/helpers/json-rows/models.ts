/** `codexbar models --json` (src/render/models-json.ts). */
import { z } from 'zod';
import { cliErrorRowSchema, isoDate } from './shared.js';

const rate = (what: string) => z.number().nonnegative().describe(`USD per million ${what} tokens.`);

const listPriceSchema = z
  .strictObject({
    input: rate('input'),
    output: rate('output'),
    cacheWrite: rate('cache-write').describe(
      'USD per million cache-write tokens (the input rate where the provider has no separate one).',
    ),
    cacheRead: rate('cache-read'),
    currency: z.literal('USD').describe('Always `USD`.'),
    unit: z.literal('per 1M tokens').describe('The rates are per million tokens.'),
    priceKey: z.string().describe("The row of codexbar's bundled price table the model was priced by."),
  })
  .meta({
    title: 'Model list price',
    about: "Our list price from codexbar's bundled table, not what Cursor charges this account.",
  });

const modelRowSchema = z
  .strictObject({
    name: z.string().describe("Cursor's model name, as `cost --by model` and the usage events name it."),
    displayName: z.string().optional().describe("The name Cursor's model picker shows; omitted when none."),
    serverModelName: z
      .string()
      .optional()
      .describe('The name the server runs the model as; omitted when none.'),
    supportsMaxMode: z.boolean().describe('The model can run in Max mode.'),
    supportsNonMaxMode: z.boolean().describe('The model can run outside Max mode (false: Max only).'),
    listPrice: listPriceSchema
      .nullable()
      .describe('`null` when the bundled table has no price for the model: never zeros.'),
    fetchedAt: isoDate.describe(
      'When the catalog was fetched from Cursor: earlier than now when it came from the 24-hour cache.',
    ),
  })
  .meta({ title: 'Model row', about: 'One model of the catalog, in the order Cursor lists them.' });

export const modelsOutputSchema = z.array(z.union([modelRowSchema, cliErrorRowSchema]));
