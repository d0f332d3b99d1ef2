// The capture UI out of the page's reach (issue 24): which part shows what, the framed mount's host and frames,
// the handover of a frame's port, and a frame's part driven over its port.
import { afterEach, describe, expect, it } from 'vitest';
import { createStore } from '../../../components/common/store';
import { startFramePart } from '../../../components/capture/frame-app';
import { mountInFrames } from '../../../components/capture/frame-host';
import { type CaptureActions, type CaptureState, initialCaptureState } from '../../../components/capture/state';
import { awaitHandover, HANDOVER_KEY, isUiAction, UI_ACTIONS, type UiPort } from '../../../components/capture/ui-channel';
import { partPlace, UI_PARTS } from '../../../components/capture/ui-parts';
import { claim } from '../fixtures/records';

const passage = { quote: { exact: 'A passage.', prefix: '', suffix: '' }, position: { start: 0, end: 10 } };
const form = {
  mode: 'new' as const,
  passage,
  values: { model: '', recipe: '', kind: 'algorithm', stage: '', value: 'GRPO', evidence: 'B', evidenceReason: '', note: '' },
  source: { title: 'T', kind: 'official_blog', publisher: '', published: '' },
  sourceCorrected: false,
  pageModels: [],
  storeModels: [],
  editing: null,
  at: { x: 40, y: 50 },
  saving: false,
  error: null,
} as unknown as NonNullable<CaptureState['form']>;

describe('the parts of the capture UI', () => {
  it('shows nothing for the empty state', () => {
    for (const part of UI_PARTS) expect(partPlace(part, initialCaptureState)).toBeNull();
  });

  it('shows one of form, toolbar and card at a point, the form first, then the toolbar (a selection wins over a card)', () => {
    const c = claim();
    const card = { ids: [c.id], at: { x: 1, y: 2 }, pinned: false };
    const base = { ...initialCaptureState, claims: [c] };
    expect(partPlace('anchored', { ...base, card })).toEqual({ at: { x: 1, y: 2 } });
    expect(partPlace('anchored', { ...base, card, toolbar: { x: 5, y: 6 } })).toEqual({ at: { x: 5, y: 6 } });
    expect(partPlace('anchored', { ...base, card, toolbar: { x: 5, y: 6 }, form })).toEqual({ at: { x: 40, y: 50 } });
    // A card whose claims are gone shows nothing.
    expect(partPlace('anchored', { ...initialCaptureState, card })).toBeNull();
  });

  it('puts notices bottom right, orphans bottom left (not over the form), the finder top right (not with the form)', () => {
    const finder = { status: 'done' as const, items: [], talksAboutRl: false, suggestUndisclosed: false, error: null };
    expect(partPlace('notices', { ...initialCaptureState, disconnected: true })).toEqual({ corner: 'bottom-right' });
    expect(partPlace('orphans', { ...initialCaptureState, orphans: ['x'] })).toEqual({ corner: 'bottom-left' });
    expect(partPlace('orphans', { ...initialCaptureState, orphans: ['x'], form })).toBeNull();
    expect(partPlace('finder', { ...initialCaptureState, finder })).toEqual({ corner: 'top-right' });
    expect(partPlace('finder', { ...initialCaptureState, finder, form })).toBeNull();
  });
});

describe('the framed mount', () => {
  afterEach(() => {
    for (const el of document.querySelectorAll('recipe-lens-ui')) el.remove();
  });
  const link = { frameUrl: (part: string) => `chrome-extension://abc/capture-ui.html#part=${part}`, origin: 'chrome-extension://abc' };

  it('hosts its frames in a closed shadow root, made only for the parts that show something', async () => {
    const store = createStore<CaptureState>(initialCaptureState);
    const ui = await mountInFrames(link)(store, {} as CaptureActions);
    const host = document.querySelector('recipe-lens-ui')!;
    expect(host).not.toBeNull();
    // Nothing of ours is reachable from the page's side: no open root, no child in the light tree.
    expect(host.shadowRoot).toBeNull();
    expect(host.children).toHaveLength(0);
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    expect(ui.owns(new Event('x'))).toBe(false);
    ui.destroy();
    expect(document.querySelector('recipe-lens-ui')).toBeNull();
  });
});

describe('the handover of a frame’s port', () => {
  /** A frame's window as the handover sees it, with the listener it registers. */
  function fakeWindow() {
    const parent = {};
    let listener: ((event: { source: unknown; data: unknown; ports: unknown[] }) => void) | null = null;
    const win = { parent, addEventListener: (_type: string, fn: typeof listener) => (listener = fn) } as unknown as Window;
    return { win, parent, deliver: (event: { source: unknown; data: unknown; ports: unknown[] }) => listener!(event) };
  }

  it('takes the first port carrying its number from its parent, and nothing else', () => {
    const { win, parent, deliver } = fakeWindow();
    const taken: UiPort[] = [];
    awaitHandover(win, 'n0nce-n0nce-n0nce', (port) => taken.push(port));
    const channel = () => new MessageChannel().port1;
    deliver({ source: parent, data: { [HANDOVER_KEY]: 'guessed-number' }, ports: [channel()] });
    deliver({ source: {}, data: { [HANDOVER_KEY]: 'n0nce-n0nce-n0nce' }, ports: [channel()] });
    deliver({ source: parent, data: { [HANDOVER_KEY]: 'n0nce-n0nce-n0nce' }, ports: [] });
    deliver({ source: parent, data: 'n0nce-n0nce-n0nce', ports: [channel()] });
    expect(taken).toHaveLength(0);
    deliver({ source: parent, data: { [HANDOVER_KEY]: 'n0nce-n0nce-n0nce' }, ports: [channel()] });
    deliver({ source: parent, data: { [HANDOVER_KEY]: 'n0nce-n0nce-n0nce' }, ports: [channel()] });
    expect(taken).toHaveLength(1);
  });

  it('takes nothing without a number (a document loaded later into the frame finds none)', () => {
    const { win, parent, deliver } = fakeWindow();
    const taken: UiPort[] = [];
    awaitHandover(win, '', (port) => taken.push(port));
    deliver({ source: parent, data: { [HANDOVER_KEY]: '' }, ports: [new MessageChannel().port1] });
    expect(taken).toHaveLength(0);
  });

  it('runs only the named actions', () => {
    expect(UI_ACTIONS).toContain('save');
    expect(isUiAction('save')).toBe(true);
    for (const name of ['constructor', '__proto__', 'toString', 'store', 'finder', 'save;', 42, null]) expect(isUiAction(name)).toBe(false);
  });
});

describe('a part in its frame', () => {
  /** A port whose other side the test plays. */
  function fakePort() {
    const sent: Array<Record<string, unknown>> = [];
    const listeners: Array<(m: unknown) => void> = [];
    const port: UiPort = {
      post: (m) => sent.push(m as Record<string, unknown>),
      onMessage: (l) => listeners.push(l),
      onDisconnect: () => undefined,
      disconnect: () => undefined,
    };
    return { port, sent, say: (m: unknown) => listeners.forEach((l) => l(m)) };
  }

  it('shows the state it is sent, and sends back the curator’s action with the values typed in it', async () => {
    document.body.innerHTML = '';
    const { port, sent, say } = fakePort();
    startFramePart('anchored', port);
    say({ type: 'state', state: { ...initialCaptureState, toolbar: { x: 1, y: 2 } }, finder: false, viewport: { width: 800, height: 600 } });
    await new Promise((r) => setTimeout(r, 20));
    const tag = document.querySelector<HTMLButtonElement>('[data-testid=toolbar-tag]');
    expect(tag).not.toBeNull();
    // The frame is sized to what it shows.
    expect(sent.some((m) => m.type === 'size')).toBe(true);
    tag!.click();
    const act = sent.find((m) => m.type === 'act')!;
    expect(act).toMatchObject({ action: 'openForm', args: [] });
    // Nothing but the state it is sent is shown: another part's state shows nothing here.
    say({
      type: 'state',
      state: { ...initialCaptureState, toasts: [{ id: 1, text: 'Saved', tone: 'info' }] },
      finder: false,
      viewport: { width: 800, height: 600 },
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(document.querySelector('[data-testid=toolbar-tag]')).toBeNull();
    expect(document.querySelector('[data-testid=toast]')).toBeNull();
  });
});
