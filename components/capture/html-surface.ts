/**
 * A web page as a document surface: its normalised URL and detected source,
 * one text index of the rendered text (built in slices, kept while the DOM
 * holds still; anchoring, describing and the finder read the same one),
 * anchoring that is done again when the DOM changed under it, and a "stale"
 * signal when late content arrives. An anchor is a live Range.
 */
import { anchorAllAsync, buildTextIndexAsync, describe, offsetsOfRange, rangeFromOffsets, type TextIndex } from '../../lib/anchoring';
import type { Passage } from '../../lib/capture/draft';
import type { DocumentKey } from '../../lib/messages';
import type { ClaimRecord } from '../../lib/schema';
import { pageAddress } from '../../lib/source/url';
import type { Anchoring, Captured, DecidedAddress, DocumentFacts, DocumentSurface, Stale, TextView } from './surface';

/** Late content is looked at once the page has been quiet this long. */
const MUTATION_DEBOUNCE_MS = 300;
/** Anchoring runs again when the DOM changed under it, at most this many times (the last keeps what it found). */
const ANCHOR_ATTEMPTS = 3;

/** Watches `root` for changes until `stop()`, which says whether any happened. */
function watchForChanges(root: Node): { stop(): boolean } {
  let changed = false;
  const observer = new MutationObserver(() => (changed = true));
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  return {
    stop() {
      if (observer.takeRecords().length) changed = true;
      observer.disconnect();
      return changed;
    },
  };
}

/**
 * The page's text index, built in slices, kept while the page's DOM does not
 * change. A change is noticed synchronously (`takeRecords`), so a stale index
 * is never handed out.
 */
class IndexCache {
  private index: TextIndex | null = null;
  private observer: MutationObserver | null = null;
  /** Whether a built index is kept at all (a page only painted does not keep its text: it pays for it once per pass). */
  keeping = true;

  /** The index of `root`: the kept one while nothing changed, else a new one (kept when the DOM held still while it was built). */
  async get(root: Document | Element, signal?: AbortSignal): Promise<TextIndex> {
    if (this.index && this.index.root === root && !this.observer?.takeRecords().length) return this.index;
    this.drop();
    const moved = watchForChanges(root);
    const index = await buildTextIndexAsync(root, { signal });
    if (!moved.stop() && this.keeping) this.keep(root, index);
    return index;
  }

  /** Forgets the kept index. */
  drop(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.index = null;
  }

  private keep(root: Node, index: TextIndex): void {
    this.index = index;
    this.observer = new MutationObserver(() => this.drop());
    this.observer.observe(root, { childList: true, subtree: true, characterData: true });
  }
}

/** A range over the page's main heading (the first h1, else the first heading, else the first paragraph). */
function headingRange(root: Element): Range | null {
  for (const selector of ['h1', 'h1, h2, h3', 'p']) {
    for (const el of root.querySelectorAll(selector)) {
      if (!el.textContent?.trim() || (el as HTMLElement).closest('[hidden], script, style, template')) continue;
      const range = root.ownerDocument.createRange();
      range.selectNodeContents(el);
      return range;
    }
  }
  return null;
}

/** A web page as the capture controller sees it. */
export class HtmlSurface implements DocumentSurface<Range> {
  private readonly cache = new IndexCache();
  private readFacts: ((doc: Document, decided: DecidedAddress) => DocumentFacts) | null = null;
  /** The address the background decided for this page (with its site), and the page's own address it was asked from. */
  private decided: { asked: string; url: string; site: string | null } | null = null;

  /** @param ours the element hosting Recipe Lens's own UI (its changes are not the page's). */
  constructor(
    private readonly doc: Document = document,
    private ours: () => Node | null = () => null,
  ) {}

  /** Names the element hosting Recipe Lens's own UI (the capture script took this surface over from the painting). */
  setUiHost(ours: () => Node | null): void {
    this.ours = ours;
  }

  /**
   * Whether the page's text index is kept between uses while the DOM holds still (the capture script describes
   * selections and runs the finder over it), or built for each anchoring pass and let go (a page only painted keeps
   * nothing but its ranges).
   */
  keepText(keep: boolean): void {
    this.cache.keeping = keep;
    if (!keep) this.cache.drop();
  }

  private root(): Element {
    return this.doc.body ?? this.doc.documentElement;
  }

  /**
   * The page's key: the address the background answered for (the browser's, or a same-site canonical) while the page
   * is still at the address it asked from, else the page's own address; with the canonical link it offers.
   */
  key(): DocumentKey {
    const { url, canonical } = pageAddress(this.doc);
    return { url: this.decided?.asked === url ? this.decided.url : url, canonical };
  }

  /** Takes the address the background answered a lookup for (and its site), as this page's while it stays where it is now. */
  adoptAddress(url: string | null | undefined, site?: string | null): void {
    if (url) this.decided = { asked: pageAddress(this.doc).url, url, site: site ?? null };
  }

  /** What the page says about itself, read by the detector given with `readFactsWith` (the capture script's). */
  facts(): DocumentFacts {
    if (!this.readFacts) throw new Error('HtmlSurface: no source detector given (readFactsWith)');
    const own = pageAddress(this.doc).url;
    return this.readFacts(this.doc, this.decided?.asked === own ? this.decided : { url: own, site: null });
  }

  /**
   * Gives the surface its source detector. It is passed in rather than imported, so that the painting script, which
   * never asks what a page is, does not carry the detector (`page-facts.ts`).
   */
  readFactsWith(read: (doc: Document, decided: DecidedAddress) => DocumentFacts): void {
    this.readFacts = read;
  }

  unaddressed(): null {
    return null;
  }

  ready(): Promise<void> {
    return Promise.resolve();
  }

  canCapture(): boolean {
    return true;
  }

  async describe(range: Range): Promise<Captured<Range> | null> {
    return { passage: await this.passageOf(range), anchor: range };
  }

  async describeAnchor(range: Range): Promise<Passage | null> {
    return this.isLive(range) ? this.passageOf(range) : null;
  }

  /** Anchors claims over one text index; a run the DOM changed under is done again, so no range is built from text that moved. */
  async anchorAll(claims: readonly ClaimRecord[], signal: AbortSignal): Promise<Array<Anchoring<Range>>> {
    if (!claims.length) return [];
    const root = this.root();
    const selectors = claims.map((c) => ({ quote: c.quote, position: c.position ?? null }));
    for (let attempt = 1; ; attempt++) {
      const moved = watchForChanges(root);
      let found: Awaited<ReturnType<typeof anchorAllAsync>>;
      try {
        const index = await this.cache.get(root, signal);
        found = await anchorAllAsync(root, selectors, { index, signal });
      } catch (error) {
        moved.stop();
        throw error;
      }
      // The DOM changed under the run: its ranges may point at text that moved. The last attempt keeps what it found.
      if (!moved.stop() || attempt >= ANCHOR_ATTEMPTS) {
        return found.map((r) => (r.status === 'anchored' ? { status: 'anchored', anchor: r.range, exact: r.exact, text: r.text } : { status: 'orphan' }));
      }
    }
  }

  ranges(range: Range): Range[] {
    return this.isLive(range) ? [range] : [];
  }

  isLive(range: Range): boolean {
    return !range.collapsed && range.startContainer.isConnected && range.endContainer.isConnected;
  }

  compare(a: Range, b: Range): number {
    return a.compareBoundaryPoints(Range.START_TO_START, b);
  }

  async reveal(range: Range): Promise<Range | null> {
    if (!this.isLive(range)) return null;
    const node = range.startContainer;
    (node instanceof Element ? node : node.parentElement)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    return range;
  }

  async textView(): Promise<TextView<Range>> {
    const index = await this.cache.get(this.root());
    return {
      text: index.text,
      place: (start, end) => rangeFromOffsets(index, start, end),
      offsets: (range) => (this.isLive(range) ? offsetsOfRange(range, index) : null),
    };
  }

  async headline(): Promise<Range | null> {
    return headingRange(this.root());
  }

  stamp(claim: ClaimRecord): ClaimRecord {
    return claim;
  }

  /** Late content: a debounced look once the page is quiet (changes inside Recipe Lens's own UI do not count). */
  watch(listener: (change: Stale<Range>) => void): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new MutationObserver((records) => {
      const host = this.ours();
      if (host && records.every((r) => host === r.target || host.contains(r.target) || [...r.addedNodes, ...r.removedNodes].every((n) => n === host))) return;
      clearTimeout(timer);
      timer = setTimeout(() => listener({ kind: 'text' }), MUTATION_DEBOUNCE_MS);
    });
    observer.observe(this.root(), { childList: true, subtree: true, characterData: true });
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }

  /** Forgets the kept text index (the script is stopping). */
  destroy(): void {
    this.cache.drop();
  }

  private async passageOf(range: Range): Promise<Passage> {
    const root = this.root();
    const { quote, position } = describe(range, root, await this.cache.get(root));
    return { quote, position };
  }
}
