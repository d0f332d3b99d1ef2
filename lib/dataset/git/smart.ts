/**
 * Git's smart HTTP protocol (version 0/1), the two requests a dataset needs,
 * spoken through the HTTP client the engine passes in (so the token goes on
 * every request, and the bytes are counted):
 *
 * - `advertisement`: the refs and capabilities of a service
 *   (`GET info/refs?service=…`), read by isomorphic-git's `getRemoteInfo2`;
 * - `sendPack`: a push (`POST git-receive-pack`): the ref updates, then a
 *   pack, which may be thin (deltas against objects the host has; it
 *   completes them with `index-pack --fix-thin`); the answer's report-status
 *   says per ref whether it moved, with the hooks' words on band 2;
 * - `fetchPack`: a fetch (`POST git-upload-pack`) asking for a `thin-pack`
 *   with `ofs-delta`: the wants, the haves, `done`, then the ACK/NAK lines
 *   and the pack on band 1.
 *
 * An HTTP status other than 200 is isomorphic-git's `HttpError` (so the
 * engine words it as for its other requests); an answer that does not follow
 * the protocol is a `ProtocolError` saying what was wrong.
 */
import git, { Errors } from 'isomorphic-git';
import type { HttpClient } from './http';
import { FLUSH_PKT, joinBytes, lineText, MessageLines, PktReader, ProtocolError, pktLine, readSideBand } from './pktline';

/** The all-zero id: no object (a ref that does not exist). */
export const ZERO_ID = '0'.repeat(40);

/** The two services of smart HTTP. */
export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** What a service says it has: refs (full name → id) and its capabilities. */
export interface Advertisement {
  refs: Map<string, string>;
  capabilities: Set<string>;
}

/** What every request takes. */
export interface SmartRequest {
  http: HttpClient;
  /** The repository's URL (`https://host/team/survey.git`). */
  url: string;
  signal?: AbortSignal;
}

const AGENT = 'git/recipe-lens';

function endpoint(url: string, path: string): string {
  return `${url.replace(/\/+$/, '')}/${path}`;
}

async function* once(bytes: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield bytes;
}

async function* nothing(): AsyncIterableIterator<Uint8Array> {}

async function bodyText(body: AsyncIterableIterator<Uint8Array> | undefined, limit = 4096): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  if (body)
    for await (const chunk of body) {
      if (size < limit) parts.push(chunk);
      size += chunk.length;
    }
  return new TextDecoder().decode(joinBytes(parts)).slice(0, limit);
}

function isId(text: string): boolean {
  return /^[0-9a-f]{40}$/.test(text);
}

/** isomorphic-git's names for an advertisement it could not read. */
const UNREADABLE = new Set(['ParseError', 'EmptyServerResponseError', 'InvalidOidError', 'UnknownTransportError']);

/**
 * The refs and capabilities of `service` at the repository, read by isomorphic-git's `getRemoteInfo2` (protocol
 * version 1) through the engine's HTTP client. A body that is not an advertisement (a sign-in page, say) is refused
 * before it is parsed; what isomorphic-git cannot read, or reads into ids that are not ids, is a `ProtocolError`.
 */
export async function advertisement(request: SmartRequest, service: GitService): Promise<Advertisement> {
  const http: HttpClient = {
    async request(req) {
      const res = await request.http.request({ ...req, signal: request.signal });
      const type = (res.headers?.['content-type'] ?? '').split(';')[0]!.trim();
      if (res.statusCode === 200 && type !== `application/x-${service}-advertisement`) {
        const preview = (await bodyText(res.body, 200)).trim().replace(/\s+/g, ' ');
        throw new ProtocolError(
          `the server did not answer as a git smart-HTTP server (content type "${type || 'none'}"${preview ? `: ${preview.slice(0, 120)}` : ''})`,
        );
      }
      return res;
    },
  };
  let info: Awaited<ReturnType<typeof git.getRemoteInfo2>>;
  try {
    info = await git.getRemoteInfo2({
      http,
      url: request.url.replace(/\/+$/, ''),
      forPush: service === 'git-receive-pack',
      protocolVersion: 1,
      headers: { 'User-Agent': AGENT },
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code && UNREADABLE.has(code)) throw new ProtocolError(`the list of refs is not git's (${(error as Error).message})`);
    throw error;
  }
  if (info.protocolVersion !== 1) throw new ProtocolError('the server answered in protocol version 2, which was not asked for');
  const capabilities = new Set<string>();
  for (const [name, value] of Object.entries(info.capabilities)) capabilities.add(value === true ? name : `${name}=${value}`);
  const refs = new Map<string, string>();
  for (const r of info.refs ?? []) {
    if (!isId(r.oid) || !r.ref) throw new ProtocolError(`not a ref line: ${JSON.stringify(`${r.oid} ${r.ref}`.slice(0, 80))}`);
    refs.set(r.ref, r.oid);
  }
  return { refs, capabilities };
}

async function post(request: SmartRequest, service: GitService, body: Uint8Array): Promise<AsyncIterableIterator<Uint8Array>> {
  const res = await request.http.request({
    url: endpoint(request.url, service),
    method: 'POST',
    headers: {
      'User-Agent': AGENT,
      'Content-Type': `application/x-${service}-request`,
      Accept: `application/x-${service}-result`,
    },
    body: once(body),
    signal: request.signal,
  });
  if (res.statusCode !== 200) throw new Errors.HttpError(res.statusCode, res.statusMessage, await bodyText(res.body));
  return res.body ?? nothing();
}

/** One ref to move: from `old` (ZERO_ID to make it) to `new`. */
export interface RefUpdate {
  old: string;
  new: string;
  ref: string;
}

/** What receive-pack reported: whether it read the pack, and per ref whether it moved (with its reason when not). */
export interface PushReport {
  /** `ok`, or the server's reason it could not read the pack. */
  unpack: string;
  refs: Map<string, { ok: boolean; reason?: string }>;
}

/** The body of a push: the updates (the first with our capabilities), a flush, the pack. */
export function pushRequest(updates: readonly RefUpdate[], capabilities: readonly string[], pack: Uint8Array): Uint8Array {
  const parts = updates.map((u, i) => pktLine(`${u.old} ${u.new} ${u.ref}${i === 0 ? `\0${capabilities.join(' ')}` : ''}\n`));
  return joinBytes([...parts, FLUSH_PKT, pack]);
}

/** Parses report-status lines (`unpack …`, `ok <ref>`, `ng <ref> <reason>`, then a flush). */
export function parsePushReport(lines: readonly string[]): PushReport {
  const [first, ...rest] = lines;
  if (first === undefined) throw new ProtocolError('the server sent no report of the push');
  const unpack = /^unpack (.+)$/.exec(first);
  if (!unpack) throw new ProtocolError(`the push report does not begin with "unpack": ${JSON.stringify(first.slice(0, 80))}`);
  const refs = new Map<string, { ok: boolean; reason?: string }>();
  for (const line of rest) {
    const ok = /^ok (\S+)$/.exec(line);
    const ng = /^ng (\S+)(?: (.*))?$/.exec(line);
    if (ok) refs.set(ok[1]!, { ok: true });
    else if (ng) refs.set(ng[1]!, { ok: false, reason: ng[2] ?? 'refused' });
    else throw new ProtocolError(`not a line of a push report: ${JSON.stringify(line.slice(0, 80))}`);
  }
  return { unpack: unpack[1]!, refs };
}

/** Reads a receive-pack answer: report-status, on band 1 when side-band was asked for; band 2 to `onMessage`. */
export async function readPushAnswer(body: AsyncIterable<Uint8Array>, sideBand: boolean, onMessage: (line: string) => void): Promise<PushReport> {
  const reader = new PktReader(body);
  const lines: string[] = [];
  const collect = async (from: PktReader): Promise<boolean> => {
    for (;;) {
      const pkt = await from.read();
      if (pkt === 'flush') return true;
      if (pkt === 'end') return false;
      lines.push(lineText(pkt));
    }
  };
  let complete: boolean;
  if (sideBand) {
    const data: Uint8Array[] = [];
    await readSideBand(reader, (bytes) => data.push(bytes), new MessageLines(onMessage));
    complete = await collect(new PktReader(once(joinBytes(data))));
  } else complete = await collect(reader);
  if (!complete && !lines.length) throw new ProtocolError('the server closed the connection without saying whether the publish landed');
  return parsePushReport(lines);
}

/** Whether the server advertised a capability (`agent` is advertised with a value: `agent=git/2.39.5`). */
export function advertises(advertised: Advertisement, name: string): boolean {
  if (advertised.capabilities.has(name)) return true;
  for (const c of advertised.capabilities) if (c.startsWith(`${name}=`)) return true;
  return false;
}

/** Our agent, for a server that advertised that capability only: a client must not request one it did not (git's protocol). */
function agent(advertised: Advertisement): string[] {
  return advertises(advertised, 'agent') ? ['agent=recipe-lens'] : [];
}

/** Pushes: sends the updates and the pack, and returns the server's report (its messages to `onMessage`). */
export async function sendPack(
  request: SmartRequest,
  advertised: Advertisement,
  updates: readonly RefUpdate[],
  pack: Uint8Array,
  onMessage: (line: string) => void = () => undefined,
): Promise<PushReport> {
  const sideBand = advertised.capabilities.has('side-band-64k');
  const capabilities = ['report-status', ...(sideBand ? ['side-band-64k'] : []), ...agent(advertised)];
  if (!advertised.capabilities.has('report-status')) throw new ProtocolError('the server cannot report the result of a push (no report-status)');
  const body = await post(request, 'git-receive-pack', pushRequest(updates, capabilities, pack));
  return readPushAnswer(body, sideBand, onMessage);
}

/** What a fetch asks for. */
export interface FetchWants {
  wants: readonly string[];
  /** Commits this clone has (with all they reach): the server sends only what they do not reach, as deltas of it where it can. */
  haves: readonly string[];
}

/** The body of a fetch: the wants (the first with our capabilities), a flush, the haves, `done`. */
export function fetchRequest({ wants, haves }: FetchWants, capabilities: readonly string[]): Uint8Array {
  if (!wants.length) throw new Error('a fetch wants at least one object');
  const parts = wants.map((w, i) => pktLine(`want ${w}${i === 0 && capabilities.length ? ` ${capabilities.join(' ')}` : ''}\n`));
  parts.push(FLUSH_PKT);
  for (const h of haves) parts.push(pktLine(`have ${h}\n`));
  parts.push(pktLine('done\n'));
  return joinBytes(parts);
}

/** Reads an upload-pack answer: ACK/NAK lines, then the pack (on band 1 with side-band). */
export async function readFetchAnswer(
  body: AsyncIterable<Uint8Array>,
  sideBand: boolean,
  onMessage: (line: string) => void,
  onBytes?: (n: number) => void,
): Promise<Uint8Array> {
  const reader = new PktReader(body);
  let pkt = await reader.read();
  let negotiated = false;
  for (;;) {
    if (pkt === 'end')
      throw new ProtocolError(negotiated ? 'the server closed the connection before sending the pack' : 'the server sent an empty answer to the fetch');
    if (pkt === 'flush') throw new ProtocolError('the server sent no pack');
    const text = lineText(pkt);
    if (text.startsWith('ERR ')) throw new ProtocolError(`the server refused the fetch: ${text.slice(4).trim()}`);
    if (!(text === 'NAK' || text.startsWith('ACK ') || text.startsWith('shallow ') || text.startsWith('unshallow '))) break;
    negotiated = true;
    if (!sideBand && (text === 'NAK' || /^ACK [0-9a-f]{40}$/.test(text))) {
      const pack = await reader.rest();
      onBytes?.(pack.length);
      return pack;
    }
    pkt = await reader.read();
  }
  if (!negotiated) throw new ProtocolError(`the answer to the fetch does not begin with ACK or NAK: ${JSON.stringify(lineText(pkt).slice(0, 80))}`);
  if (!sideBand) throw new ProtocolError('unexpected lines before the pack');
  const data: Uint8Array[] = [];
  let received = 0;
  await readSideBand(
    reader,
    (bytes) => {
      data.push(bytes);
      received += bytes.length;
      onBytes?.(received);
    },
    new MessageLines(onMessage),
    pkt,
  );
  return joinBytes(data);
}

/** Fetches: asks for `wants` as a thin pack against `haves`, and returns the pack's bytes (messages to `onMessage`). */
export async function fetchPack(
  request: SmartRequest,
  advertised: Advertisement,
  wants: FetchWants,
  onMessage: (line: string) => void = () => undefined,
  onBytes?: (n: number) => void,
): Promise<Uint8Array> {
  const caps = advertised.capabilities;
  const sideBand = caps.has('side-band-64k');
  const capabilities = [
    ...(sideBand ? ['side-band-64k'] : []),
    ...(caps.has('thin-pack') ? ['thin-pack'] : []),
    ...(caps.has('ofs-delta') ? ['ofs-delta'] : []),
    ...(caps.has('no-progress') ? ['no-progress'] : []),
    ...agent(advertised),
  ];
  const body = await post(request, 'git-upload-pack', fetchRequest(wants, capabilities));
  return readFetchAnswer(body, sideBand, onMessage, onBytes);
}
