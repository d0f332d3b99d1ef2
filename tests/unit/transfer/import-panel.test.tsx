// The options page's import card with a stand-in background: preview, conflicts side by side, confirmation.
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImportCall } from '../../../components/options/api';
import { ImportPanel } from '../../../components/options/ImportPanel';
import type { ImportApi } from '../../../components/options/importer';
import type { RequestOf, ResponseOf } from '../../../lib/messages';
import type { ImportOutcome, ImportPreview } from '../../../lib/transfer';
import { fakeCall } from '../../support/fake-call';

/** A stand-in background's answer to one call. */
type Answer<K extends 'import.preview' | 'import.commit'> = (request: RequestOf<K>) => Promise<ResponseOf<K>>;

const EVIL = '<img src=x onerror="globalThis.hacked=1">';

function preview(patch: Partial<ImportPreview> = {}): ImportPreview {
  return {
    fileName: 'records.jsonl',
    format: 'jsonl',
    mode: 'merge',
    token: 'tok-1',
    items: 3,
    incoming: { claims: 3, models: 0, sources: 0 },
    added: 1,
    updated: 0,
    unchanged: 1,
    removed: 0,
    conflicts: [{ ref: 'claim:clm_a0000001', label: 'claim clm_a0000001', diffs: [{ field: 'note', ours: 'mine', theirs: EVIL }] }],
    conflictCount: 1,
    errors: [],
    errorCount: 0,
    store: null,
    ...patch,
  };
}

const stored: ImportOutcome = {
  status: 'stored',
  fileName: 'records.jsonl',
  mode: 'merge',
  items: 3,
  added: 1,
  updated: 0,
  unchanged: 1,
  removed: 0,
  kept: 0,
  taken: 1,
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

function mount(api: ImportApi, onImported = vi.fn()) {
  host = document.createElement('div');
  document.body.append(host);
  render(<ImportPanel api={api} onImported={onImported} />, host);
  return onImported;
}

function choose(file: File) {
  const input = host.querySelector<HTMLInputElement>('[data-testid=import-input]')!;
  Object.defineProperty(input, 'files', { value: [file], configurable: true });
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const q = (id: string) => host.querySelector<HTMLElement>(`[data-testid=${id}]`);

describe('the import card', () => {
  it('previews first, shows a conflict side by side as text, and stores the chosen version on confirmation', async () => {
    const api = { 'import.preview': vi.fn(async () => preview()), 'import.commit': vi.fn(async () => stored) };
    const onImported = mount({ call: fakeCall(api) });
    choose(new File(['{"schema":"x"}\n'], 'records.jsonl'));
    await until(() => !!q('import-confirm'));
    expect(api['import.preview']).toHaveBeenCalledWith({ text: '{"schema":"x"}\n', fileName: 'records.jsonl', format: 'jsonl', mode: 'merge' });
    expect(api['import.commit']).not.toHaveBeenCalled();
    expect(q('preview-counts')!.textContent).toBe('1 new, 0 updated, 1 unchanged, 1 conflict');
    const conflict = q('conflict')!;
    expect(conflict.querySelector('[data-field=note] [data-testid=mine]')!.textContent).toBe('mine');
    expect(conflict.querySelector('[data-field=note] [data-testid=theirs]')!.textContent).toBe(EVIL);
    expect(host.querySelector('img')).toBeNull();

    conflict.querySelector<HTMLInputElement>('[data-testid=take-theirs]')!.click();
    await until(() => q('conflict')!.getAttribute('data-take') === 'theirs');
    q('import-confirm')!.click();
    await until(() => !!q('import-result'));
    expect(api['import.commit']).toHaveBeenCalledWith({
      token: 'tok-1',
      fileName: 'records.jsonl',
      format: 'jsonl',
      mode: 'merge',
      resolutions: [{ ref: 'claim:clm_a0000001', take: 'theirs' }],
      rest: 'mine',
    });
    expect(q('import-result')!.textContent).toContain('imported: 1 new, 0 updated, 1 unchanged (3 lines); conflicts: kept mine for 0, took theirs for 1');
    expect(q('import-panel')!.getAttribute('data-runs')).toBe('1');
    expect(onImported).toHaveBeenCalledTimes(1);
  });

  it('counts the file’s source records in the preview, and says nothing of them when it has none', async () => {
    mount({
      call: fakeCall({
        'import.preview': async () => preview({ conflicts: [], conflictCount: 0, sourceRecords: { incoming: 3, added: 1, updated: 1, unchanged: 1 } }),
        'import.commit': async () => stored,
      }),
    });
    choose(new File(['{"schema":"x"}\n'], 'records.jsonl'));
    await until(() => !!q('import-confirm'));
    expect(q('preview-source-records')!.textContent).toBe(
      'Source records (what the last recheck of each source found): 3 in the file — 1 new, 1 updated, 1 unchanged (the later one is kept).',
    );
    render(null, host);
    host.remove();
    mount({
      call: fakeCall({
        'import.preview': async () => preview({ sourceRecords: { incoming: 0, added: 0, updated: 0, unchanged: 0 } }),
        'import.commit': async () => stored,
      }),
    });
    choose(new File(['{"schema":"x"}\n'], 'records.jsonl'));
    await until(() => !!q('import-confirm'));
    expect(q('preview-source-records')).toBeNull();
  });

  it('names each bad line with its file and stores nothing', async () => {
    const api = {
      'import.preview': vi.fn(async () =>
        preview({ token: null, errors: [{ line: 2, message: 'evidence: Invalid option' }], errorCount: 1, conflicts: [], conflictCount: 0 }),
      ),
      'import.commit': vi.fn<Answer<'import.commit'>>(),
    };
    mount({ call: fakeCall(api) });
    choose(new File(['x'], 'broken.jsonl'));
    await until(() => !!q('import-result'));
    expect(q('import-confirm')).toBeNull();
    expect(q('import-result')!.textContent).toContain('not imported, nothing was changed');
    expect(q('import-errors')!.textContent).toBe('broken.jsonl, line 2: evidence: Invalid option');
    expect(api['import.commit']).not.toHaveBeenCalled();
  });

  it('refuses a file over the limit before reading it', async () => {
    const call = fakeCall<ImportCall>({});
    mount({ call });
    const big = new File(['x'], 'huge.jsonl');
    Object.defineProperty(big, 'size', { value: 40 * 1024 * 1024 });
    choose(big);
    await until(() => !!q('import-result'));
    expect(q('import-result')!.textContent).toMatch(/huge\.jsonl — not imported, nothing was changed: the file is 40\.0 MB; the limit is 32 MB/);
    expect(call).not.toHaveBeenCalled();
  });

  it('hands the file to the worker first and names it in the preview, falling back to sending the text', async () => {
    const previewCall = vi
      .fn<Answer<'import.preview'>>()
      .mockRejectedValueOnce(new Error('did not reach the background'))
      .mockResolvedValue(preview({ conflicts: [], conflictCount: 0 }));
    mount({ call: fakeCall({ 'import.preview': previewCall, 'import.commit': async () => stored }), handOver: async () => 'upload-1' });
    choose(new File(['line\n'], 'records.jsonl'));
    await until(() => !!q('import-confirm'));
    expect(previewCall.mock.calls.map(([r]) => [r.upload, r.text])).toEqual([
      ['upload-1', undefined],
      [undefined, 'line\n'],
    ]);
  });

  it('hands a file whose name tells its format over unread, and reads it only when the background lost it', async () => {
    const handOver = vi.fn(async (_content: string | Blob) => 'upload-1');
    const commit = vi.fn<Answer<'import.commit'>>().mockResolvedValueOnce({ status: 'expired' }).mockResolvedValueOnce(stored);
    const previewCall = vi.fn<Answer<'import.preview'>>().mockResolvedValue(preview({ conflicts: [], conflictCount: 0 }));
    mount({ call: fakeCall({ 'import.preview': previewCall, 'import.commit': commit }), handOver });
    const file = new File(['line\n'], 'records.jsonl');
    choose(file);
    await until(() => !!q('import-confirm'));
    expect(handOver.mock.calls.map(([c]) => c)).toEqual([file]);
    expect(previewCall.mock.calls.map(([r]) => [r.upload, r.text, r.format])).toEqual([['upload-1', undefined, 'jsonl']]);
    q('import-confirm')!.click();
    await until(() => !!q('import-result'));
    // The preview expired: the file is handed over again, still unread.
    expect(handOver.mock.calls.map(([c]) => c)).toEqual([file, file]);
    expect(commit.mock.calls.map(([r]) => [r.upload, r.text])).toEqual([
      [undefined, undefined],
      ['upload-1', undefined],
    ]);
  });

  it('reads a file whose format only its text tells, and hands over the text', async () => {
    const handOver = vi.fn(async (_content: string | Blob) => 'upload-2');
    const previewCall = vi.fn<Answer<'import.preview'>>().mockResolvedValue(preview({ conflicts: [], conflictCount: 0 }));
    mount({ call: fakeCall({ 'import.preview': previewCall, 'import.commit': async () => stored }), handOver });
    choose(new File(['{"schema":"rl-survey.claim/1"}\n'], 'records.json'));
    await until(() => !!q('import-confirm'));
    expect(handOver.mock.calls.map(([c]) => c)).toEqual(['{"schema":"rl-survey.claim/1"}\n']);
    expect(previewCall.mock.calls.map(([r]) => [r.upload, r.format])).toEqual([['upload-2', 'jsonl']]);
  });

  it('sends the text again when the background lost the preview', async () => {
    const commit = vi.fn<Answer<'import.commit'>>().mockResolvedValueOnce({ status: 'expired' }).mockResolvedValueOnce(stored);
    mount({ call: fakeCall({ 'import.preview': async () => preview({ conflicts: [], conflictCount: 0 }), 'import.commit': commit }) });
    choose(new File(['line\n'], 'records.jsonl'));
    await until(() => !!q('import-confirm'));
    q('import-confirm')!.click();
    await until(() => !!q('import-result'));
    expect(commit).toHaveBeenCalledTimes(2);
    expect(commit.mock.calls[0]![0].text).toBeUndefined();
    expect(commit.mock.calls[1]![0].text).toBe('line\n');
  });
});
