/**
 * The whole BYOK path: requests through a running `codexbar proxy` (test/helpers/proxy.ts), then
 * `cost --source byok` on the ledger they left, checked against what the fake upstream reported for each
 * body it received (test/fake-upstream/usage.ts).
 */
import { describe, expect, it } from 'vitest';
import { expectedUsage } from '../fake-upstream/server.js';
import { startProxyHarness } from '../helpers/proxy.js';
import { useScene } from '../helpers/scene.js';

type Json = Record<string, unknown>;

describe('proxy → ledger → cost --source byok', () => {
  const scene = useScene();

  it("reports exactly the tokens the upstream reported, the provider's cost as reported, per conversation", async () => {
    const h = await startProxyHarness(scene);
    const turn = (model: string, texts: string[]) =>
      fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model,
          stream: true,
          user: 'account-1',
          messages: texts.map((text) => ({ role: 'user', content: [{ type: 'text', text }] })),
        }),
      }).then((response) => response.text());
    await turn('gpt-4.1', ['Summarise the repository.']);
    await turn('gpt-4.1', ['Summarise the repository.', 'And its tests?']);
    await turn('openrouter/openai/gpt-4.1', ['A haiku, please.']);
    expect((await h.stop()).code).toBe(0);

    const expected = h.upstream.requests.map((request) => expectedUsage(request.body)!);
    const tokens = (usage: (typeof expected)[number]) => usage.promptTokens + usage.completionTokens;
    const result = await scene.run([
      'cost',
      '--source',
      'byok',
      '--days',
      '1',
      '--by',
      'conversation',
      '--json',
      '--no-cross-check',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [row] = JSON.parse(result.stdout) as [Json & { groups: Json[]; byok: Json }];
    expect(row.byok).toMatchObject({ requests: 3, partialRequests: 0, providerReportedRequests: 1 });
    expect(row.last30DaysTokens).toBe(expected.reduce((sum, usage) => sum + tokens(usage), 0));
    const groups = row.groups.map((group) => ({ requests: group.requests, tokens: group.totalTokens }));
    expect(groups).toEqual(
      expect.arrayContaining([
        { requests: 2, tokens: tokens(expected[0]!) + tokens(expected[1]!) },
        { requests: 1, tokens: tokens(expected[2]!) },
      ]),
    );
    expect(groups).toHaveLength(2);
    // OpenRouter's reported cost is the request's cost, as it said it.
    const byModel = row.byModel as Json[];
    const openrouter = byModel.find((model) => model.modelName === 'openrouter/openai/gpt-4.1');
    expect(openrouter?.apiRateCostUSD).toBeCloseTo(expected[2]!.providerCostUSD!, 12);
  });
});
