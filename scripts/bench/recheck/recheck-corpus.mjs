// The `recheck` benchmark's corpus and its one pass over it, shared by the suite (recheck.mjs) and its memory child
// (recheck-memory.mjs): each pair of the public revision corpus (../shared/fixtures/revisions) as one source — its new
// page's HTML and its claims (records.jsonl, by passage id) — rechecked as `survey recheck` does once a page is
// fetched: parsed by linkedom (scripts/survey/parse.ts `parsePage`), then lib/recheck's `recheckPage`. The TypeScript is
// loaded with tsx, as dataset.mjs does.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The content type the pages are read as (what a server of the corpus sends). */
export const CONTENT_TYPE = 'text/html; charset=utf-8';

/** The code under test and the corpus helpers (recheck-code.ts), loaded once with tsx. */
export function loadRecheckCode() {
  return tsImport(path.join(ROOT, 'scripts', 'bench', 'recheck', 'recheck-code.ts'), { parentURL: import.meta.url, tsconfig: false });
}

/**
 * The corpus's sources, one per pair: `{ pair, url, html, claims, selectors }` (`html` as bytes, as fetched), or
 * null when the corpus is not beside the repository.
 */
export function loadRecheckSources(code) {
  if (!code.haveRevisions()) return null;
  const cases = code.loadRevisions();
  const records = new Map(
    readFileSync(path.join(code.REVISIONS, 'records.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line))
      .map((r) => [r.id, r]),
  );
  return cases.pairs.map((pair) => {
    const claims = pair.passages.map((p) => {
      const record = records.get(p.id);
      if (!record) throw new Error(`records.jsonl has no claim ${p.id}`);
      return record;
    });
    const html = readFileSync(path.join(code.REVISIONS, cases.pages[pair.new.page].file));
    return { pair, url: pair.url, html, claims, selectors: claims.map((c) => ({ quote: c.quote, position: c.position })) };
  });
}

/** One source rechecked as the CLI does once it has the page: parsed, then `recheckPage`. */
export function recheckSource(code, source) {
  return code.recheckPage(source.url, code.parsePage(source.html, CONTENT_TYPE), source.claims);
}

/** Every source rechecked once, each verdict judged against its passage's class: `{ judged, tally, candidates }`. */
export function recheckCorpus(code, sources) {
  const judged = [];
  let candidates = 0;
  for (const source of sources) {
    const result = recheckSource(code, source);
    candidates += result.candidates.length;
    const byId = new Map(result.verdicts.map((v) => [v.id, v]));
    for (const passage of source.pair.passages) {
      const verdict = byId.get(passage.id);
      if (!verdict) throw new Error(`no verdict for ${passage.id}`);
      judged.push(code.judgeVerdict(passage, verdict));
    }
  }
  return { judged, tally: code.tallyVerdicts(judged), candidates };
}
