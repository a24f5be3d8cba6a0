/**
 * The model catalog behind `codexbar models`: `AiService/AvailableModels` with the body Cursor's own
 * client sends minus the Max-named filter (docs/api2.md). The answer is about 200 KB, so its cap is larger
 * than the small-response default (docs/invariants.md, "Every read is bounded").
 */
import { type Api2Client, rpcPath } from './client.js';
import { type AvailableModels, availableModelsSchema } from './schemas/available-models.js';

const AVAILABLE_MODELS = rpcPath('AiService', 'AvailableModels');
/** ~40 times the answer seen in production: room to grow, never an unbounded read. */
const AVAILABLE_MODELS_LIMIT = 8 * 1024 * 1024;

export function fetchAvailableModels(
  api2: Api2Client,
  bearer: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<AvailableModels> {
  return api2.request({
    path: AVAILABLE_MODELS,
    bearer,
    body: { excludeMaxNamedModels: false, useModelParameters: false },
    timeoutMs,
    signal,
    schema: availableModelsSchema,
    maxBytes: AVAILABLE_MODELS_LIMIT,
  });
}
