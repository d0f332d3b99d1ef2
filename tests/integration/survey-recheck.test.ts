// `survey recheck` against a real HTTP server on 127.0.0.1: the public revisions corpus's claims (captured on the
// old revisions) rechecked on the new revisions served at their URLs, and each fault the issue names: 404 and 500,
// a redirect to another site, a body over 20 MB, a server that never answers, a busy server (503 + Retry-After),
// scripts and markup, the claim's words in hidden elements only, and a PDF whose second version changed a sentence.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe as suite, expect, it } from 'vitest';
import { readSourcesFile, SOURCES_PATH } from '../../lib/dataset';
import type { ClaimRecord } from '../../lib/schema';
import { sameText } from '../../lib/recheck';
import { haveRevisions, loadRevisions, REVISIONS, type Pair } from '../../scripts/anchoring/corpus';
import { readPdf } from '../../scripts/survey/parse';
import { on, serve, writeRecords, type Served } from '../support/recheck-server';
import { runSurvey } from '../support/survey-cli';
import { tinyPdf } from '../support/tiny-pdf';
import { claim } from '../unit/fixtures/records';

const PDF_V1 = [
  'Qwen-Test Technical Report',
  'In the second stage we train the policy with GRPO on verifiable math and code prompts.',
  'The reward model is a rule-based verifier that checks the final answer of each response.',
];
const PDF_V2 = [
  'Qwen-Test Technical Report',
  'In the second stage we train the policy with DAPO on verifiable math and code prompts.',
  'The reward model is a rule-based verifier that checks the final answer of each response.',
];

interface Line {
  id: string;
  url: string;
  verdict: string;
  text: string | null;
  reason: string | null;
}

if (haveRevisions()) {
  suite('survey recheck against a server on 127.0.0.1', () => {
    const corpus = loadRevisions() as unknown as { pairs: Pair[]; pages: Record<string, { file: string }> };
    let served: Served;
    let dir: string;
    let lines: Line[] = [];
    let run: Awaited<ReturnType<typeof runSurvey>>;
    const claims: ClaimRecord[] = [];
    const byId = (id: string) => lines.find((l) => l.id === id)!;

    beforeAll(async () => {
      const v1 = await readPdf(tinyPdf([PDF_V1]));
      served = await serve(corpus.pairs, corpus.pages, tinyPdf([PDF_V2]));
      const b = served.base;
      const records = readFileSync(path.join(REVISIONS, 'records.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l.replaceAll('http://fixtures.test', b)) as ClaimRecord);
      claims.push(...records);
      const plain = 'Some words about the model that are long enough to anchor on.';
      const markup = 'We train with <b>GRPO</b> written as markup, which stays text in the report.';
      claims.push(
        on(`${b}/t/404`, 'clm_fault_404', plain, plain),
        on(`${b}/t/500`, 'clm_fault_500', plain, plain),
        on(`${b}/t/away`, 'clm_fault_away', markup, markup),
        on(`${b}/t/moved`, 'clm_fault_moved', markup, markup),
        on(`${b}/t/huge`, 'clm_fault_huge', plain, plain),
        on(`${b}/t/silent`, 'clm_fault_silent', plain, plain),
        on(`${b}/t/markup`, 'clm_fault_markup', markup, markup),
        on(
          `${b}/t/markup`,
          'clm_fault_tags',
          'A quote with <img src=x onerror=alert(1)> in it, which the page no longer has.',
          'A quote with <img src=x onerror=alert(1)> in it, which the page no longer has.',
        ),
        on(
          `${b}/t/markup`,
          'clm_fault_script',
          'The policy is optimised with PPO and a learned reward model.',
          'The policy is optimised with PPO and a learned reward model.',
        ),
        on(
          `${b}/t/busy`,
          'clm_fault_busy',
          'Rewards come from unit tests run in a sandbox for every sampled program.',
          'Rewards come from unit tests run in a sandbox for every sampled program.',
        ),
      );
      for (const [i, exact] of [
        'Stage two applies GRPO with a KL penalty of zero to all math prompts.',
        'The critic is initialised from the reward model before PPO starts.',
        'Rejection sampling keeps eight answers per prompt for SFT.',
        'A rule-based reward checks the format of every answer the policy gives.',
      ].entries())
        claims.push(on(`${b}/t/hidden`, `clm_fault_hidden${i}`, exact, `This page says nothing about its training. ${exact}`));
      claims.push(
        on(`${b}/t/report.pdf`, 'clm_pdf_edited', PDF_V1[1]!, v1.text, { model: 'Qwen-Test', kind: 'algorithm', value: 'GRPO' }),
        on(`${b}/t/report.pdf`, 'clm_pdf_same', PDF_V1[2]!, v1.text, { model: 'Qwen-Test', kind: 'reward', value: 'rule-based verifier' }),
        // A deleted claim is not rechecked.
        on(`${b}/t/404`, 'clm_fault_deleted', plain, plain, { deleted_at: '2026-11-30T00:00:00Z', updated_at: '2026-11-30T00:00:00Z' }),
      );
      dir = mkdtempSync(path.join(os.tmpdir(), 'survey-recheck-'));
      writeRecords(dir, claims);
      run = await runSurvey(dir, 'recheck', '.', '--json', '--timeout', '2', '--report', 'report.md', '--write', '--today', '2026-12-05');
      lines = run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
    }, 240_000);

    afterAll(() => served?.server.closeAllConnections());
    afterAll(() => new Promise<void>((resolve) => (served ? served.server.close(() => resolve()) : resolve())));

    it('prints one JSON line per live claim, keys in the spec order, and exits 0', () => {
      expect(run.code, run.stderr).toBe(0);
      expect(lines).toHaveLength(claims.length - 1);
      expect(lines.some((l) => l.id === 'clm_fault_deleted')).toBe(false);
      for (const line of run.stdout.trim().split('\n')) expect(Object.keys(JSON.parse(line))).toEqual(['id', 'url', 'verdict', 'text', 'reason']);
      for (const l of lines) {
        expect(l.text === null).toBe(l.verdict !== 'edited');
        expect(l.reason === null).toBe(l.verdict !== 'unreachable');
      }
      expect(run.stderr).toMatch(/^\[\d+\/\d+\] /m);
    });

    it("gives the corpus's claims the verdicts of their classes", () => {
      const passages = corpus.pairs.flatMap((p) => p.passages);
      const of = (cls: string) => passages.filter((p) => p.class === cls).map((p) => byId(p.id));
      expect(of('same').filter((l) => l.verdict !== 'unchanged')).toEqual([]);
      const edited = of('edited');
      expect(edited.filter((l) => l.verdict === 'edited').length).toBeGreaterThanOrEqual(Math.ceil(0.95 * edited.length));
      const removed = of('removed');
      expect(removed.filter((l) => l.verdict === 'gone').length).toBeGreaterThanOrEqual(Math.ceil(0.95 * removed.length));
      const changed = passages.filter((p) => p.class !== 'same' && !p.expected.some((e) => sameText(e.text, p.quote.exact)));
      expect(changed.filter((p) => byId(p.id).verdict === 'unchanged').map((p) => p.id)).toEqual([]);
    });

    it('says unreachable, with what failed, for HTTP errors, another site, a huge body and a silent server', () => {
      expect(byId('clm_fault_404')).toMatchObject({ verdict: 'unreachable', reason: expect.stringMatching(/^HTTP 404/) });
      expect(byId('clm_fault_500')).toMatchObject({ verdict: 'unreachable', reason: expect.stringMatching(/^HTTP 500/) });
      expect(byId('clm_fault_away')).toMatchObject({ verdict: 'unreachable', reason: expect.stringMatching(/^moved to another site \(http:\/\/localhost:/) });
      expect(served.hosts.has('localhost')).toBe(false);
      expect(byId('clm_fault_huge')).toMatchObject({ verdict: 'unreachable', reason: 'too large (over 20 MB)' });
      expect(served.hugeSent).toBeLessThan(40 * 1024 * 1024);
      expect(byId('clm_fault_silent')).toMatchObject({ verdict: 'unreachable', reason: 'timed out after 2 s' });
    });

    it('follows a redirect on the same site, and waits out a busy server', () => {
      expect(byId('clm_fault_moved').verdict).toBe('unchanged');
      expect(byId('clm_fault_busy').verdict).toBe('unchanged');
      expect(served.hits.get('/t/busy')).toBe(2);
    });

    it('runs no script and reads markup as text; a hidden element is not the passage', () => {
      expect(byId('clm_fault_markup').verdict).toBe('unchanged');
      expect(byId('clm_fault_script').verdict).toBe('gone');
      expect(byId('clm_fault_tags').verdict).toBe('gone');
      for (let i = 0; i < 4; i++) expect(byId(`clm_fault_hidden${i}`).verdict, `hidden ${i}`).toBe('gone');
    });

    it('rechecks a PDF: the changed sentence edited with its new text, the other unchanged', () => {
      expect(byId('clm_pdf_same').verdict).toBe('unchanged');
      expect(byId('clm_pdf_edited')).toMatchObject({ verdict: 'edited', text: PDF_V2[1] });
    });

    it('sends at most 2 requests at a time to one host', () => {
      expect(served.peak.get(`127.0.0.1:${served.port}`)).toBe(2);
    });

    it('writes records/sources.jsonl: one record per source, the day and the counts', () => {
      const read = readSourcesFile(readFileSync(path.join(dir, SOURCES_PATH), 'utf8'));
      expect(read.problems).toEqual([]);
      expect(read.layout).toEqual([]);
      const urls = new Set(claims.filter((c) => !c.deleted_at).map((c) => c.source.url));
      expect(read.sources.map((r) => r.record.url).sort()).toEqual([...urls].sort());
      const at = (suffix: string) => read.sources.find((r) => r.record.url.endsWith(suffix))!.record;
      expect(at('/t/markup')).toMatchObject({ checked: '2026-12-05', status: 'changed', claims: { unchanged: 1, edited: 0, gone: 2 } });
      expect(at('/t/busy')).toMatchObject({ checked: '2026-12-05', status: 'unchanged', claims: { unchanged: 1, edited: 0, gone: 0 } });
      // Unreachable: the day stays the last one it was read (here, its claims' accessed day).
      expect(at('/t/404')).toMatchObject({ status: 'unreachable', checked: claim().source.accessed });
    });

    it('writes a Markdown report per model: word diffs, gone claims, reasons, and page text escaped', () => {
      const report = readFileSync(path.join(dir, 'report.md'), 'utf8');
      expect(report).toMatch(/^# Recheck of 2026-12-05\n/);
      expect(report).toContain('## Qwen-Test');
      expect(report).toContain('~~GRPO~~ **DAPO**');
      expect(report).toContain('**gone**');
      expect(report).toContain('Not read: HTTP 404');
      expect(report).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(report).not.toContain('<img');
    });
  });

  suite('survey recheck refuses', () => {
    it('an invalid dataset (exit 1, nothing fetched) and a bad command line (exit 2)', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'survey-recheck-bad-'));
      mkdirSync(path.join(dir, 'records', 'claims'), { recursive: true });
      writeFileSync(path.join(dir, 'records', 'claims', 'x.jsonl'), '{"schema":"rl-survey.claim/1"}\n');
      const bad = await runSurvey(dir, 'recheck', '.');
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(/records\/claims\/x\.jsonl:1: /);
      expect(bad.stderr).toMatch(/nothing was rechecked/);
      expect((await runSurvey(dir, 'recheck', '.', '--today', 'yesterday')).code).toBe(2);
      expect((await runSurvey(dir, 'recheck', '.', '--timeout', '0')).code).toBe(2);
      expect((await runSurvey(dir, 'recheck')).code).toBe(2);
    });
  });
} else {
  suite('survey recheck (corpus absent)', () => {
    it('is skipped with a note: the revisions corpus is not beside the checkout', () => {
      expect(haveRevisions()).toBe(false);
    });
  });
}
