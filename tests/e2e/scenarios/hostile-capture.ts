/**
 * A hostile page while a real curator works (issue 24), as a scenario for both browsers. The page's own script
 * polls for our UI's root and any element of it, tries to read our frames and hand them a port, fires synthetic
 * clicks and keys at the UI and the document, selects its own bait text, sets field values the way the issue's
 * attack did, logs every key the window sees, and names a neighbour on a shared public suffix as its canonical
 * address. The curator selects, types and saves with trusted input only (the automation protocol's keyboard and
 * mouse). Nothing is stored that the curator did not type and save, the page reads no claim data, and the claim
 * is filed under the page's own address.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { testClaim } from '../control';
import { SLOW, inUi, type ExtensionDriver, type ScenarioPage } from '../driver';
import { formField, importThroughOptions, openFormFromToolbar, paintedTexts, selectText, waitForPainted } from './steps';

/** The passage the curator tags, the page's own bait, and a passage a neighbour site has a claim on. */
const TARGET = 'Hostile-Capture was post-trained with GRPO on verifiable math rewards.';
const BAIT = 'This bait sentence mentions PPO and a learned reward model.';
const SHARED = 'Neighbour passage: the model was trained with DAPO at scale.';
/** What the curator types: none of it may reach the page, and only it may be stored. */
const TYPED = { model: 'Curator-Model-7f3a', value: 'GRPO', note: 'Curator-typed note 9c1e' };

/** Pairs of sites under one public suffix: the first page names the second as its canonical address. */
export const NEIGHBOURS = [
  { page: 'http://a.github.io/model-card', neighbour: 'http://b.github.io/model-card' },
  { page: 'http://a.readthedocs.io/en/latest/rl.html', neighbour: 'http://b.readthedocs.io/en/latest/rl.html' },
] as const;

/** The page's attack, run in its own world from the start (a string: it is the page's script, not ours). */
const ATTACK = `
(() => {
  const log = { hosts: 0, openRoots: 0, elements: [], frameReads: [], keys: [], texts: [], highlights: [], synthetic: 0, forged: 0 };
  window.__attack = log;
  const typed = ${JSON.stringify(Object.values(TYPED).filter((v) => v !== 'GRPO'))};
  for (const type of ['keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'paste', 'compositionend']) {
    addEventListener(type, (e) => e.isTrusted && log.keys.push(type + ':' + (e.key ?? e.data ?? '')), true);
  }
  const setter = (el, value) => {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  };
  // What the issue's attack did through an open root: rewrite the form and save it, click Tag, read the card.
  const drive = (root) => {
    for (const [name, value] of [['model', 'FORGED-MODEL'], ['value', 'FORGED-VALUE'], ['note', 'written by the page'], ['evidence', 'A']]) {
      const field = root.querySelector('[name=' + name + ']');
      if (field) setter(field, value);
    }
    root.querySelector('[data-testid=form-save]')?.click();
    root.querySelector('[data-testid=toolbar-tag]')?.click();
    const card = root.querySelector('[data-testid=claim-card]');
    if (card) log.texts.push('card:' + card.textContent);
  };
  // The page selects its own bait and pretends the curator ended the selection.
  const bait = document.getElementById('bait');
  const range = document.createRange();
  range.selectNodeContents(bait);
  getSelection().removeAllRanges();
  getSelection().addRange(range);
  let round = 0;
  setInterval(() => {
    round++;
    const host = document.querySelector('recipe-lens-ui');
    if (host) {
      log.hosts++;
      if (host.shadowRoot) { log.openRoots++; drive(host.shadowRoot); }
      for (const el of host.querySelectorAll('*')) log.elements.push('light:' + el.tagName);
      host.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
      host.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true, composed: true }));
      try { host.focus(); } catch {}
    }
    for (const el of document.querySelectorAll('iframe, [data-testid], .rl-root, .rl-toolbar, .rl-form, .rl-card')) log.elements.push(el.tagName + ':' + (el.getAttribute('data-testid') || el.className));
    for (let i = 0; i < frames.length; i++) {
      const w = frames[i];
      try { log.frameReads.push('document:' + w.document.documentElement.outerHTML.slice(0, 200)); } catch {}
      try { log.frameReads.push('href:' + w.location.href); } catch {}
      try { log.frameReads.push('name:' + w.name); } catch {}
      try {
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => log.frameReads.push('heard:' + JSON.stringify(e.data).slice(0, 200));
        w.postMessage({ 'recipe-lens-ui': '', type: 'act', id: 1, action: 'save', args: [{ model: 'FORGED-MODEL' }] }, '*', [channel.port2]);
        w.postMessage({ type: 'act', id: 2, action: 'openForm', args: [] }, '*');
        log.forged++;
      } catch {}
    }
    // Synthetic input aimed at the document: the curator's shortcuts and the end of a selection.
    if (round % 4 === 0) {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'C', code: 'KeyC', altKey: true, shiftKey: true, bubbles: true }));
      document.dispatchEvent(new KeyboardEvent('keyup', { key: 'Shift', shiftKey: true, bubbles: true }));
      document.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
      bait.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      log.synthetic++;
    }
    const text = document.documentElement.innerText;
    for (const t of typed) if (text.includes(t)) log.texts.push('page text:' + t);
    if (globalThis.CSS && CSS.highlights) CSS.highlights.forEach((_h, name) => { if (!log.highlights.includes(name)) log.highlights.push(name); });
  }, 25);
})();
`;

/** The hostile page at `url`, naming `canonical` as its canonical address. */
export function attackPage(canonical: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile-Capture model card</title>
<link rel="canonical" href="${canonical}"></head><body>
<main><h1>Hostile-Capture model card</h1>
<p id="target">${TARGET}</p>
<p id="bait">${BAIT}</p>
<p id="shared">${SHARED}</p>
<p>Padding text so the page reads like a model card, with a training section and an evaluation section.</p>
</main><script>${ATTACK}</script></body></html>`;
}

/** What the page's script gathered. */
interface AttackLog {
  hosts: number;
  openRoots: number;
  elements: string[];
  frameReads: string[];
  keys: string[];
  texts: string[];
  highlights: string[];
  synthetic: number;
  forged: number;
}

function attackLog(page: ScenarioPage): Promise<AttackLog> {
  return page.evaluate(() => (window as unknown as { __attack: AttackLog }).__attack, null);
}

/** Stores a neighbour's claim on the shared passage, through the options page as a curator imports. */
async function storeNeighbourClaims(driver: ExtensionDriver): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-neighbours-'));
  const file = path.join(dir, 'neighbours.jsonl');
  const lines = NEIGHBOURS.map(({ neighbour }, i) =>
    JSON.stringify(testClaim(`clm_neighbour_00${i}`, neighbour, { model: 'Neighbour-Model', value: 'DAPO', quote: { exact: SHARED, prefix: '', suffix: '' } })),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const options = await driver.openExtensionPage('options.html');
  await importThroughOptions(options, [file]);
  await options.close();
  const stored = await driver.storedClaims();
  expect(
    stored
      .filter((c) => c.model === 'Neighbour-Model')
      .map((c) => c.source.url)
      .sort(),
  ).toEqual(NEIGHBOURS.map((n) => n.neighbour).sort());
}

/** The whole attack on each pair of neighbours; returns the page's logs for the closing note. */
export async function hostilePageWhileCurating(driver: ExtensionDriver): Promise<AttackLog[]> {
  await storeNeighbourClaims(driver);
  const logs: AttackLog[] = [];
  for (const { page: url, neighbour } of NEIGHBOURS) {
    driver.override(url, attackPage(neighbour));
    const page = await driver.newPage();
    await page.goto(url);
    // The neighbour's claim is not painted here, though its passage is on this page too.
    await new Promise((r) => setTimeout(r, 800));
    expect(await paintedTexts(page)).toEqual([]);
    expect((await attackLog(page)).synthetic).toBeGreaterThan(3);
    // The page's own selection and its synthetic events bring no toolbar.
    expect(await page.count(inUi('[data-testid=toolbar-tag]'))).toBe(0);

    // The curator: selects, tags, types and saves with trusted input while the page keeps attacking.
    await selectText(page, TARGET);
    await openFormFromToolbar(page);
    await page.fill(formField('model'), TYPED.model);
    await page.fill(formField('value'), TYPED.value);
    await page.fill(formField('note'), TYPED.note);
    await new Promise((r) => setTimeout(r, 300));
    // What the form shows is what the curator typed, whatever the page did meanwhile.
    expect(await page.value(formField('model'))).toBe(TYPED.model);
    expect(await page.value(formField('note'))).toBe(TYPED.note);
    await page.click(inUi('[data-testid=form-save]'));
    await page.waitFor(inUi('[data-testid=claim-form]'), { state: 'detached', timeout: 15_000 });
    await waitForPainted(page, 1);

    // The curator rests the pointer on the passage: the card shows the claim, to the curator only.
    const box = await page.inspect((text) => {
      const el = [...document.querySelectorAll('p')].find((p) => p.textContent === text)!;
      const r = el.getBoundingClientRect();
      return { x: r.left + 20, y: r.top + r.height / 2 };
    }, TARGET);
    await page.mouseAt(box.x, box.y);
    await expect.poll(() => page.count(inUi('[data-testid=claim-card]')), SLOW).toBeGreaterThan(0);
    expect(await page.text(inUi('[data-testid=claim-card]'))).toContain(TYPED.model);
    await new Promise((r) => setTimeout(r, 500));

    // Stored: exactly what the curator typed, under the page's own address; nothing forged anywhere.
    const stored = await driver.storedClaims();
    const mine = stored.filter((c) => c.quote?.exact === TARGET && c.model === TYPED.model);
    // One claim per page the curator tagged so far, each under that page's own address.
    expect(mine.map((c) => c.source.url).sort()).toEqual(
      NEIGHBOURS.slice(0, logs.length + 1)
        .map((n) => n.page)
        .sort(),
    );
    expect(mine.find((c) => c.source.url === url)).toMatchObject({ model: TYPED.model, value: TYPED.value, note: TYPED.note });
    expect(stored.filter((c) => c.source?.url === neighbour).map((c) => c.model)).toEqual(['Neighbour-Model']);
    expect(JSON.stringify(stored)).not.toMatch(/FORGED|written by the page/);
    // Painted here: the curator's passage only, not the neighbour's.
    expect(await paintedTexts(page)).toEqual([TARGET]);

    // A passage inside the tagged one, selected while the pointer rests on the painted passage: the selection wins,
    // its toolbar is in reach (no card over it), and the overlapping claim is saved.
    await selectText(page, 'GRPO');
    await page.mouseAt(box.x + 2, box.y);
    await new Promise((r) => setTimeout(r, 700));
    expect(await page.count(inUi('[data-testid=claim-card]'))).toBe(0);
    await openFormFromToolbar(page);
    await page.fill(formField('model'), TYPED.model);
    await page.click(inUi('[data-testid=form-save]'));
    await page.waitFor(inUi('[data-testid=claim-form]'), { state: 'detached', timeout: 15_000 });
    await expect.poll(async () => (await paintedTexts(page)).sort(), SLOW).toEqual(['GRPO', TARGET].sort());

    // What the page learned: our element exists and is closed; none of its parts, frames' contents, the curator's keys or text.
    const log = await attackLog(page);
    expect(log.hosts).toBeGreaterThan(0);
    expect(log.openRoots).toBe(0);
    expect(log.elements).toEqual([]);
    expect(log.frameReads).toEqual([]);
    expect(log.texts).toEqual([]);
    // The window heard the curator's Shift on the page, and not one key typed into the form.
    const letters = new Set([...`${TYPED.model}${TYPED.note}`].filter((ch) => /[a-z0-9]/i.test(ch)));
    expect(log.keys.filter((k) => letters.has(k.split(':')[1]!))).toEqual([]);
    logs.push(log);
    await page.close();
  }
  return logs;
}
