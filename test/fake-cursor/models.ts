/**
 * A realistic `AiService/AvailableModels` answer (docs/api2.md): a few hundred models, about 200 KB of JSON,
 * each with a tooltip, parameter definitions, variants and aliases as Cursor sends them with
 * `useModelParameters`. Some names are in codexbar's bundled price table and some are not.
 */

/** Names the bundled price table prices (through priceKeyFor). */
export const PRICED_MODELS = [
  'default',
  'claude-4.5-sonnet-thinking',
  'claude-4.5-opus-high',
  'claude-4.5-haiku',
  'gpt-5',
  'gpt-5-codex',
  'gpt-5-mini',
  'o3',
  'gemini-2.5-pro',
  'grok-code-fast-1',
  'composer-1',
] as const;

/** Names it does not. */
export const UNPRICED_MODELS = ['kimi-k2-instruct', 'deepseek-v3.1', 'qwen3-coder'] as const;

export interface ModelSpec {
  name: string;
  clientDisplayName?: string;
  supportsMaxMode?: boolean;
  supportsNonMaxMode?: boolean;
}

/** One model entry the way api2 writes it: fields at their default left out, many the CLI never reads. */
function modelEntry(spec: ModelSpec, index = 0): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: spec.name,
    defaultOn: index % 3 === 0,
    supportsAgent: true,
    degradationStatus: 'DEGRADATION_STATUS_UNSPECIFIED',
    tooltipData: {
      markdownContent: `**${spec.clientDisplayName ?? spec.name}**<br />A model for everyday tasks. ${'Good at refactors, reviews and long agent runs. '.repeat(1)}`,
    },
    supportsImages: index % 2 === 0,
    clientDisplayName: spec.clientDisplayName ?? spec.name,
    serverModelName: spec.name,
    supportsPlanMode: true,
    supportsSandboxing: true,
    inputboxShortModelName: (spec.clientDisplayName ?? spec.name).slice(0, 12),
    idAliases: [`${spec.name}-latest`, `${spec.name}-preview`],
    legacySlugs: [`${spec.name}-legacy`, `${spec.name}-thinking-legacy`],
    parameterDefinitions: [
      { id: 'thinking', displayName: 'Thinking', values: [{ value: 'true' }, { value: 'false' }] },
      {
        id: 'effort',
        displayName: 'Effort',
        values: [{ value: 'low' }, { value: 'medium' }, { value: 'high' }],
      },
    ],
    variants: [
      {
        parameterValues: [{ id: 'thinking', value: 'true' }],
        isDefaultMaxConfig: true,
        isMaxMode: true,
        legacySlug: `${spec.name}-max`,
      },
      {
        parameterValues: [{ id: 'thinking', value: 'false' }],
        isDefaultNonMaxConfig: true,
        legacySlug: spec.name,
      },
    ],
  };
  if (spec.supportsMaxMode ?? true) entry.supportsMaxMode = true;
  if (spec.supportsNonMaxMode ?? true) entry.supportsNonMaxMode = true;
  return entry;
}

/**
 * The answer: the priced and unpriced names first, then `extra` generated experimental models (unpriced),
 * 200 in all by default.
 */
export function availableModelsAnswer(options: { extra?: number; models?: ModelSpec[] } = {}): {
  models: Record<string, unknown>[];
} {
  const specs: ModelSpec[] = options.models ?? [
    ...PRICED_MODELS.map((name) => ({ name, clientDisplayName: name === 'default' ? 'Auto' : undefined })),
    ...UNPRICED_MODELS.map((name) => ({ name })),
  ];
  const extra = options.extra ?? 200 - specs.length;
  for (let i = 0; i < extra; i++) {
    specs.push({
      name: `experimental-model-${i}`,
      clientDisplayName: `Experimental ${i}`,
      supportsNonMaxMode: i % 5 !== 0,
    });
  }
  return { models: specs.map((spec, index) => modelEntry(spec, index)) };
}
