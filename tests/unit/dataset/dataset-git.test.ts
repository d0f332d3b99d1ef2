// The sync engine's small parts: the token on every request, bytes counted, failures in words, review links.
import { Errors } from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import {
  authedHttp,
  base64Utf8,
  basicAuth,
  describeFailure,
  forgeOf,
  newMeter,
  reviewLink,
  SyncError,
  webUrl,
  type GitHttpRequest,
  type HttpClient,
} from '../../../lib/dataset/git';

async function* chunks(...parts: string[]): AsyncIterableIterator<Uint8Array> {
  for (const p of parts) yield new TextEncoder().encode(p);
}

async function drain(body: AsyncIterableIterator<Uint8Array> | undefined): Promise<string> {
  let text = '';
  if (body) for await (const c of body) text += new TextDecoder().decode(c);
  return text;
}

describe('the HTTP client git talks through', () => {
  it('sends the token on every request, GET and POST alike, and counts the bytes both ways', async () => {
    const seen: GitHttpRequest[] = [];
    const base: HttpClient = {
      async request(req) {
        seen.push(req);
        const sent = await drain(req.body);
        return { url: req.url, method: req.method, headers: {}, statusCode: 200, statusMessage: 'OK', body: chunks('answer to ', sent || 'get') };
      },
    };
    const meter = newMeter();
    const http = authedHttp(base, { authorization: basicAuth('alice', 'tökén'), meter });
    const get = await http.request({
      url: 'https://host/r.git/info/refs?service=git-upload-pack',
      method: 'GET',
      headers: { 'User-Agent': 'git/isomorphic-git' },
    });
    expect(await drain(get.body)).toBe('answer to get');
    const post = await http.request({ url: 'https://host/r.git/git-upload-pack', method: 'POST', headers: {}, body: chunks('0032want ', 'abc') });
    expect(await drain(post.body)).toBe('answer to 0032want abc');
    expect(seen.map((r) => r.headers?.Authorization)).toEqual([`Basic ${base64Utf8('alice:tökén')}`, `Basic ${base64Utf8('alice:tökén')}`]);
    expect(seen[0]!.headers!['User-Agent']).toBe('git/isomorphic-git');
    expect(meter).toEqual({ requests: 2, sent: 12, received: 'answer to get'.length + 'answer to 0032want abc'.length });
  });

  it('encodes user and token as UTF-8 base64 without Buffer', () => {
    expect(base64Utf8('x-access-token:ghp_abc')).toBe(btoa('x-access-token:ghp_abc'));
    expect(base64Utf8('é')).toBe('w6k=');
  });
});

describe('failures in words a curator can act on', () => {
  const where = { url: 'https://git.example.org/team/survey.git', branch: 'main' };

  it.each([
    [new Errors.HttpError(401, 'Unauthorized', ''), false, 'auth', 'git.example.org refused the token (401)'],
    [new Errors.HttpError(403, 'Forbidden', ''), true, 'read-only', 'lets this token read the dataset but not write to it (403)'],
    [new Errors.HttpError(403, 'Forbidden', ''), false, 'auth', 'refused this token access'],
    [new Errors.HttpError(404, 'Not Found', ''), false, 'not-found', 'There is no repository at https://git.example.org/team/survey.git (404)'],
    [new Errors.HttpError(502, 'Bad Gateway', ''), false, 'failed', 'answered 502'],
    [Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), false, 'unreachable', 'Cannot reach git.example.org'],
    [Object.assign(new Error('The operation was aborted'), { name: 'AbortError' }), false, 'aborted', 'Stopped before it finished'],
  ])('%s → %s', (error, pushing, code, words) => {
    const failure = describeFailure(error, { ...where, pushing: pushing as boolean });
    expect(failure).toBeInstanceOf(SyncError);
    expect(failure.code).toBe(code);
    expect(failure.message).toContain(words);
  });

  it('keeps a SyncError as it is', () => {
    const error = new SyncError('conflicts', 'two versions', ['claim x']);
    expect(describeFailure(error, where)).toBe(error);
  });
});

describe('review links', () => {
  it.each([
    ['https://github.com/team/survey.git', 'https://github.com/team/survey/compare/main...curators/alice?expand=1'],
    [
      'https://gitlab.com/group/sub/survey.git',
      'https://gitlab.com/group/sub/survey/-/merge_requests/new?merge_request%5Bsource_branch%5D=curators%2Falice&merge_request%5Btarget_branch%5D=main',
    ],
    ['https://codeberg.org/team/survey', 'https://codeberg.org/team/survey/compare/main...curators/alice'],
    ['https://gitea.lab.example/team/survey.git/', 'https://gitea.lab.example/team/survey/compare/main...curators/alice'],
    ['https://git.lab.example/team/survey.git', null],
  ])('%s → %s', (url, link) => {
    expect(reviewLink(url, 'main', 'curators/alice')).toBe(link);
  });

  it('takes the forge the curator names when the host does not tell, and never shows credentials', () => {
    expect(forgeOf('https://git.lab.example/x.git')).toBeNull();
    expect(reviewLink('https://git.lab.example/team/survey.git', 'main', 'curators/bob', 'gitlab')).toMatch(
      /^https:\/\/git\.lab\.example\/team\/survey\/-\/merge_requests\/new\?/,
    );
    expect(webUrl('https://user:secret@github.com/team/survey.git')).toBe('https://github.com/team/survey');
    expect(webUrl('ssh://git@github.com/team/survey.git')).toBeNull();
  });
});
