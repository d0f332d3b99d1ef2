/**
 * The HTTP client git talks through, wrapped: the token goes in an
 * `Authorization` header on every request (never left to a 401 and a retry:
 * in an extension page a 401 opens the browser's login prompt and hangs), and
 * bytes sent and received are counted. The client itself is passed in
 * (`isomorphic-git/http/web` in an extension page, the same or
 * `isomorphic-git/http/node` in Node), so this stays free of browser APIs.
 */
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';

export type { GitHttpRequest, GitHttpResponse, HttpClient };

/** Bytes and requests through one client. */
export interface TransferMeter {
  requests: number;
  sent: number;
  received: number;
}

/** A fresh meter at zero. */
export function newMeter(): TransferMeter {
  return { requests: 0, sent: 0, received: 0 };
}

/** Base64 of a UTF-8 string, without `Buffer` (extension pages have none unless shimmed). */
export function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The `Authorization` header value for a token: HTTP Basic with the user name hosts expect alongside a token. */
export function basicAuth(username: string, token: string): string {
  return `Basic ${base64Utf8(`${username}:${token}`)}`;
}

async function* counted(body: AsyncIterableIterator<Uint8Array>, add: (n: number) => void): AsyncIterableIterator<Uint8Array> {
  for await (const chunk of body) {
    add(chunk.byteLength);
    yield chunk;
  }
}

/** What every request gets: the authorization, a meter, an abort signal. */
export interface HttpOptions {
  authorization: string | null;
  meter?: TransferMeter;
  signal?: AbortSignal;
}

/** The client with the token on every request, counting what goes through it. */
export function authedHttp(base: HttpClient, options: HttpOptions): HttpClient {
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      const meter = options.meter;
      const headers = { ...(req.headers ?? {}) };
      if (options.authorization) headers.Authorization = options.authorization;
      if (meter) meter.requests += 1;
      const body = req.body && meter ? counted(req.body, (n) => (meter.sent += n)) : req.body;
      const res = await base.request({ ...req, headers, body, signal: req.signal ?? options.signal });
      if (res.body && meter) return { ...res, body: counted(res.body, (n) => (meter.received += n)) };
      return res;
    },
  };
}
