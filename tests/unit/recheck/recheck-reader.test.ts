// Reading a source for the extension's recheck (components/recheck/read-source.ts) on a fake network: cookies left
// out and redirects judged by their final address, a page parsed inert (its scripts never run, its markup text),
// hidden text that lists a claim's words is not the passage, a PDF goes to the PDF reader, a failure is `unreachable`
// with its reason; and the findings it hands over (the selectors an edited passage would move to). Then the report's
// grouping per model (lib/recheck/view.ts).
import { describe, expect, it } from 'vitest';
import { sourceReader } from '../../../components/recheck/read-source';
import { PdfTextModel } from '../../../lib/pdf';
import { RECHECK_LIMITS, reportModels, type SourceFindings, type StoredRecheck } from '../../../lib/recheck';
import { siteOf } from '../../../lib/source/sites';
import { claim } from '../fixtures/records';

const URL_ = 'https://example.org/zeta-2-report';
const KEPT = 'Reasoning RL uses GRPO with the KL term removed.';
const OLD = 'The agentic stage is trained with asynchronous rollouts over long tool trajectories.';
const NEW = 'The agentic stage is trained with fully asynchronous rollouts over long tool trajectories.';
const GONE = 'A preference model trained on human comparisons guides the final stage.';

const c = (id: string, exact: string, extra: Record<string, unknown> = {}) =>
  claim({ id, quote: { exact, prefix: '', suffix: '' }, position: null, source: { ...claim().source, url: URL_ }, ...extra });

function reader(
  respond: (url: string, init: RequestInit) => Response,
  readPdf = async (_b: Uint8Array): Promise<PdfTextModel> => Promise.reject(new Error('no PDF here')),
) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const read = sourceReader({
    fetch: (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      calls.push({ url: String(input), init });
      return respond(String(input), init);
    }) as typeof fetch,
    siteOf,
    readPdf,
    parseHtml: (html) => new DOMParser().parseFromString(html, 'text/html'),
    now: () => '2026-12-07T10:00:00Z',
    limits: { ...RECHECK_LIMITS, retries: 0, timeoutMs: 2000 },
  });
  return { read, calls };
}

const page = (body: string, url = URL_) => {
  const response = new Response(`<!doctype html><html><body>${body}</body></html>`, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } });
  Object.defineProperty(response, 'url', { value: url });
  return response;
};

describe('sourceReader', () => {
  it('fetches without cookies, follows redirects itself, and gives each claim its verdict with the selectors an edit would move to', async () => {
    const { read, calls } = reader(() => page(`<p>Zeta-2 is trained in stages.</p><p>${KEPT}</p><p>${NEW}</p><p>Nothing else.</p>`));
    const claims = [c('clm_keep000001', KEPT), c('clm_edit000001', OLD), c('clm_gone000001', GONE)];
    const found = await read(URL_, claims, new AbortController().signal);
    expect(calls[0]!.init).toMatchObject({ credentials: 'omit', redirect: 'follow' });
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
    expect(found.verdicts.map((v) => [v.id, v.verdict])).toEqual([
      ['clm_keep000001', 'unchanged'],
      ['clm_edit000001', 'edited'],
      ['clm_gone000001', 'gone'],
    ]);
    const edited = found.verdicts[1]!;
    expect(edited.text).toBe(NEW);
    expect(edited.selectors?.quote.exact).toBe(NEW);
    expect(edited.selectors?.quote.prefix).toBe(`${KEPT} `.slice(-32));
    expect(edited.selectors?.quote.suffix).toBe(' Nothing else.');
    expect(edited.claim_updated_at).toBe(claims[1]!.updated_at);
    expect(found.checked_at).toBe('2026-12-07T10:00:00Z');
    expect(found.verdicts[0]!.selectors).toBeNull();
  });

  it('never runs a page script, reads markup in text as text, and does not take hidden text for the passage', async () => {
    (globalThis as { ranScript?: boolean }).ranScript = false;
    const { read } = reader(() =>
      page(
        `<script>globalThis.ranScript = true</script><p hidden>${KEPT}</p><div style="display:none">${GONE}</div><p>&lt;img src=x onerror=alert(1)&gt; is text here.</p>`,
      ),
    );
    const found = await read(URL_, [c('clm_keep000001', KEPT), c('clm_gone000001', GONE)], new AbortController().signal);
    expect((globalThis as { ranScript?: boolean }).ranScript).toBe(false);
    expect(found.verdicts.map((v) => v.verdict)).toEqual(['gone', 'gone']);
  });

  it('says unreachable with the status for a 404 and a redirect to another site, and never re-anchors there', async () => {
    const missing = reader(() => new Response('no', { status: 404 }));
    const a = await missing.read(URL_, [c('clm_keep000001', KEPT)], new AbortController().signal);
    expect(a.verdicts[0]).toMatchObject({ verdict: 'unreachable', reason: expect.stringMatching(/^HTTP 404/) });
    const moved = reader(() => page(`<p>${KEPT}</p>`, 'https://elsewhere.example.net/copy'));
    const b = await moved.read(URL_, [c('clm_keep000001', KEPT)], new AbortController().signal);
    expect(b.verdicts[0]).toMatchObject({ verdict: 'unreachable', reason: expect.stringContaining('moved to another site') });
  });

  it('reads a PDF through the PDF reader and anchors on its text model', async () => {
    const pdf = new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]), { status: 200, headers: { 'content-type': 'application/pdf' } });
    Object.defineProperty(pdf, 'url', { value: URL_ });
    const run = (str: string, y: number) => ({ str, hasEOL: true, transform: [10, 0, 0, 10, 72, y], width: str.length * 5, height: 10, fontName: 'f1' });
    let bytes = 0;
    const { read } = reader(
      () => pdf,
      async (b) => {
        bytes = b.length;
        return PdfTextModel.build([[run(KEPT, 700), run(NEW, 680)]], document.implementation.createHTMLDocument(''));
      },
    );
    const found = await read(URL_, [c('clm_keep000001', KEPT), c('clm_edit000001', OLD)], new AbortController().signal);
    expect(bytes).toBe(6);
    expect(found.verdicts.map((v) => v.verdict)).toEqual(['unchanged', 'edited']);
  });

  it('says a broken PDF is unreachable, with why', async () => {
    const pdf = new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), { status: 200, headers: { 'content-type': 'application/pdf' } });
    Object.defineProperty(pdf, 'url', { value: URL_ });
    const { read } = reader(() => pdf);
    const found = await read(URL_, [c('clm_keep000001', KEPT)], new AbortController().signal);
    expect(found.verdicts[0]).toMatchObject({ verdict: 'unreachable', reason: 'not a readable PDF (no PDF here)' });
  });
});

describe('reportModels', () => {
  const findings = (url: string, verdicts: SourceFindings['verdicts'], candidates: SourceFindings['candidates'] = []): StoredRecheck => ({
    url,
    record: null,
    findings: { url, title: url, checked_at: '2026-12-07T10:00:00Z', verdicts, candidates, undisclosedOnly: false },
  });
  const v = (id: string, verdict: 'unchanged' | 'edited' | 'gone', extra: Record<string, unknown> = {}) => ({
    id,
    verdict,
    text: verdict === 'edited' ? 'new text' : null,
    reason: null,
    selectors: null,
    claim_updated_at: '2026-11-29T10:00:00Z',
    ...extra,
  });

  it('groups each source under its claims’ models: not-disclosed models first, then those with passages to look at', () => {
    const claims = [
      c('clm_alfa000001', KEPT, { model: 'Alpha' }),
      c('clm_beta000001', OLD, { model: 'Beta' }),
      c('clm_beta000002', GONE, { model: 'Beta' }),
      claim({ id: 'clm_omga000001', model: 'Omega', kind: 'undisclosed', source: { ...claim().source, url: 'https://example.org/omega' } }),
    ];
    const models = reportModels(
      [
        findings(URL_, [v('clm_alfa000001', 'unchanged'), v('clm_beta000001', 'edited', { accepted_at: '2026-12-07T11:00:00Z' }), v('clm_beta000002', 'gone')]),
        findings('https://example.org/omega', [v('clm_omga000001', 'unchanged')]),
      ],
      claims,
    );
    expect(models.map((m) => [m.model, m.undisclosedOnly])).toEqual([
      ['Omega', true],
      ['Beta', false],
      ['Alpha', false],
    ]);
    const beta = models[1]!;
    expect(beta.counts).toEqual({ unchanged: 0, edited: 0, gone: 1, unreachable: 0, accepted: 1 });
    expect(beta.sources[0]!.items.map((i) => i.claim.id)).toEqual(['clm_beta000001', 'clm_beta000002']);
    expect(beta.sources[0]!.status).toBe('changed');
  });

  it('leaves out deleted claims and sources never rechecked here', () => {
    const gone = c('clm_dead000001', KEPT, { deleted_at: '2026-12-01T00:00:00Z' });
    expect(reportModels([findings(URL_, [v('clm_dead000001', 'gone')]), { url: 'https://x.example.org/', record: null, findings: null }], [gone])).toEqual([]);
  });
});
