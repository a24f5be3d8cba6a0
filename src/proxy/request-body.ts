import { createHash } from 'node:crypto';

/**
 * What the proxy needs from a request body, read with one `JSON.parse` (bodies run to 32 MB): the dialect,
 * the model, the stream flag, the conversation key, and the body to forward, which gains
 * `stream_options.include_usage` when a streamed Chat Completions request lacks it (without it the upstream
 * never says what the request used). Nothing here throws: a body that is not a JSON object is forwarded as it
 * came and recorded with what is known.
 */

export type ProxyRoute = 'chat' | 'responses';

export interface ProxyRequestInfo {
  /** The body is a JSON object (anything else is passed upstream unchanged and recorded with what is known). */
  json: boolean;
  /** 'chat' when `messages` is an array, 'responses' when `input` is present; undefined otherwise. */
  dialect?: 'chat' | 'responses';
  /** `model` when it is a string: control characters replaced by '?', at most 200 chars. */
  model?: string;
  stream: boolean;
  /** 32 hex digits naming the conversation; undefined when the body has no user message. */
  conversation?: string;
  /** What to send upstream: the very same Buffer when unchanged. */
  upstreamBody: Buffer;
  /** true when include_usage was added, so the usage frame must be removed downstream. */
  addedIncludeUsage: boolean;
}

type JsonObject = Record<string, unknown>;

const MODEL_MAX = 200;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// RFC 8259 requires UTF-8: a body that is not is no JSON object, so it is forwarded untouched rather than
// decoded with replacement characters that a re-serialisation would then send upstream.
const UTF8 = new TextDecoder('utf-8', { fatal: true });
const INCLUDE_USAGE = Buffer.from('"stream_options":{"include_usage":true},');

export function readProxyRequest(route: ProxyRoute, body: Buffer): ProxyRequestInfo {
  const parsed = parseObject(body);
  if (!parsed) return { json: false, stream: false, upstreamBody: body, addedIncludeUsage: false };
  const dialect = Array.isArray(parsed.messages)
    ? 'chat'
    : Object.hasOwn(parsed, 'input')
      ? 'responses'
      : undefined;
  const stream = parsed.stream === true;
  const upstreamBody =
    route === 'chat' && dialect === 'chat' && stream ? withIncludeUsage(body, parsed) : body;
  const info: ProxyRequestInfo = {
    json: true,
    stream,
    upstreamBody,
    addedIncludeUsage: upstreamBody !== body,
  };
  if (dialect) info.dialect = dialect;
  const model = printableModel(parsed.model);
  if (model !== undefined) info.model = model;
  const conversation = conversationKey(parsed, dialect);
  if (conversation !== undefined) info.conversation = conversation;
  return info;
}

/**
 * A model name as it may be stored and shown: control characters become '?' and it is cut to 200
 * characters (never inside a surrogate pair). Anything but a non-empty string is unknown.
 */
export function printableModel(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  let text = value;
  if (text.length > MODEL_MAX) {
    const cut = isHighSurrogate(text.charCodeAt(MODEL_MAX - 1)) ? MODEL_MAX - 1 : MODEL_MAX;
    text = text.slice(0, cut);
  }
  return text.replace(CONTROL, '?');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function parseObject(body: Buffer): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(UTF8.decode(body));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The body with `stream_options.include_usage: true`, or the same Buffer when it already asks for usage or
 * cannot be changed safely. Without a `stream_options` key the member is inserted as text after the opening
 * brace, so every other byte reaches the upstream as the client sent it; an existing `stream_options` object
 * (or null, which providers read as absent) needs a re-serialisation.
 */
function withIncludeUsage(body: Buffer, parsed: JsonObject): Buffer {
  if (!Object.hasOwn(parsed, 'stream_options')) return insertAfterBrace(body);
  const options = parsed.stream_options;
  if (options === null) return reserialise(body, { ...parsed, stream_options: { include_usage: true } });
  // A stream_options of another type is a request the upstream rejects anyway: it gets it as sent.
  if (!isObject(options) || options.include_usage === true) return body;
  return reserialise(body, { ...parsed, stream_options: { ...options, include_usage: true } });
}

function insertAfterBrace(body: Buffer): Buffer {
  const brace = body.indexOf(0x7b);
  // The body parsed as an object, so its first byte after a BOM and whitespace is this brace.
  return Buffer.concat([body.subarray(0, brace + 1), INCLUDE_USAGE, body.subarray(brace + 1)]);
}

function reserialise(body: Buffer, value: JsonObject): Buffer {
  try {
    return Buffer.from(JSON.stringify(value));
  } catch {
    // Nesting too deep for JSON.stringify: forward it unchanged (the answer then carries no usage).
    return body;
  }
}

/**
 * The conversation key: a hash of the account-scoped root (`user`, which Cursor fills with an account id)
 * and the first user message, so every turn of one conversation gets the key of its first. Limit: two fresh
 * conversations from one account that open with identical first turns share a key.
 */
function conversationKey(parsed: JsonObject, dialect: ProxyRequestInfo['dialect']): string | undefined {
  const content = firstUserContent(parsed, dialect);
  if (!content.found) return undefined;
  let canonical: string;
  try {
    // The parsed value in the body's own key order, so the same message always gives the same text.
    canonical = JSON.stringify(content.value ?? null);
  } catch {
    return undefined;
  }
  const root = typeof parsed.user === 'string' ? parsed.user : '';
  return createHash('sha256')
    .update(`codexbar-conversation-v1\0${root}\0${canonical}`)
    .digest('hex')
    .slice(0, 32);
}

type Found = { found: true; value: unknown } | { found: false };

function firstUserContent(parsed: JsonObject, dialect: ProxyRequestInfo['dialect']): Found {
  if (dialect === 'responses' && typeof parsed.input === 'string')
    return { found: true, value: parsed.input };
  const items = dialect === 'chat' ? parsed.messages : dialect === 'responses' ? parsed.input : undefined;
  if (!Array.isArray(items)) return { found: false };
  // Cursor sends its metadata as a user message with plain string content before the real first user
  // message, which has content blocks: the first user message with blocks wins, else the first at all.
  let first: JsonObject | undefined;
  for (const item of items) {
    if (!isObject(item) || item.role !== 'user') continue;
    if (Array.isArray(item.content)) return { found: true, value: item.content };
    first ??= item;
  }
  return first ? { found: true, value: first.content } : { found: false };
}
