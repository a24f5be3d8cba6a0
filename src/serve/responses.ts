/**
 * The answers the server writes: one shape, the error bodies CodexBar
 * sends, and the headers every answer carries. The listener adds Connection and Content-Length.
 */
import { encodeJson } from '../lib/json.js';

export interface ServeResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export const JSON_TYPE = 'application/json; charset=utf-8';
export const NO_STORE = 'no-store';

/** A JSON answer in CodexBar's compact encoding (`/` escaped, dates without milliseconds). */
export function jsonResponse(
  status: number,
  value: unknown,
  options: { noStore?: boolean; headers?: Record<string, string> } = {},
): ServeResponse {
  const headers: Record<string, string> = { 'Content-Type': JSON_TYPE, ...options.headers };
  if (options.noStore) headers['Cache-Control'] = NO_STORE;
  return { status, headers, body: Buffer.from(encodeJson(value), 'utf8') };
}

function errorResponse(status: number, message: string, headers: Record<string, string> = {}): ServeResponse {
  return jsonResponse(status, { error: message }, { noStore: true, headers });
}

export const invalidRequest = (): ServeResponse => errorResponse(400, 'invalid request');
export const forbiddenHost = (): ServeResponse => errorResponse(403, 'forbidden host');
export const expectationFailed = (): ServeResponse => errorResponse(417, 'expectation failed');
export const notFound = (): ServeResponse => errorResponse(404, 'not found');
export const methodNotAllowed = (): ServeResponse =>
  errorResponse(405, 'method not allowed', { Allow: 'GET' });
export const unauthorized = (): ServeResponse =>
  errorResponse(401, 'unauthorized', { 'WWW-Authenticate': 'Bearer' });
export const requestTimedOut = (): ServeResponse => errorResponse(504, 'request timed out');
export const badQuery = (message: string): ServeResponse => errorResponse(400, message);
export const serverError = (message: string): ServeResponse => errorResponse(500, message);

/**
 * The raw bytes of an answer for a socket Node could not parse a request from (no ServerResponse exists
 * then): 400 `{"error":"invalid request"}` with the usual headers.
 */
export function rawInvalidRequest(): string {
  const body = encodeJson({ error: 'invalid request' });
  return [
    'HTTP/1.1 400 Bad Request',
    `Content-Type: ${JSON_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Cache-Control: ${NO_STORE}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
