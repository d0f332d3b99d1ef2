/**
 * The sources a recheck reads, served on 127.0.0.1 for the tests: the public revisions corpus's new pages at their
 * URLs, and a page per fault the issue names (`/t/404`, `/t/500`, `/t/away` to another site, `/t/moved` on the same
 * site, `/t/markup` with a script, `/t/hidden`, `/t/busy` answering 503 once, `/t/huge` over 20 MB, `/t/silent`
 * never answering, `/t/report.pdf`); and claims quoting those pages, as a dataset on disk.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { layoutFiles } from '../../lib/dataset';
import type { ClaimRecord } from '../../lib/schema';
import { REVISIONS, type Pair } from '../../scripts/anchoring/corpus';
import { claim } from '../unit/fixtures/records';

/** The running server, and what it saw. */
export interface Served {
  server: Server;
  base: string;
  port: number;
  /** Requests in flight per Host header, at their highest. */
  peak: Map<string, number>;
  /** Requests per path, and Host headers seen. */
  hits: Map<string, number>;
  hosts: Set<string>;
  /** Bytes the huge body had sent when its client went away. */
  hugeSent: number;
}

/** An HTML page with `body` (and `head`). */
export const page = (body: string, head = '') => `<!doctype html><html><head><meta charset="utf-8"><title>t</title>${head}</head><body>${body}</body></html>`;

/** Serves the corpus pairs' new pages at their URLs' paths, the fault pages, and `pdf` at `/t/report.pdf`. */
export async function serve(pairs: readonly Pair[], pages: Record<string, { file: string }>, pdf: Uint8Array): Promise<Served> {
  const byPath = new Map(pairs.map((p) => [new URL(p.url).pathname, path.join(REVISIONS, pages[p.new.page]!.file)]));
  const inFlight = new Map<string, number>();
  const s: Served = { server: null as unknown as Server, base: '', port: 0, peak: new Map(), hits: new Map(), hosts: new Set(), hugeSent: 0 };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const host = req.headers.host ?? '';
    s.hosts.add(host.split(':')[0]!);
    s.hits.set(url.pathname, (s.hits.get(url.pathname) ?? 0) + 1);
    inFlight.set(host, (inFlight.get(host) ?? 0) + 1);
    s.peak.set(host, Math.max(s.peak.get(host) ?? 0, inFlight.get(host)!));
    res.on('close', () => inFlight.set(host, inFlight.get(host)! - 1));
    const html = (body: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    const file = byPath.get(url.pathname);
    // Each corpus page is held a little, so several are in flight at once and the per-host limit is what holds them back.
    if (file) return void setTimeout(() => html(readFileSync(file, 'utf8')), 30);
    switch (url.pathname) {
      case '/t/404':
        return html(page('<p>Not here.</p>'), 404);
      case '/t/500':
        return html(page('<p>Oops.</p>'), 500);
      case '/t/away':
        res.writeHead(302, { location: `http://localhost:${s.port}/t/markup` });
        return void res.end();
      case '/t/moved':
        res.writeHead(301, { location: '/t/markup' });
        return void res.end();
      case '/t/markup':
        return html(
          page(
            '<p>We train with &lt;b&gt;GRPO&lt;/b&gt; written as markup, which stays text in the report.</p>' +
              '<script>document.body.innerHTML = "<p>The policy is optimised with PPO and a learned reward model.</p>"</script>' +
              '<p>Rewards come from unit tests run in a sandbox for every sampled program.</p>',
          ),
        );
      case '/t/hidden':
        return html(
          page(
            '<p>This page says nothing about its training.</p>' +
              '<div hidden><p>Stage two applies GRPO with a KL penalty of zero to all math prompts.</p></div>' +
              '<span aria-hidden="true">The critic is initialised from the reward model before PPO starts.</span>' +
              '<p style="color: red; display:none">Rejection sampling keeps eight answers per prompt for SFT.</p>' +
              '<p class="sneaky">A rule-based reward checks the format of every answer the policy gives.</p>',
            '<style>.visible { color: black } .sneaky { display: none }</style>',
          ),
        );
      case '/t/busy':
        if (s.hits.get(url.pathname) === 1) {
          res.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain' });
          return void res.end('busy');
        }
        return html(page('<p>Rewards come from unit tests run in a sandbox for every sampled program.</p>'));
      case '/t/huge': {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        const chunk = Buffer.alloc(256 * 1024, 'a');
        let sent = 0;
        const pump = () => {
          while (sent < 100 * 1024 * 1024) {
            sent += chunk.length;
            s.hugeSent = sent;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (s.hugeSent = sent));
        return pump();
      }
      case '/t/silent':
        return; // never answers
      case '/t/report.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return void res.end(pdf);
      default:
        return html(page('<p>unknown</p>'), 404);
    }
  };
  s.server = createServer(handle);
  await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
  s.port = (s.server.address() as { port: number }).port;
  s.base = `http://127.0.0.1:${s.port}`;
  return s;
}

/** A claim on `url` quoting `exact` with its context on the captured page. */
export function on(url: string, id: string, exact: string, captured: string, extra: Partial<ClaimRecord> = {}): ClaimRecord {
  const at = captured.indexOf(exact);
  if (at < 0) throw new Error(`not on the captured page: ${exact}`);
  return claim({
    id,
    quote: { exact, prefix: captured.slice(Math.max(0, at - 32), at), suffix: captured.slice(at + exact.length, at + exact.length + 32) },
    position: null,
    source: { ...claim().source, url, title: `test page ${id}`, kind: 'official_blog' },
    ...extra,
  });
}

/** Writes `records` into `dir` in the dataset's layout (records/claims/<slug>.jsonl, records/models.jsonl). */
export function writeRecords(dir: string, records: readonly ClaimRecord[]): void {
  for (const [p, text] of layoutFiles(records)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), text);
  }
}
