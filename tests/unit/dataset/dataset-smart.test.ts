// Git's smart HTTP protocol as the sync engine speaks it: pkt-lines, the refs a service advertises, a push's request
// and its report, a fetch's request and its pack — and a server that answers otherwise gets a clear error.
import { describe, expect, it } from 'vitest';
import { authedHttp, basicAuth, describeFailure, type GitHttpRequest, type HttpClient } from '../../../lib/dataset/git';
import { FLUSH_PKT, joinBytes, MessageLines, PktReader, ProtocolError, pktLine } from '../../../lib/dataset/git/pktline';
import { advertisement, fetchPack, fetchRequest, parsePushReport, pushRequest, sendPack, ZERO_ID, type Advertisement } from '../../../lib/dataset/git/smart';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);
const URL_ = 'https://git.example.org/team/survey.git';
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const bytes = (t: string) => new TextEncoder().encode(t);

async function* chunked(data: Uint8Array, size: number): AsyncIterableIterator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function drain(body: AsyncIterableIterator<Uint8Array> | undefined): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  if (body) for await (const c of body) parts.push(c);
  return joinBytes(parts);
}

/** A band line: the band's byte, then the bytes. */
function band(n: number, payload: string | Uint8Array): Uint8Array {
  const body = typeof payload === 'string' ? bytes(payload) : payload;
  return pktLine(joinBytes([Uint8Array.of(n), body]));
}

/** A server answering each request with the next canned response, keeping what it was sent. */
function server(...answers: Array<{ status?: number; type?: string; body: Uint8Array }>) {
  const seen: Array<GitHttpRequest & { sent: Uint8Array }> = [];
  const base: HttpClient = {
    async request(req) {
      const sent = await drain(req.body);
      seen.push({ ...req, sent });
      const answer = answers.shift();
      if (!answer) throw new Error('no more answers');
      return {
        url: req.url,
        method: req.method,
        headers: answer.type ? { 'content-type': answer.type } : ({} as Record<string, string>),
        statusCode: answer.status ?? 200,
        statusMessage: 'whatever',
        body: chunked(answer.body, 7),
      };
    },
  };
  const http = authedHttp(base, { authorization: basicAuth('alice', 'alice-token') });
  return { http, seen, request: { http, url: URL_ } };
}

function refsAd(service: string, lines: string[]): Uint8Array {
  return joinBytes([pktLine(`# service=${service}\n`), FLUSH_PKT, ...lines.map((l) => pktLine(`${l}\n`)), FLUSH_PKT]);
}

describe('pkt-lines', () => {
  it('frames text and bytes with their length in four hex digits', () => {
    expect(text(pktLine('want abc\n'))).toBe('000dwant abc\n');
    expect(text(FLUSH_PKT)).toBe('0000');
    expect(() => pktLine(new Uint8Array(65517))).toThrow(/at most 65516/);
  });

  it('reads lines split across chunks anywhere, flushes, and the raw bytes after them', async () => {
    const data = joinBytes([pktLine('one\n'), FLUSH_PKT, pktLine('two'), bytes('PACK raw bytes')]);
    for (const size of [1, 3, 5, 100]) {
      const reader = new PktReader(chunked(data, size));
      expect(text((await reader.read()) as Uint8Array)).toBe('one\n');
      expect(await reader.read()).toBe('flush');
      expect(text((await reader.read()) as Uint8Array)).toBe('two');
      expect(text(await reader.rest())).toBe('PACK raw bytes');
      expect(await reader.read()).toBe('end');
    }
  });

  it.each([
    ['a line cut short', joinBytes([bytes('0010abc')]), /cut short inside a line/],
    ['a length cut short', bytes('00'), /cut short inside a line/],
    ['no length at all', bytes('<html>'), /expected a pkt-line, got "<htm"/],
    ['a length under 4', bytes('0002'), /length 2 is not allowed/],
  ])('refuses %s', async (_name, data, words) => {
    await expect(new PktReader(chunked(data, 2)).read()).rejects.toThrow(words);
  });

  it('splits the server’s messages into lines whatever the chunks', () => {
    const lines: string[] = [];
    const messages = new MessageLines((l) => lines.push(l));
    messages.push(bytes('records/claims/x.jsonl:1: not in'));
    messages.push(bytes(' the export form\nprogress 50%\rprogress 100%\r\nlast words'));
    messages.end();
    expect(lines).toEqual(['records/claims/x.jsonl:1: not in the export form', 'progress 50%', 'progress 100%', 'last words']);
  });
});

describe('the refs a service advertises', () => {
  it('reads refs and capabilities, with the token on the request', async () => {
    const s = server({
      type: 'application/x-git-receive-pack-advertisement',
      body: refsAd('git-receive-pack', [`${A} refs/heads/main\0report-status side-band-64k ofs-delta agent=git/2.39`, `${B} refs/heads/curators/bob`]),
    });
    const ad = await advertisement(s.request, 'git-receive-pack');
    expect([...ad.refs]).toEqual([
      ['refs/heads/main', A],
      ['refs/heads/curators/bob', B],
    ]);
    expect([...ad.capabilities]).toEqual(['report-status', 'side-band-64k', 'ofs-delta', 'agent=git/2.39']);
    expect(s.seen[0]).toMatchObject({ method: 'GET', url: `${URL_}/info/refs?service=git-receive-pack` });
    expect(s.seen[0]!.headers!.Authorization).toBe(basicAuth('alice', 'alice-token'));
  });

  it('reads an empty repository: no refs, its capabilities on a placeholder', async () => {
    const s = server({
      type: 'application/x-git-upload-pack-advertisement',
      body: refsAd('git-upload-pack', [`${ZERO_ID} capabilities^{}\0thin-pack side-band-64k`]),
    });
    const ad = await advertisement(s.request, 'git-upload-pack');
    expect(ad.refs.size).toBe(0);
    expect(ad.capabilities.has('thin-pack')).toBe(true);
  });

  it('gives an HTTP status as isomorphic-git’s HttpError, which the engine words', async () => {
    const s = server({ status: 401, type: 'text/plain', body: bytes('authentication required\n') });
    const error = await advertisement(s.request, 'git-upload-pack').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HttpError', data: { statusCode: 401 } });
    expect(describeFailure(error, { url: URL_, branch: 'main' })).toMatchObject({ code: 'auth' });
  });

  it.each([
    [
      'a web page',
      { type: 'text/html', body: bytes('<!doctype html><title>Sign in</title>') },
      /did not answer as a git smart-HTTP server \(content type "text\/html": <!doctype html>/,
    ],
    [
      'the wrong service',
      { type: 'application/x-git-upload-pack-advertisement', body: refsAd('git-receive-pack', []) },
      /the list of refs is not git's \(Expected "# service=git-upload-pack\\n" but received "# service=git-receive-pack/,
    ],
    [
      'a list cut short',
      { type: 'application/x-git-upload-pack-advertisement', body: refsAd('git-upload-pack', [`${A} refs/heads/main`]).subarray(0, -4) },
      /the list of refs is not git's \(/,
    ],
    [
      'a line that is not a ref',
      { type: 'application/x-git-upload-pack-advertisement', body: refsAd('git-upload-pack', ['hello world']) },
      /the list of refs is not git's \(|not a ref line/,
    ],
    [
      'an id that is not an id',
      { type: 'application/x-git-upload-pack-advertisement', body: refsAd('git-upload-pack', [`${'z'.repeat(40)} refs/heads/main\0thin-pack`]) },
      /not a ref line: "z{40} refs\/heads\/main"/,
    ],
  ])('refuses %s with a clear error', async (_name, answer, words) => {
    const s = server(answer);
    const error = await advertisement(s.request, 'git-upload-pack').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(words);
    const failure = describeFailure(error, { url: URL_, branch: 'main' });
    expect(failure).toMatchObject({ code: 'failed', message: expect.stringContaining("git.example.org answered in a way git's protocol does not allow") });
  });
});

describe('a push', () => {
  const advertised: Advertisement = {
    refs: new Map([['refs/heads/main', A]]),
    capabilities: new Set(['report-status', 'side-band-64k', 'delete-refs', 'agent=git/2.39.5']),
  };
  const pack = bytes('PACK…');

  it('sends the update with our capabilities, a flush, then the pack', () => {
    const body = pushRequest([{ old: A, new: B, ref: 'refs/heads/main' }], ['report-status', 'side-band-64k'], pack);
    const update = `${A} ${B} refs/heads/main\0report-status side-band-64k\n`;
    expect(text(body)).toBe(`${(update.length + 4).toString(16).padStart(4, '0')}${update}0000PACK…`);
  });

  it('reads the report on band 1 and the hook’s words on band 2', async () => {
    const report = joinBytes([pktLine('unpack ok\n'), pktLine('ok refs/heads/main\n'), FLUSH_PKT]);
    const s = server({
      type: 'application/x-git-receive-pack-result',
      body: joinBytes([band(2, 'checking the dataset\nall '), band(2, 'good\n'), band(1, report), FLUSH_PKT]),
    });
    const messages: string[] = [];
    const result = await sendPack(s.request, advertised, [{ old: A, new: B, ref: 'refs/heads/main' }], pack, (m) => messages.push(m));
    expect(result.unpack).toBe('ok');
    expect([...result.refs]).toEqual([['refs/heads/main', { ok: true }]]);
    expect(messages).toEqual(['checking the dataset', 'all good']);
    expect(s.seen[0]).toMatchObject({ method: 'POST', url: `${URL_}/git-receive-pack` });
    expect(s.seen[0]!.headers).toMatchObject({ 'Content-Type': 'application/x-git-receive-pack-request', Authorization: basicAuth('alice', 'alice-token') });
    expect(text(s.seen[0]!.sent)).toContain('report-status side-band-64k agent=recipe-lens\n0000PACK…');
  });

  it('reads a refusal: the ref not moved and why', async () => {
    const report = joinBytes([pktLine('unpack ok\n'), pktLine('ng refs/heads/main pre-receive hook declined\n'), FLUSH_PKT]);
    const s = server({ type: 'application/x-git-receive-pack-result', body: joinBytes([band(2, 'push refused\n'), band(1, report), FLUSH_PKT]) });
    const result = await sendPack(s.request, advertised, [{ old: A, new: B, ref: 'refs/heads/main' }], pack);
    expect(result.refs.get('refs/heads/main')).toEqual({ ok: false, reason: 'pre-receive hook declined' });
  });

  it('reads a report without side-band when the server has none', async () => {
    const plain: Advertisement = { refs: advertised.refs, capabilities: new Set(['report-status']) };
    const s = server({ type: 'application/x-git-receive-pack-result', body: joinBytes([pktLine('unpack index-pack abnormal exit\n'), FLUSH_PKT]) });
    const result = await sendPack(s.request, plain, [{ old: A, new: B, ref: 'refs/heads/main' }], pack);
    expect(result.unpack).toBe('index-pack abnormal exit');
    // A server that advertises no agent is sent none (a client must not request what was not advertised).
    expect(text(s.seen[0]!.sent)).toContain('\0report-status\n');
    expect(text(s.seen[0]!.sent)).not.toContain('agent');
  });

  it.each([
    ['an answer cut off before the report', joinBytes([band(2, 'working\n')]), /closed the connection without saying whether the publish landed/],
    ['a fatal error on band 3', joinBytes([band(2, 'working\n'), band(3, 'out of disk space\n')]), /the server stopped: out of disk space/],
    ['a report without unpack', joinBytes([band(1, joinBytes([pktLine('ok refs/heads/main\n'), FLUSH_PKT])), FLUSH_PKT]), /does not begin with "unpack"/],
    [
      'a line that is not of a report',
      joinBytes([band(1, joinBytes([pktLine('unpack ok\n'), pktLine('maybe refs/heads/main\n')])), FLUSH_PKT]),
      /not a line of a push report/,
    ],
    ['an unknown band', joinBytes([band(5, 'x')]), /unknown band 5/],
  ])('refuses %s with a clear error', async (_name, body, words) => {
    const s = server({ type: 'application/x-git-receive-pack-result', body });
    await expect(sendPack(s.request, advertised, [{ old: A, new: B, ref: 'refs/heads/main' }], pack)).rejects.toThrow(words);
  });

  it('will not push to a server that cannot report the result', async () => {
    const s = server();
    const bare: Advertisement = { refs: advertised.refs, capabilities: new Set() };
    await expect(sendPack(s.request, bare, [{ old: ZERO_ID, new: B, ref: 'refs/heads/main' }], pack)).rejects.toThrow(/no report-status/);
    expect(s.seen).toEqual([]);
  });

  it('parses several refs and a refusal without reason', () => {
    expect(parsePushReport(['unpack ok', 'ok refs/heads/a', 'ng refs/heads/b'])).toEqual({
      unpack: 'ok',
      refs: new Map([
        ['refs/heads/a', { ok: true }],
        ['refs/heads/b', { ok: false, reason: 'refused' }],
      ]),
    });
  });
});

describe('a fetch', () => {
  const advertised: Advertisement = {
    refs: new Map([['refs/heads/main', C]]),
    capabilities: new Set(['multi_ack', 'thin-pack', 'side-band-64k', 'ofs-delta', 'no-progress', 'shallow', 'agent=git/2.39.5']),
  };
  const pack = bytes('PACK and its objects');

  it('asks for a thin pack against what the clone has, and ends with done', () => {
    const body = fetchRequest({ wants: [C], haves: [A, B] }, ['side-band-64k', 'thin-pack', 'ofs-delta']);
    expect(text(body)).toBe(
      `${pktLine(`want ${C} side-band-64k thin-pack ofs-delta\n`).length.toString(16).padStart(4, '0')}want ${C} side-band-64k thin-pack ofs-delta\n0000` +
        `0032have ${A}\n0032have ${B}\n0009done\n`,
    );
    expect(() => fetchRequest({ wants: [], haves: [] }, [])).toThrow(/at least one/);
  });

  it('reads ACK then the pack on band 1 (progress on band 2), asking only for capabilities the server has', async () => {
    const s = server({
      type: 'application/x-git-upload-pack-result',
      body: joinBytes([pktLine(`ACK ${A}\n`), band(2, 'Counting objects\n'), band(1, pack.subarray(0, 5)), band(1, pack.subarray(5)), FLUSH_PKT]),
    });
    const messages: string[] = [];
    const got = await fetchPack(s.request, advertised, { wants: [C], haves: [A] }, (m) => messages.push(m));
    expect(text(got)).toBe('PACK and its objects');
    expect(messages).toEqual(['Counting objects']);
    expect(text(s.seen[0]!.sent)).toContain(`want ${C} side-band-64k thin-pack ofs-delta no-progress agent=recipe-lens\n`);
    expect(s.seen[0]).toMatchObject({ method: 'POST', url: `${URL_}/git-upload-pack` });
    expect(s.seen[0]!.headers!.Authorization).toBe(basicAuth('alice', 'alice-token'));
  });

  it('reads the raw pack after NAK from a server without side-band, and asks no thin pack of one that cannot', async () => {
    const plain: Advertisement = { refs: advertised.refs, capabilities: new Set() };
    const s = server({ type: 'application/x-git-upload-pack-result', body: joinBytes([pktLine('NAK\n'), pack]) });
    expect(text(await fetchPack(s.request, plain, { wants: [C], haves: [] }))).toBe('PACK and its objects');
    expect(text(s.seen[0]!.sent)).toContain(`want ${C}\n`);
    expect(text(s.seen[0]!.sent)).not.toContain('agent');
  });

  it.each([
    ['an empty answer', new Uint8Array(0), /sent an empty answer to the fetch/],
    ['an error line', pktLine('ERR upload-pack: not our ref cccc\n'), /refused the fetch: upload-pack: not our ref/],
    ['an answer without ACK or NAK', band(1, pack), /does not begin with ACK or NAK/],
    ['an answer ending after NAK', pktLine('NAK\n'), /closed the connection before sending the pack/],
    ['a flush instead of the pack', joinBytes([pktLine('NAK\n'), FLUSH_PKT]), /sent no pack/],
    ['a fatal error on band 3', joinBytes([pktLine('NAK\n'), band(3, 'pack-objects died\n')]), /the server stopped: pack-objects died/],
  ])('refuses %s with a clear error', async (_name, body, words) => {
    const s = server({ type: 'application/x-git-upload-pack-result', body });
    await expect(fetchPack(s.request, advertised, { wants: [C], haves: [A] })).rejects.toThrow(words);
  });
});
