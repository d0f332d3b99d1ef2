/**
 * What the browser-neutral scenarios (tests/e2e/scenarios) need from a
 * browser running the built extension, and the in-page functions both
 * drivers run. Chromium's driver is `chromiumDriver` in ./harness.ts
 * (playwright-core over the DevTools protocol); Firefox's is `firefoxDriver`
 * in ./firefox.ts (puppeteer-core over WebDriver BiDi).
 *
 * Selectors are CSS; `a >>> b` finds `b` inside the open shadow root of `a`
 * (our capture UI lives in the shadow root of `recipe-lens-ui`, see `inUi`).
 */

/** A file the browser downloaded. */
export interface DownloadedFile {
  /** The name the page gave it. */
  fileName: string;
  bytes: Buffer;
  text: string;
}

/** One tab, web page or extension page, as the scenarios drive it. */
export interface ScenarioPage {
  /** Navigates and waits for the load event. */
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  close(): Promise<void>;
  /** Runs `fn(arg)` in the page's own world (what the page's scripts see) and returns its JSON result. */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Runs `fn(arg)` in a world of the test's own: the page's overridden built-ins are not seen there. */
  inspect<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Clicks the element (waiting until it is there and can be clicked). */
  click(selector: string): Promise<void>;
  /** Types `value` into a text field, replacing what it held. */
  fill(selector: string, value: string): Promise<void>;
  /** Chooses an option of a select element by value. */
  selectOption(selector: string, value: string): Promise<void>;
  /** A form field's current value. */
  value(selector: string): Promise<string>;
  /** An element's text content. */
  text(selector: string): Promise<string>;
  /** How many elements match. */
  count(selector: string): Promise<number>;
  /** Waits until an element is attached (or, with `detached`, gone). */
  waitFor(selector: string, options?: { state?: 'attached' | 'detached'; timeout?: number }): Promise<void>;
  /** Gives files (paths on disk) to a file input. */
  setInputFiles(selector: string, files: string[]): Promise<void>;
  /** Clicks what starts a download and returns the downloaded file. */
  download(selector: string): Promise<DownloadedFile>;
  /** Presses a key (Playwright/puppeteer key names: `Escape`, `Enter`). */
  press(key: string): Promise<void>;
  /** Selects an element's text with the mouse, as a curator drags across it (no script in the page involved). */
  dragAcross(selector: string): Promise<void>;
  /** Moves the mouse to a point of the viewport (trusted input), as a curator resting the pointer there. */
  mouseAt(x: number, y: number): Promise<void>;
}

/** A browser with the built extension installed, as the scenarios see it. */
export interface ExtensionDriver {
  /** `chromium` or `firefox`. */
  readonly name: 'chromium' | 'firefox';
  /** A new tab (pages at http://fixtures.test/ and http://local.test/ are served by the test process). */
  newPage(): Promise<ScenarioPage>;
  /** A new tab showing one of the extension's own pages (`options.html`, `sidepanel.html?window=1`). */
  openExtensionPage(pathAndQuery: string): Promise<ScenarioPage>;
  /** Every claim in the extension's store, read from its IndexedDB. */
  storedClaims(): Promise<Array<Record<string, any>>>;
  /** The toolbar badge of the tab showing `url`. */
  badgeFor(url: string): Promise<string>;
  /**
   * The models the evidence panel's survey lists, read from the panel where this browser shows it:
   * Firefox's sidebar (`sidebar_action`), Chrome's side panel page (in a window of its own, since a
   * test cannot open the side panel without a user gesture). Waits until at least `atLeast` rows show.
   */
  panelModels(atLeast: number): Promise<string[]>;
  /** Replaces a served page's HTML (an edited variant); null restores the original. */
  override(url: string, html: string | null): void;
  close(): Promise<void>;
}

/** A selector inside our capture UI: its frames on a web page, its shadow root in the PDF viewer (each driver resolves it). */
export function inUi(selector: string): string {
  return `recipe-lens-ui >>> ${selector}`;
}

/** The names of the highlights that paint claims (one per kind). */
export const CLAIM_HIGHLIGHTS = '^recipe-lens-(stage|algorithm|framework|reward|system|intention|undisclosed)$';

/**
 * In the page: the painted passages per highlight name (read from CSS.highlights), white space squashed.
 * Uses no Array method (a hostile page may have replaced them) and no iterator (Firefox's Xray wrappers
 * around the page's objects, as a sandbox sees them, do not iterate): `forEach` only.
 */
export function paintedInPage(pattern: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const names = new RegExp(pattern);
  CSS.highlights.forEach((highlight, name) => {
    if (!names.test(name)) return;
    const texts: string[] = [];
    highlight.forEach((range) => {
      texts[texts.length] = (range as Range).toString().replace(/\s+/g, ' ').trim();
    });
    out[name] = texts;
  });
  return out;
}

/**
 * In the page: selects the first occurrence of `needle` (white space squashed) among the visible text, as a drag
 * would, scrolled into view. False when the text is not on the page. A script's selection is not the curator's:
 * the caller then presses Shift (trusted input), which is how a keyboard selection ends.
 */
export function selectTextInPage(needle: string): boolean {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  const starts: number[] = [];
  let all = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    // Only text a curator can see: not the source of the page's scripts and styles.
    if (n.parentElement?.closest('script, style, noscript, template')) continue;
    nodes.push(n as Text);
    starts.push(all.length);
    all += (n as Text).data;
  }
  const squashed: number[] = [];
  let flat = '';
  for (let i = 0; i < all.length; i++) {
    const ch = /\s/.test(all[i]!) ? ' ' : all[i]!;
    if (ch === ' ' && flat.endsWith(' ')) continue;
    squashed.push(i);
    flat += ch;
  }
  const at = flat.indexOf(needle);
  if (at < 0) return false;
  const locate = (raw: number) => {
    let k = starts.length - 1;
    while (k > 0 && starts[k]! > raw) k--;
    return { node: nodes[k]!, offset: raw - starts[k]! };
  };
  const a = locate(squashed[at]!);
  const b = locate(squashed[at + needle.length - 1]! + 1);
  (a.node.parentElement ?? document.body).scrollIntoView({ block: 'center' });
  const range = document.createRange();
  range.setStart(a.node, a.offset);
  range.setEnd(b.node, b.offset);
  const selection = getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}

/** In an extension page or the background: every claim the curator has, read straight from IndexedDB (either layout; never creating the database); tombstones of deleted claims are left out. */
export function readClaimsInExtension(): Promise<Array<Record<string, any>>> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('recipe-lens');
    let created = false;
    open.onupgradeneeded = () => {
      created = true;
      open.transaction?.abort();
    };
    open.onerror = () => (created ? resolve([]) : reject(open.error));
    open.onsuccess = () => {
      const db = open.result;
      // Version 7 on: a page's claims in one value of `pages`; before it, one value per claim in `claims`.
      const name = ['pages', 'claims'].find((n) => db.objectStoreNames.contains(n));
      if (!name) {
        db.close();
        resolve([]);
        return;
      }
      const req = db.transaction(name).objectStore(name).getAll();
      req.onsuccess = () => {
        db.close();
        const claims = name === 'pages' ? req.result.flatMap((p: { claims: Array<Record<string, any>> }) => p.claims) : req.result;
        resolve(claims.filter((c: { deleted_at?: string }) => !c.deleted_at));
      };
      req.onerror = () => reject(req.error);
    };
  });
}

/** In an extension page or the background: the badge text of the tab showing `url` (`<no tab>` when none does). */
export async function badgeInExtension(url: string): Promise<string> {
  const g = globalThis as any;
  const api = g.browser ?? g.chrome;
  const tabs: Array<{ id?: number; url?: string }> = await api.tabs.query({});
  const tab = tabs.find((t) => t.url === url);
  if (!tab?.id) return '<no tab>';
  return api.action.getBadgeText({ tabId: tab.id });
}

/** Normalises white space the way the tests compare passages. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Options for `expect.poll` in the scenarios: generous, since the machine running them may be busy (no timing is asserted). */
export const SLOW = { timeout: 15_000, interval: 100 } as const;
