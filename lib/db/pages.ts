/**
 * The claims store's layout (database version 7): a page's claims in one
 * value, keyed by the page's URL (`source.url`, a PDF's address likewise),
 * with multi-entry indexes over the claim ids (tombstones included), and over
 * the models, PDF fingerprints and arXiv ids of the live claims. The page
 * lookup is one read by key; an import writes one value per page instead of
 * one per claim (the browser's cost of a put is per value, whatever its size).
 *
 * `PageGroups` works on the raw store of one open transaction: it loads the
 * pages a write needs (a read per wanted key, or the whole store at once when
 * that is cheaper), changes them in memory and writes each changed page once.
 */
import { isTombstone } from '../survey/tombstones';
import type { ClaimRecord } from '../schema';
import type { StoredPage } from './schema';

/** The name of the store of pages. */
export const PAGES = 'pages';

function byId(a: ClaimRecord, b: ClaimRecord): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The stored value of a page holding these claims (sorted by id; index keys from the live ones). */
export function pageValue(url: string, claims: Iterable<ClaimRecord>): StoredPage {
  const list = [...claims].sort(byId);
  const models = new Set<string>();
  const fingerprints = new Set<string>();
  const arxiv = new Set<string>();
  for (const claim of list) {
    if (isTombstone(claim)) continue;
    models.add(claim.model);
    if (claim.pdf?.fingerprint) fingerprints.add(claim.pdf.fingerprint);
    if (claim.pdf?.arxiv) arxiv.add(claim.pdf.arxiv);
  }
  return { url, claims: list, ids: list.map((c) => c.id), models: [...models], fingerprints: [...fingerprints], arxiv: [...arxiv] };
}

/** Groups claims into page values by `source.url` (a later claim with an id seen before replaces it). */
export function groupPages(claims: Iterable<ClaimRecord>): StoredPage[] {
  const byUrl = new Map<string, Map<string, ClaimRecord>>();
  for (const claim of claims) {
    let page = byUrl.get(claim.source.url);
    if (!page) byUrl.set(claim.source.url, (page = new Map()));
    page.set(claim.id, claim);
  }
  return [...byUrl].map(([url, page]) => pageValue(url, page.values()));
}

/** Every claim of these pages, sorted by id (the order of the store of one value per claim). */
export function claimsOfPages(pages: readonly StoredPage[]): ClaimRecord[] {
  const out: ClaimRecord[] = [];
  for (const page of pages) for (const claim of page.claims) out.push(claim);
  return out.sort(byId);
}

/** A raw IndexedDB request as a promise. */
export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The pages of one transaction that a read or write needs, loaded on demand and written back once each. */
export class PageGroups {
  /** Loaded pages by URL (a map of claims by id), or null for a URL known to hold none. */
  private readonly pages = new Map<string, Map<string, ClaimRecord> | null>();
  /** The URL of the loaded page holding each claim id. */
  private readonly owner = new Map<string, string>();
  /** Claim ids looked up and not found. */
  private readonly absent = new Set<string>();
  private readonly dirty = new Set<string>();
  /** The addresses of the pages written so far, and whether any page was deleted (or the store cleared). */
  private readonly written = new Set<string>();
  private deleted = false;
  private everything = false;
  private total: number | null = null;

  /** `store` is the raw pages store of an open transaction (readwrite to write). */
  constructor(private readonly store: IDBObjectStore) {}

  private remember(page: StoredPage): void {
    if (this.pages.get(page.url)) return;
    this.pages.set(page.url, new Map(page.claims.map((c) => [c.id, c])));
    for (const id of page.ids) this.owner.set(id, page.url);
  }

  /** Loads every page (once). */
  async loadAll(): Promise<void> {
    if (this.everything) return;
    for (const page of (await request(this.store.getAll())) as StoredPage[]) this.remember(page);
    this.everything = true;
  }

  /** Loads the pages holding these claim ids and the pages at these URLs: a read each, or all at once when that is cheaper. */
  async load(ids: Iterable<string>, urls: Iterable<string> = []): Promise<void> {
    if (this.everything) return;
    const wantIds = [...new Set(ids)].filter((id) => !this.owner.has(id) && !this.absent.has(id));
    const wantUrls = [...new Set(urls)].filter((url) => !this.pages.has(url));
    if (!wantIds.length && !wantUrls.length) return;
    this.total ??= await request(this.store.count());
    if (this.total === 0) {
      this.everything = true;
      return;
    }
    if ((wantIds.length + wantUrls.length) * 4 >= this.total) return this.loadAll();
    const index = this.store.index('by-id');
    const [byId, byUrl] = await Promise.all([
      Promise.all(wantIds.map((id) => request(index.get(id)) as Promise<StoredPage | undefined>)),
      Promise.all(wantUrls.map((url) => request(this.store.get(url)) as Promise<StoredPage | undefined>)),
    ]);
    for (const page of [...byId, ...byUrl]) if (page) this.remember(page);
    for (const url of wantUrls) if (!this.pages.has(url)) this.pages.set(url, null);
    for (const id of wantIds) if (!this.owner.has(id)) this.absent.add(id);
  }

  /** The loaded claim with this id (tombstones included). */
  claim(id: string): ClaimRecord | undefined {
    const url = this.owner.get(id);
    return url === undefined ? undefined : (this.pages.get(url)?.get(id) ?? undefined);
  }

  /** The claims of the loaded page at this URL (tombstones included). */
  claimsAt(url: string): ClaimRecord[] {
    return [...(this.pages.get(url)?.values() ?? [])];
  }

  /** Puts claims, each replacing the claim with its id wherever it was; `flush` writes the changed pages. */
  async put(claims: readonly ClaimRecord[]): Promise<void> {
    if (!claims.length) return;
    // One value per claim refused a claim without a usable key; a page's value must refuse it too (the write then aborts).
    for (const claim of claims) {
      if (typeof claim.id !== 'string' || !claim.id || typeof claim.source?.url !== 'string' || !claim.source.url) {
        throw new DOMException(`A claim without an id or a page URL cannot be stored (${String(claim.id)}).`, 'DataError');
      }
    }
    await this.load(
      claims.map((c) => c.id),
      claims.map((c) => c.source.url),
    );
    for (const claim of claims) {
      const to = claim.source.url;
      const from = this.owner.get(claim.id);
      if (from !== undefined && from !== to) {
        this.pages.get(from)?.delete(claim.id);
        this.dirty.add(from);
      }
      let page = this.pages.get(to);
      if (!page) this.pages.set(to, (page = new Map()));
      page.set(claim.id, claim);
      this.owner.set(claim.id, to);
      this.absent.delete(claim.id);
      this.dirty.add(to);
    }
  }

  /** Removes every page, in the store and here. */
  clear(): void {
    this.store.clear();
    this.deleted = true;
    this.pages.clear();
    this.owner.clear();
    this.absent.clear();
    this.dirty.clear();
    this.everything = true;
    this.total = 0;
  }

  /** Writes each changed page once (an emptied page is deleted); no promise per page, a failure aborts the transaction. */
  flush(): void {
    for (const url of this.dirty) {
      const page = this.pages.get(url);
      if (page?.size) {
        this.store.put(pageValue(url, page.values()));
        this.written.add(url);
      } else {
        this.store.delete(url);
        this.deleted = true;
      }
    }
    this.dirty.clear();
  }

  /** The addresses of the pages written through this object when it deleted none (nor cleared the store), else null. */
  addedOnly(): string[] | null {
    return this.deleted ? null : [...this.written];
  }
}
