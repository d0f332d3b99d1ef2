// The popup's "Find claims on this page" with a stand-in background: shown for a web page, runs the finder in that
// tab, reports what it found (and the "not disclosed" hint), and says why when the finder could not run.
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type PopupCall, PopupApp } from '../../../components/popup/PopupApp';
import type { FinderReport } from '../../../lib/capture/finder';
import type { PageReport } from '../../../lib/capture/page-report';
import type { ResponseOf } from '../../../lib/messages';
import { fakeCall } from '../../support/fake-call';

const REPORT: PageReport = {
  url: 'https://example.org/zeta-3',
  title: 'Zeta-3',
  source: { title: 'Zeta-3', kind: 'official_blog', publisher: 'Zeta Lab', published: null, corrected: false },
  models: ['Zeta-3'],
  order: [],
  orphans: [],
  changed: [],
};

const FOUND: FinderReport = {
  url: REPORT.url,
  candidates: [
    { key: '0123456789abcdef', kind: 'algorithm', value: 'GRPO', stage: 'reasoning_rl', model: 'Zeta-3', sentence: 'We train Zeta-3 with GRPO.', rank: 1 },
    { key: 'fedcba9876543210', kind: 'framework', value: 'slime', stage: null, model: 'Zeta-3', sentence: 'Training runs on slime.', rank: 2 },
  ],
  talksAboutRl: true,
  suggestUndisclosed: false,
};

let host: HTMLElement;
afterEach(() => {
  render(null, host);
  host.remove();
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

/** Shows the popup over a stand-in background that answers the tab's page and runs the finder with `find`. */
function mount(page: ResponseOf<'tab.page'>, find: (request: { tabId: number }) => Promise<FinderReport | null>) {
  host = document.createElement('div');
  document.body.append(host);
  const call = fakeCall<PopupCall>({
    'tab.page': async () => page,
    'tab.finder': async (request) => ({ report: await find(request), opened: false }),
  });
  render(<PopupApp api={{ call, windowId: 3, openPanel: async () => undefined, openOptions: () => undefined, close: () => undefined }} />, host);
  return call;
}

const q = (id: string) => host.querySelector<HTMLElement>(`[data-testid=${id}]`);

describe('the popup finds claims on the page', () => {
  it('runs the finder in the tab it reads and says how many candidates are marked', async () => {
    const find = vi.fn(async () => FOUND);
    const call = mount({ tabId: 7, report: REPORT, reason: null }, find);
    await until(() => !!q('popup-find'));
    q('popup-find')!.click();
    await until(() => !!q('popup-found'));
    expect(call).toHaveBeenCalledWith('tab.page', { windowId: 3 });
    expect(call).toHaveBeenCalledWith('tab.finder', { tabId: 7, action: 'run' });
    expect(find).toHaveBeenCalledTimes(1);
    expect(q('popup-found')!.textContent).toBe('Found 2 candidate claims; they are marked on the page.');
  });

  it('passes on the "not disclosed" hint when the page talks about RL but names no stage or algorithm', async () => {
    mount({ tabId: 7, report: REPORT, reason: null }, async () => ({ ...FOUND, candidates: [], suggestUndisclosed: true }));
    await until(() => !!q('popup-find'));
    q('popup-find')!.click();
    await until(() => !!q('popup-found'));
    expect(q('popup-found')!.textContent).toBe('No candidate claims on this page. This page talks about RL but names no stage or algorithm.');
  });

  it('says why the finder could not run', async () => {
    mount({ tabId: 7, report: REPORT, reason: null }, async () => {
      throw new Error('the tab was closed');
    });
    await until(() => !!q('popup-find'));
    q('popup-find')!.click();
    await until(() => !!host.querySelector('.error'));
    expect(host.querySelector('.error')!.textContent).toBe('The finder could not run: the tab was closed');
  });

  it('offers no finder where no content script runs (a browser page)', async () => {
    mount({ tabId: 7, report: null, reason: 'Not a web page.' }, async () => FOUND);
    await until(() => host.textContent!.includes('Not a web page.'));
    expect(q('popup-find')).toBeNull();
  });
});
