// The capture controller, once for every document, tested against a fake document surface and a fake capture API
// (the way Hypothesis tests its Guest against a fake integration): save, retry with the same ids, delete and undo,
// re-attach, toasts, badge counts, stale signals. The real surfaces are covered end to end (tests/e2e).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClaimFormValues, Passage } from '../../../lib/capture/draft';
import type { DocumentClaims, DocumentKey } from '../../../lib/messages';
import type { ClaimRecord, SourceOverride } from '../../../lib/schema';
import { CaptureController } from '../../../components/capture/controller';
import { PaintSession } from '../../../components/capture/paint-session';
import type { CaptureApi, CaptureCall, DocumentFacts, DocumentSurface, Painter, Stale, TextView } from '../../../components/capture/surface';
import { claim, formValues } from '../fixtures/records';
import { type FakeAnswers, fakeCall } from '../../support/fake-call';

const URL_ = 'https://example.org/zeta-2-report';

/** A document whose text is one paragraph; an anchor is the quoted text itself. */
class FakeSurface implements DocumentSurface<string> {
  text = 'In the second stage. Reasoning RL uses GRPO with the KL term removed. Rewards are rule-based.';
  /** Anchors that lost their passage (a page whose content went away). */
  dead = new Set<string>();
  anchorRuns = 0;
  stamped: Array<{ id: string; moved: boolean }> = [];
  /** What the layout tells the finder (a PDF's reference lists to skip, its breaks). */
  hints: TextView<string>['hints'];
  /** The address the document shows (an in-page navigation changes it). */
  url = URL_;
  private listener: ((change: Stale<string>) => void) | null = null;

  key(): DocumentKey {
    return { url: this.url };
  }
  facts(): DocumentFacts {
    return { url: this.url, title: 'Zeta-2 Technical Report', kind: 'technical_report', publisher: 'Zeta Lab', published: '2026-10-01', models: ['Zeta-2'] };
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
  async describe(range: Range): Promise<{ passage: Passage; anchor: string }> {
    const exact = range.toString().trim();
    const start = this.text.indexOf(exact);
    return { passage: { quote: { exact, prefix: '', suffix: '' }, position: { start, end: start + exact.length } }, anchor: exact };
  }
  async describeAnchor(anchor: string): Promise<Passage> {
    const start = this.text.indexOf(anchor);
    return { quote: { exact: anchor, prefix: '', suffix: '' }, position: { start, end: start + anchor.length } };
  }
  async anchorAll(claims: readonly ClaimRecord[]) {
    this.anchorRuns++;
    return claims.map((c) =>
      this.text.includes(c.quote.exact)
        ? { status: 'anchored' as const, anchor: c.quote.exact, exact: true, text: c.quote.exact }
        : { status: 'orphan' as const },
    );
  }
  ranges(anchor: string): Range[] {
    return this.isLive(anchor) ? [document.createRange()] : [];
  }
  isLive(anchor: string): boolean {
    return !this.dead.has(anchor) && this.text.includes(anchor);
  }
  compare(a: string, b: string): number {
    return this.text.indexOf(a) - this.text.indexOf(b);
  }
  async reveal(anchor: string): Promise<Range | null> {
    return this.isLive(anchor) ? document.createRange() : null;
  }
  async textView(): Promise<TextView<string>> {
    return {
      text: this.text,
      hints: this.hints,
      place: (s, e) => this.text.slice(s, e),
      offsets: (a) => ({ start: this.text.indexOf(a), end: this.text.indexOf(a) + a.length }),
    };
  }
  async headline(): Promise<string> {
    return 'In the second stage.';
  }
  stamp(c: ClaimRecord, _passage: Passage, moved: boolean): ClaimRecord {
    this.stamped.push({ id: c.id, moved });
    return c;
  }
  watch(listener: (change: Stale<string>) => void): () => void {
    this.listener = listener;
    return () => (this.listener = null);
  }
  /** The document changed. */
  emit(change: Stale<string>): void {
    this.listener?.(change);
  }
}

/** The background as a map of claims; `failures` makes the next saves fail with these errors. */
class FakeApi implements CaptureApi {
  store = new Map<string, ClaimRecord>();
  saves: ClaimRecord[][] = [];
  statuses: Array<[number, number]> = [];
  restored: ClaimRecord[][] = [];
  failures: Error[] = [];
  corrected: SourceOverride[] = [];
  asked: Array<string | null> = [];
  dismissedKeys: string[] = [];
  /** The background's answers, by call name (a test may change one). */
  readonly answers: FakeAnswers<CaptureCall> = {
    'document.claims': async (key: DocumentKey): Promise<DocumentClaims> => {
      this.asked.push(key.url);
      return { claims: [...this.store.values()].filter((c) => c.source.url === key.url), source: null };
    },
    'claims.save': async ({ claims }: { claims: ClaimRecord[] }) => {
      this.saves.push(claims);
      const failure = this.failures.shift();
      if (failure) throw failure;
      const stamped = claims.map((c) => ({ ...c, updated_at: '2026-12-01T10:00:00Z' }));
      for (const c of stamped) this.store.set(c.id, c);
      return { claims: stamped };
    },
    'claims.delete': async ({ ids }) => {
      const gone = ids.flatMap((id) => this.store.get(id) ?? []);
      for (const id of ids) this.store.delete(id);
      return { deleted: gone };
    },
    'claims.restore': async ({ claims }: { claims: ClaimRecord[] }) => {
      this.restored.push(claims);
      for (const c of claims) this.store.set(c.id, c);
      return { claims };
    },
    'models.names': async () => ({ names: ['Zeta-2'] }),
    'source.correct': async ({ source }: { source: SourceOverride }) => {
      this.corrected.push(source);
      return { updated: 1 };
    },
    'document.status': async ({ anchored, orphans }) => {
      this.statuses.push([anchored, orphans]);
      return { badge: String(anchored) };
    },
    'dismissals.get': async () => ({ keys: this.dismissedKeys }),
    'dismissals.add': async ({ key }) => {
      this.dismissedKeys.push(key);
      return { stored: true };
    },
  };
  /** The controller's calls, answered by name. */
  readonly call = fakeCall(this.answers);
}

/** Records what is painted. */
function fakePainter(): Painter & { painted: string[][] } {
  const painted: string[][] = [];
  let last: Array<{ id: string }> = [];
  return {
    painted,
    paint: (claims) => {
      last = [...claims];
      painted.push(claims.map((c) => c.id));
    },
    setActive: () => undefined,
    markPending: () => undefined,
    paintCandidates: () => undefined,
    claims: () => last as never,
    clear: () => undefined,
    hitTest: () => [],
  };
}

const painted = claim({ id: 'clm_painted001', quote: { exact: 'Reasoning RL uses GRPO with the KL term removed.', prefix: '', suffix: '' } });
const orphan = claim({ id: 'clm_orphan0001', value: 'PPO', quote: { exact: 'A passage that is not on the page any more.', prefix: '', suffix: '' } });

let surface: FakeSurface;
let api: FakeApi;
let painter: ReturnType<typeof fakePainter>;
let controller: CaptureController<string>;

/** Selects the words `text` of the page's paragraph. */
function select(text: string): void {
  const p = document.querySelector('p')!;
  const node = p.firstChild as Text;
  const start = node.data.indexOf(text);
  const range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, start + text.length);
  const selection = window.getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
}

/** The controller's actions, as the capture UI calls them. */
function actions() {
  return controller.actions;
}

/** Waits until `check` holds (the controller's work is asynchronous). */
async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const values = formValues;

async function start(claims: ClaimRecord[] = []): Promise<void> {
  for (const c of claims) api.store.set(c.id, c);
  controller = new CaptureController<string>({ surface, api, painter });
  controller.start();
  await controller.loading;
}

/** Opens the form on a selection and saves it with `form` values. */
async function tag(text: string, form: ClaimFormValues): Promise<void> {
  select(text);
  expect(controller.openForm()).toBe(true);
  await until(() => controller.store.get().form !== null);
  const session = controller.store.get().form!;
  await actions().save(form, session.source, 'A');
}

beforeEach(() => {
  document.body.innerHTML = `<p>${new FakeSurface().text}</p>`;
  surface = new FakeSurface();
  api = new FakeApi();
  painter = fakePainter();
});
afterEach(() => {
  controller?.destroy();
  document.body.innerHTML = '';
});

describe('the capture controller over a document surface', () => {
  it('loads the claims, paints the anchored ones, lists the orphans and reports the badge counts', async () => {
    await start([painted, orphan]);
    expect(painter.painted.at(-1)).toEqual([painted.id]);
    expect(controller.store.get().orphans).toEqual([orphan.id]);
    expect(api.statuses).toEqual([[1, 1]]);
    expect(controller.counts()).toEqual({ anchored: 1, orphans: 1 });
    expect(controller.pageReport()).toMatchObject({ url: URL_, order: [painted.id, orphan.id], orphans: [orphan.id] });
  });

  it('saves a tagged passage, paints it, says so, and counts it on the badge', async () => {
    await start();
    await tag('Rewards are rule-based.', values({ value: 'rule-based reward', kind: 'reward', stage: '' }));
    expect(api.saves).toHaveLength(1);
    expect(api.saves[0]![0]).toMatchObject({ quote: { exact: 'Rewards are rule-based.' }, source: { url: URL_ }, model: 'Zeta-2' });
    expect(surface.stamped).toEqual([{ id: api.saves[0]![0]!.id, moved: false }]);
    await until(() => api.statuses.some(([a]) => a === 1));
    expect(controller.store.get().form).toBeNull();
    expect(painter.painted.at(-1)).toEqual([api.saves[0]![0]!.id]);
    expect(controller.store.get().toasts.map((t) => t.text)).toEqual(['Saved rule-based reward · Zeta-2']);
  });

  it('counts several values of one passage with plural() in the saved toast', async () => {
    await start();
    await tag('Reasoning RL uses GRPO with the KL term removed.', values({ value: 'GRPO + PPO' }));
    expect(api.saves[0]).toHaveLength(2);
    await until(() => controller.store.get().toasts.length > 0);
    expect(controller.store.get().toasts[0]!.text).toBe('Saved 2 claims · Zeta-2');
  });

  it('retries a save whose channel failed with the same ids, and a failed save again with the same ids', async () => {
    await start();
    api.failures.push(new Error('The message port closed before a response was received.'));
    await tag('Rewards are rule-based.', values({ value: 'rule-based reward', kind: 'reward', stage: '' }));
    expect(api.saves).toHaveLength(2);
    expect(api.saves[1]!.map((c) => c.id)).toEqual(api.saves[0]!.map((c) => c.id));
    expect(api.store.size).toBe(1);

    // A failure the curator sees: the form stays with the error; saving again reuses the minted ids.
    api.failures.push(Object.assign(new Error('database is closed'), { name: 'CallError' }));
    select('In the second stage.');
    controller.openForm();
    await until(() => controller.store.get().form !== null);
    const form = controller.store.get().form!;
    await actions().save(values({ value: 'SFT', kind: 'stage', stage: 'sft_distillation' }), form.source, 'A');
    expect(controller.store.get().form?.error).toMatch(/database is closed/);
    await actions().save(values({ value: 'SFT', kind: 'stage', stage: 'sft_distillation' }), form.source, 'A');
    expect(controller.store.get().form).toBeNull();
    expect(api.saves.at(-1)!.map((c) => c.id)).toEqual(api.saves.at(-2)!.map((c) => c.id));
    expect(api.store.size).toBe(2);
  });

  it('deletes with an undo toast, and undo puts the claim back and paints it again', async () => {
    await start([painted]);
    await actions().remove([painted.id]);
    expect(api.store.size).toBe(0);
    expect(painter.painted.at(-1)).toEqual([]);
    await until(() => controller.store.get().toasts.length > 0);
    const toast = controller.store.get().toasts.at(-1)!;
    expect(toast).toMatchObject({ text: 'Deleted GRPO · Zeta-2', undo: true });
    expect(api.statuses.at(-1)).toEqual([0, 0]);

    await actions().undo(toast.id);
    expect(api.restored).toEqual([[painted]]);
    await until(() => painter.painted.at(-1)?.[0] === painted.id);
    await until(() => controller.store.get().toasts.some((t) => t.text === 'Claim restored'));
    expect(controller.store.get().toasts.some((t) => t.undo)).toBe(false);
    expect(api.statuses.at(-1)).toEqual([1, 0]);
  });

  it('re-attaches an orphan to the next selection: saved with its new passage, painted, badge cleared', async () => {
    await start([orphan]);
    expect(api.statuses).toEqual([[0, 1]]);
    expect(await controller.answers['passage.reattach']({ id: orphan.id }, {})).toEqual({ started: true });
    await until(() => controller.store.get().reattach === orphan.id);
    select('Rewards are rule-based.');
    await actions().attachHere();
    expect(api.saves.at(-1)).toEqual([expect.objectContaining({ id: orphan.id, quote: expect.objectContaining({ exact: 'Rewards are rule-based.' }) })]);
    expect(surface.stamped.at(-1)).toEqual({ id: orphan.id, moved: true });
    expect(controller.store.get()).toMatchObject({ reattach: null, orphans: [] });
    expect(api.statuses.at(-1)).toEqual([1, 0]);
    await until(() => controller.store.get().toasts.some((t) => t.text === 'Re-attached PPO · Zeta-2'));
  });

  it('anchors again what lost its passage when the document says its text changed, and only repaints for layout', async () => {
    await start([painted]);
    const runs = surface.anchorRuns;
    surface.emit({ kind: 'layout', touches: () => true });
    expect(surface.anchorRuns).toBe(runs);
    expect(painter.painted).toHaveLength(2);
    surface.emit({ kind: 'text' });
    expect(surface.anchorRuns).toBe(runs); // nothing lost its passage
    surface.dead.add(painted.quote.exact);
    surface.emit({ kind: 'text' });
    await until(() => surface.anchorRuns === runs + 1);
  });

  it('reloads on a change notice that concerns the document only', async () => {
    await start([painted]);
    api.store.set(orphan.id, orphan);
    expect(await controller.answers['claims.changed']({ url: 'https://elsewhere.example/' }, {})).toEqual({ reloaded: false });
    expect(await controller.answers['claims.changed']({ url: URL_ }, {})).toEqual({ reloaded: true });
    expect(
      controller.store
        .get()
        .claims.map((c) => c.id)
        .sort(),
    ).toEqual([painted.id, orphan.id].sort());
    expect(api.statuses.at(-1)).toEqual([1, 1]);
  });

  it('clears the badge after an in-page navigation to an address with no claims', async () => {
    await start([painted]);
    expect(api.statuses).toEqual([[1, 0]]);
    surface.url = 'https://example.org/zeta-2-report/changelog';
    controller.addressChanged();
    await controller.loading;
    expect(api.asked.at(-1)).toBe(surface.url);
    expect(controller.store.get().claims).toEqual([]);
    expect(painter.painted.at(-1)).toEqual([]);
    expect(api.statuses.at(-1)).toEqual([0, 0]);
    expect(controller.pageReport()).toMatchObject({ url: surface.url, order: [], orphans: [] });
  });

  it('catches up with an in-page navigation not yet seen when the form opens, and files the claim under the new address', async () => {
    const there = 'https://example.org/zeta-2-report/training';
    await start([painted]);
    surface.url = there;
    await tag('Rewards are rule-based.', values({ value: 'rule-based reward', kind: 'reward', stage: '' }));
    expect(api.asked).toEqual([URL_, there]);
    expect(api.saves.at(-1)![0]!.source.url).toBe(there);
    await until(() => api.statuses.at(-1)?.[0] === 1 && controller.store.get().claims.length === 1);
    expect(controller.store.get().claims.map((c) => c.source.url)).toEqual([there]);
    expect(controller.pageReport().url).toBe(there);
  });

  it('says the document must be reloaded when the extension went away under it', async () => {
    const gone = new FakeApi();
    gone.answers['document.claims'] = () => Promise.reject(new Error('Extension context invalidated.'));
    controller = new CaptureController<string>({ surface, api: gone, painter });
    controller.start();
    await controller.loading;
    expect(controller.store.get().disconnected).toBe(true);
  });

  it('runs one finder over the surface’s text: claimed passages left out, a candidate accepted into the form or dismissed for good', async () => {
    surface.text = 'We train Zeta-2 with GRPO in the reasoning RL stage. The reward model is trained with PPO afterwards.';
    await start();
    const report = await controller.answers['finder.run']({}, {});
    expect(report.url).toBe(URL_);
    expect(report.candidates.length).toBeGreaterThan(0);
    const first = report.candidates[0]!;
    expect(await controller.answers['finder.accept']({ key: first.key }, {})).toEqual({ opened: true });
    const form = controller.store.get().form!;
    expect(form).toMatchObject({ candidate: first.key, values: { kind: first.kind, value: first.value } });
    // Saved, the candidate leaves the list.
    await actions().save(form.values, form.source, form.values.evidence);
    expect(controller.store.get().finder?.items.map((c) => c.key)).not.toContain(first.key);
    // A run now leaves out the passage just claimed.
    const again = await controller.answers['finder.run']({}, {});
    expect(again.candidates.map((c) => c.key)).not.toContain(first.key);
    const other = again.candidates[0]!;
    expect(other.key).not.toBe(first.key);
    expect(await controller.answers['finder.dismiss']({ key: other.key }, {})).toEqual({ dismissed: true });
    expect(api.dismissedKeys).toEqual([other.key]);
    expect((await controller.answers['finder.run']({}, {})).candidates.map((c) => c.key)).not.toContain(other.key);
  });

  it('passes the surface’s layout hints to the finder: text the document marks to skip offers no candidate', async () => {
    surface.text = 'We train Zeta-2 with GRPO in the reasoning RL stage. The reward model is trained with PPO afterwards.';
    await start();
    const second = surface.text.indexOf('The reward');
    const all = await controller.answers['finder.run']({}, {});
    expect(all.candidates.some((c) => c.sentence.startsWith('We train'))).toBe(true);
    surface.hints = { skip: [{ start: 0, end: second }] };
    const hinted = await controller.answers['finder.run']({}, {});
    expect(hinted.candidates.length).toBeGreaterThan(0);
    expect(hinted.candidates.every((c) => c.sentence.startsWith('The reward'))).toBe(true);
  });

  it('records a page as not disclosed on its headline', async () => {
    await start();
    expect(await controller.answers['finder.undisclosed']({}, {})).toEqual({ opened: true });
    expect(controller.store.get().form).toMatchObject({ passage: { quote: { exact: 'In the second stage.' } }, values: { kind: 'undisclosed' } });
  });
});

describe('the painting alone, then taken over by the controller', () => {
  /** A painting session over the fake surface, showing what the fake background stores for the page. */
  async function paintOnly(claims: ClaimRecord[]): Promise<PaintSession<string>> {
    for (const c of claims) api.store.set(c.id, c);
    const session = new PaintSession<string>(surface, painter, api);
    await session.show({ url: URL_, claims, source: null });
    return session;
  }

  it('anchors and paints the claims once and reports the badge counts, with no UI', async () => {
    const session = await paintOnly([painted, orphan]);
    expect(surface.anchorRuns).toBe(1);
    expect(painter.painted.at(-1)).toEqual([painted.id]);
    expect(api.statuses).toEqual([[1, 1]]);
    expect(document.querySelector('recipe-lens-ui')).toBeNull();
    session.stop();
  });

  it('anchors again what lost its passage when the document changes, and shows a change of the store', async () => {
    const session = await paintOnly([painted]);
    surface.text = 'Rewards are rule-based. Reasoning RL uses GRPO with the KL term removed.';
    surface.emit({ kind: 'text' });
    await session.showing;
    expect(surface.anchorRuns).toBe(1); // the anchor is still live: nothing to do
    surface.dead.add(painted.quote.exact);
    surface.emit({ kind: 'text' });
    await session.showing;
    expect(surface.anchorRuns).toBe(2);
    surface.dead.clear();
    const added = claim({ id: 'clm_added00001', quote: { exact: 'Rewards are rule-based.', prefix: '', suffix: '' } });
    api.store.set(added.id, added);
    await session.reload();
    expect(painter.painted.at(-1)).toEqual([painted.id, added.id]);
    expect(api.statuses.at(-1)).toEqual([2, 0]);
    session.stop();
  });

  it('hands its anchors over: the controller paints by them without anchoring again or reporting the badge twice', async () => {
    const session = await paintOnly([painted, orphan]);
    const handed = session.handOver();
    controller = new CaptureController<string>({ surface, api, painter });
    controller.start({ url: URL_, claims: [painted, orphan], source: null }, handed);
    await controller.loading;
    expect(surface.anchorRuns).toBe(1);
    expect(painter.painted.at(-1)).toEqual([painted.id]);
    expect(controller.store.get().orphans).toEqual([orphan.id]);
    expect(api.statuses).toEqual([[1, 1]]);
    expect(controller.pageReport()).toMatchObject({ order: [painted.id, orphan.id], orphans: [orphan.id] });
    // A change notice asks the background again (the page script's lookup is not used twice).
    api.store.delete(orphan.id);
    await controller.answers['claims.changed']({ url: URL_ }, {});
    expect(controller.store.get().claims.map((c) => c.id)).toEqual([painted.id]);
    // A document change after the handover is the controller's alone: one run (for the passage that went), none by the painting.
    surface.dead.add(painted.quote.exact);
    surface.emit({ kind: 'text' });
    await until(() => surface.anchorRuns > 1);
    await controller.loading;
    expect(surface.anchorRuns).toBe(2);
  });

  it('anchors what the painting had not finished when it is taken over, and ignores a handover for another address', async () => {
    for (const c of [painted]) api.store.set(c.id, c);
    const session = new PaintSession<string>(surface, painter, api);
    void session.show({ url: URL_, claims: [painted], source: null });
    const handed = session.handOver(); // before the anchoring pass ended
    expect(handed?.settled).toBe(false);
    controller = new CaptureController<string>({ surface, api, painter });
    controller.start(null, handed);
    await until(() => painter.painted.length > 0);
    expect(painter.painted.at(-1)).toEqual([painted.id]);
    expect(controller.counts()).toEqual({ anchored: 1, orphans: 0 });
    controller.destroy();
    const elsewhere = { ...handed!, url: 'https://example.org/another' };
    api.asked.length = 0;
    controller = new CaptureController<string>({ surface, api, painter });
    controller.start(null, elsewhere);
    await controller.loading;
    expect(api.asked).toEqual([URL_]);
  });
});
