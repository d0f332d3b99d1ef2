// The claim finder's lists with stand-in actions: the in-page list (document order, kind/value/stage/model, keyboard:
// first accept focused, Escape closes) and the panel's section (run, accept, dismiss, "record as not disclosed").
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FinderList } from '../../../components/capture/FinderList';
import type { FinderActions, FinderState } from '../../../components/capture/state';
import { FinderSection } from '../../../components/panel/FinderSection';
import type { FinderCandidate, FinderReport } from '../../../lib/capture/finder';

const ITEMS: FinderCandidate[] = [
  { key: '0123456789abcdef', kind: 'algorithm', value: 'GRPO', stage: 'reasoning_rl', model: 'Zeta-3', sentence: 'We train Zeta-3 with GRPO.', rank: 2 },
  { key: 'fedcba9876543210', kind: 'framework', value: 'slime', stage: null, model: null, sentence: 'Training runs on slime.', rank: 1 },
];

let host: HTMLElement;
afterEach(() => {
  render(null, host);
  host.remove();
});

function mount(node: preact.ComponentChild): void {
  host = document.createElement('div');
  document.body.append(host);
  render(node, host);
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

const all = (id: string) => [...host.querySelectorAll<HTMLElement>(`[data-testid=${id}]`)];

function actions(): FinderActions & Record<string, ReturnType<typeof vi.fn>> {
  return {
    acceptCandidate: vi.fn(),
    dismissCandidate: vi.fn(async () => undefined),
    showCandidate: vi.fn(),
    recordUndisclosed: vi.fn(),
    closeFinder: vi.fn(),
  } as never;
}

describe('the in-page list of candidates', () => {
  const done: FinderState = { status: 'done', items: ITEMS, talksAboutRl: true, suggestUndisclosed: false, error: null };

  it('lists candidates in the order given (document order) with kind, value, stage and model', () => {
    mount(<FinderList finder={done} actions={actions()} />);
    expect(all('finder-value').map((e) => e.textContent)).toEqual(['GRPO', 'slime']);
    const [first, second] = all('finder-item');
    expect(first!.textContent).toContain('Algorithm');
    expect(first!.textContent).toContain('Reasoning RL');
    expect(first!.textContent).toContain('Zeta-3');
    expect(second!.textContent).toContain('no stage named');
    expect(second!.textContent).toContain('no model named');
    expect(host.querySelector('[data-testid=finder-count]')!.textContent).toBe('2 candidates, in page order');
  });

  it('puts the focus on the first accept button, and every action is a button', async () => {
    mount(<FinderList finder={done} actions={actions()} />);
    await until(() => document.activeElement === all('finder-accept')[0]);
    for (const id of ['finder-accept', 'finder-dismiss', 'finder-sentence', 'finder-close']) for (const el of all(id)) expect(el.tagName).toBe('BUTTON');
  });

  it('accepts, dismisses, shows a candidate, and closes with Escape', () => {
    const a = actions();
    mount(<FinderList finder={done} actions={a} />);
    all('finder-accept')[1]!.click();
    all('finder-dismiss')[0]!.click();
    all('finder-sentence')[0]!.click();
    expect(a.acceptCandidate).toHaveBeenCalledWith('fedcba9876543210');
    expect(a.dismissCandidate).toHaveBeenCalledWith('0123456789abcdef');
    expect(a.showCandidate).toHaveBeenCalledWith('0123456789abcdef');
    all('finder-accept')[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(a.closeFinder).toHaveBeenCalledTimes(1);
  });

  it('offers "record as not disclosed" when the finder suggests it, and says when nothing was found', () => {
    const a = actions();
    mount(<FinderList finder={{ ...done, items: [], suggestUndisclosed: true }} actions={a} />);
    expect(host.querySelector('[data-testid=finder-count]')!.textContent).toBe('No candidate claims on this page.');
    all('finder-record-undisclosed')[0]!.click();
    expect(a.recordUndisclosed).toHaveBeenCalled();
  });

  it('shows the progress and the reason of a failure as text', () => {
    mount(<FinderList finder={{ status: 'error', items: [], talksAboutRl: false, suggestUndisclosed: false, error: '<b>gone</b>' }} actions={actions()} />);
    expect(host.textContent).toContain('The finder could not run: <b>gone</b>');
    expect(host.querySelector('b')).toBeNull();
  });
});

describe("the panel's finder section", () => {
  const report: FinderReport = { url: 'https://example.org/zeta-3', candidates: ITEMS, talksAboutRl: true, suggestUndisclosed: true };

  it('finds only when asked, then accepts, dismisses and records "not disclosed" through the tab', async () => {
    const call = vi.fn(async (action: string) => (action === 'run' ? { report, opened: false } : { report: null, opened: true }));
    mount(<FinderSection url={report.url} call={call} revision={1} />);
    expect(call).not.toHaveBeenCalled();
    all('panel-find')[0]!.click();
    await until(() => all('panel-candidate').length === 2);
    expect(call).toHaveBeenCalledWith('run');
    all('panel-candidate-accept')[0]!.click();
    await until(() => call.mock.calls.length === 2);
    expect(call).toHaveBeenLastCalledWith('accept', '0123456789abcdef');
    await until(() => host.textContent!.includes('The claim form is open in the page.'));
    all('panel-candidate-dismiss')[1]!.click();
    await until(() => all('panel-candidate').length === 1);
    expect(call).toHaveBeenLastCalledWith('dismiss', 'fedcba9876543210');
    all('panel-finder-undisclosed')[0]!.click();
    await until(() => call.mock.calls.length === 4);
    expect(call).toHaveBeenLastCalledWith('undisclosed', undefined);
  });

  it('finds again when the page reports changed claims, and says why it could not run', async () => {
    let fail = false;
    const call = vi.fn(async () => {
      if (fail) throw new Error('no content script');
      return { report, opened: false };
    });
    mount(<FinderSection url={report.url} call={call} revision={1} />);
    all('panel-find')[0]!.click();
    await until(() => all('panel-candidate').length === 2);
    fail = true;
    render(<FinderSection url={report.url} call={call} revision={2} />, host);
    await until(() => call.mock.calls.length === 2);
    await until(() => host.textContent!.includes('The finder could not run: no content script'));
  });
});
