// The panel's vendor: a proposal shown as proposed until saved, accepted in one click, edited in place.
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VendorEditor, vendorText } from '../../../components/panel/VendorEditor';
import { deriveRows, type SurveyRow } from '../../../lib/survey';
import { claim, model } from '../fixtures/records';

const NOW = '2026-12-01T00:00:00Z';
const zhipu = claim({ id: 'vend_glm5_01', model: 'GLM-5', source: { ...claim().source, url: 'https://z.example/glm-5', publisher: 'Zhipu AI' } });
const proposedRow = (): SurveyRow => deriveRows([zhipu], [], { now: NOW })[0]!;
const storedRow = (vendor: string): SurveyRow => deriveRows([zhipu], [model({ model: 'GLM-5', vendor })], { now: NOW })[0]!;
const unknownRow = (): SurveyRow => deriveRows([claim({ ...zhipu, source: { ...zhipu.source, publisher: null } })], [], { now: NOW })[0]!;

let host: HTMLElement | null = null;
afterEach(() => {
  if (!host) return;
  render(null, host);
  host.remove();
  host = null;
});

function mount(row: SurveyRow, onSave: (v: string | null) => Promise<void>): void {
  const el = document.createElement('div');
  document.body.append(el);
  render(<VendorEditor row={row} onSave={onSave} />, el);
  host = el;
}

const byId = (id: string) => host!.querySelector<HTMLElement>(`[data-testid=${id}]`);

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

function type(input: HTMLInputElement, text: string, key: string): void {
  input.value = text;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
}

describe('vendorText', () => {
  it('marks a proposal, shows a stored vendor as is, and says when there is none', () => {
    expect(vendorText(proposedRow())).toBe('Zhipu AI (proposed)');
    expect(vendorText(storedRow('Z.ai'))).toBe('Z.ai');
    expect(vendorText(unknownRow())).toBe('vendor unknown');
  });
});

describe('VendorEditor', () => {
  it('shows a proposal as proposed and stores it in one click', async () => {
    const onSave = vi.fn(async () => undefined);
    mount(proposedRow(), onSave);
    expect(byId('vendor')!.dataset.proposed).toBe('true');
    expect(byId('vendor')!.textContent).toBe('Zhipu AI (proposed)');
    byId('vendor-accept')!.click();
    await until(() => onSave.mock.calls.length === 1);
    expect(onSave).toHaveBeenCalledWith('Zhipu AI');
  });

  it('shows a stored vendor without the mark or an accept button', () => {
    mount(
      storedRow('Z.ai'),
      vi.fn(async () => undefined),
    );
    expect(byId('vendor')!.dataset.proposed).toBe('false');
    expect(byId('vendor')!.textContent).toBe('Z.ai');
    expect(byId('vendor-accept')).toBeNull();
  });

  it('edits in place: Enter saves the trimmed name, an empty name clears, Escape cancels', async () => {
    const onSave = vi.fn(async () => undefined);
    mount(proposedRow(), onSave);
    byId('vendor-edit')!.click();
    await until(() => byId('vendor-input') !== null);
    expect((byId('vendor-input') as HTMLInputElement).value).toBe('Zhipu AI');
    type(byId('vendor-input') as HTMLInputElement, '  Z.ai  ', 'Enter');
    await until(() => onSave.mock.calls.length === 1);
    expect(onSave).toHaveBeenLastCalledWith('Z.ai');
    await until(() => byId('vendor-input') === null);

    byId('vendor-edit')!.click();
    await until(() => byId('vendor-input') !== null);
    type(byId('vendor-input') as HTMLInputElement, '   ', 'Enter');
    await until(() => onSave.mock.calls.length === 2);
    expect(onSave).toHaveBeenLastCalledWith(null);
    await until(() => byId('vendor-input') === null);

    byId('vendor-edit')!.click();
    await until(() => byId('vendor-input') !== null);
    type(byId('vendor-input') as HTMLInputElement, 'Something else', 'Escape');
    await until(() => byId('vendor-input') === null);
    expect(onSave).toHaveBeenCalledTimes(2);
  });

  it('keeps the editor open and says why when saving fails', async () => {
    mount(
      unknownRow(),
      vi.fn(async () => Promise.reject(new Error('store is closed'))),
    );
    expect(byId('vendor-edit')!.textContent).toBe('Set vendor…');
    byId('vendor-edit')!.click();
    await until(() => byId('vendor-input') !== null);
    type(byId('vendor-input') as HTMLInputElement, 'Acme', 'Enter');
    await until(() => (host!.textContent ?? '').includes('store is closed'));
    expect(byId('vendor-input')).not.toBeNull();
  });
});
