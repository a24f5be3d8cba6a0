/**
 * What the fake upstream answers, as data: the SSE frames of a stream (each a complete `data: …\n\n` or
 * `event: …\ndata: …\n\n` block, written one `write` each) and the JSON bodies. Shapes follow recorded
 * OpenAI, OpenRouter and DeepSeek answers; ids and timestamps are fixed so answers are deterministic.
 */
import {
  type Counts,
  chatUsage,
  countsOf,
  type Dialect,
  providerOf,
  replyPieces,
  replyText,
  responsesUsage,
} from './usage.js';

type Json = Record<string, unknown>;

/** 2026-01-01T00:00:00Z, the `created` of every answer. */
const CREATED = 1_767_225_600;

const data = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
const event = (value: Json & { type: string }): string =>
  `event: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`;

const DONE = 'data: [DONE]\n\n';

/** An OpenAI-style error body. */
export function errorBody(message: string, type: string, code?: string): Json {
  return { error: { message, type, param: null, code: code ?? null } };
}

function modelOf(body: Json): string {
  return typeof body.model === 'string' ? body.model : '';
}

function includeUsage(body: Json): boolean {
  const options = body.stream_options;
  return typeof options === 'object' && options !== null && (options as Json).include_usage === true;
}

/** Chat Completions chunks: role, one per content piece, finish; then the usage chunk and [DONE]. */
function chatFrames(body: Json, index: number): string[] {
  const model = modelOf(body);
  const provider = providerOf(model);
  // OpenRouter always sends usage (include_usage is ignored there), and never `usage: null`.
  const withUsage = provider === 'openrouter' || includeUsage(body);
  const nullUsage = withUsage && provider !== 'openrouter';
  const id = provider === 'openrouter' ? `gen-fake-${index}` : `chatcmpl-fake-${index}`;
  const chunk = (choices: unknown[], usage?: Json): string => {
    const value: Json = { id, object: 'chat.completion.chunk', created: CREATED, model };
    if (provider === 'openrouter') value.provider = 'FakeProvider';
    else value.system_fingerprint = 'fp_fake';
    value.choices = choices;
    if (usage !== undefined) value.usage = usage;
    else if (nullUsage) value.usage = null;
    return data(value);
  };
  const choice = (delta: Json, finish: string | null): Json =>
    provider === 'openrouter'
      ? { index: 0, delta, finish_reason: finish, native_finish_reason: finish, logprobs: null }
      : { index: 0, delta, logprobs: null, finish_reason: finish };
  const frames: string[] = [];
  // OpenRouter's keep-alive comment, which clients (and a proxy) must pass over.
  if (provider === 'openrouter') frames.push(': OPENROUTER PROCESSING\n\n');
  frames.push(chunk([choice({ role: 'assistant', content: '' }, null)]));
  for (const piece of replyPieces(model)) frames.push(chunk([choice({ content: piece }, null)]));
  frames.push(chunk([choice({}, 'stop')]));
  if (withUsage) frames.push(chunk([], chatUsage(provider, countsOf(body))));
  frames.push(DONE);
  return frames;
}

function chatJson(body: Json, index: number): Json {
  const model = modelOf(body);
  const provider = providerOf(model);
  return {
    id: provider === 'openrouter' ? `gen-fake-${index}` : `chatcmpl-fake-${index}`,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: replyText(model), refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: chatUsage(provider, countsOf(body)),
    system_fingerprint: 'fp_fake',
  };
}

function messageItem(index: number, text: string | undefined): Json {
  const done = text !== undefined;
  return {
    id: `msg_fake_${index}`,
    type: 'message',
    status: done ? 'completed' : 'in_progress',
    role: 'assistant',
    content: done ? [{ type: 'output_text', text, annotations: [], logprobs: [] }] : [],
  };
}

function responseObject(body: Json, index: number, counts: Counts | undefined): Json {
  const model = modelOf(body);
  return {
    id: `resp_fake_${index}`,
    object: 'response',
    created_at: CREATED,
    status: counts ? 'completed' : 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    max_output_tokens: null,
    model,
    output: counts ? [messageItem(index, replyText(model))] : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: counts ? responsesUsage(counts) : null,
    user: null,
    metadata: {},
  };
}

/** Responses events: created, in_progress, the item and part, one delta per piece, the dones, completed. */
function responsesFrames(body: Json, index: number): string[] {
  const model = modelOf(body);
  const text = replyText(model);
  const itemId = `msg_fake_${index}`;
  const at = { item_id: itemId, output_index: 0, content_index: 0 };
  let sequence = 0;
  const next = (value: Json & { type: string }): string => {
    const { type, ...rest } = value;
    return event({ type, sequence_number: sequence++, ...rest });
  };
  const frames = [
    next({ type: 'response.created', response: responseObject(body, index, undefined) }),
    next({ type: 'response.in_progress', response: responseObject(body, index, undefined) }),
    next({ type: 'response.output_item.added', output_index: 0, item: messageItem(index, undefined) }),
    next({
      type: 'response.content_part.added',
      ...at,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
  ];
  for (const delta of replyPieces(model)) {
    frames.push(next({ type: 'response.output_text.delta', ...at, delta, logprobs: [] }));
  }
  frames.push(
    next({ type: 'response.output_text.done', ...at, text, logprobs: [] }),
    next({ type: 'response.content_part.done', ...at, part: { type: 'output_text', text, annotations: [] } }),
    next({ type: 'response.output_item.done', output_index: 0, item: messageItem(index, text) }),
    next({ type: 'response.completed', response: responseObject(body, index, countsOf(body)) }),
  );
  return frames;
}

/** The frames of a streamed answer, in order. */
export function streamFrames(dialect: Dialect, body: Json, index: number): string[] {
  return dialect === 'chat' ? chatFrames(body, index) : responsesFrames(body, index);
}

/** The body of a non-streamed answer. */
export function jsonAnswer(dialect: Dialect, body: Json, index: number): Json {
  return dialect === 'chat' ? chatJson(body, index) : responseObject(body, index, countsOf(body));
}

const MODELS: [string, string][] = [
  ['gpt-4.1', 'openai'],
  ['gpt-5', 'openai'],
  ['deepseek-chat', 'deepseek'],
  ['deepseek-reasoner', 'deepseek'],
  ['openrouter/openai/gpt-4o-mini', 'openrouter'],
];

/** GET /v1/models. */
export function modelsList(): Json {
  return {
    object: 'list',
    data: MODELS.map(([id, owner]) => ({ id, object: 'model', created: CREATED, owned_by: owner })),
  };
}
