import { describe, expect, it } from 'vitest';
import type { ClaimRecord, SourceKind } from '../../../lib/schema';
import { deriveRows, proposeVendor, rowVendor } from '../../../lib/survey';
import { claim, model } from '../fixtures/records';

const NOW = '2026-12-01T00:00:00Z';
let n = 0;
/** A claim from one source: its URL, kind and publisher. */
function from(url: string, kind: SourceKind, publisher: string | null, extra: Partial<ClaimRecord> = {}): ClaimRecord {
  n += 1;
  return claim({ id: `vendor_${String(n).padStart(4, '0')}`, model: 'GLM-5', source: { ...claim().source, url, kind, publisher }, ...extra });
}

describe('proposeVendor', () => {
  it('proposes the publisher of the first-party sources', () => {
    expect(proposeVendor([from('https://z.example/glm-5', 'official_blog', 'Zhipu AI')])).toEqual({ vendor: 'Zhipu AI', sources: 1, claims: 1 });
  });

  it('ignores third parties and unknown publishers', () => {
    const list = [
      from('https://medium.example/a', 'third_party', 'Medium'),
      from('https://medium.example/b', 'third_party', 'Medium'),
      from('https://x.example/c', 'official_blog', null),
      from('https://x.example/d', 'release', '  '),
      from('https://z.example/glm-5', 'technical_report', 'Zhipu AI'),
    ];
    expect(proposeVendor(list)?.vendor).toBe('Zhipu AI');
    expect(proposeVendor(list.slice(0, 4))).toBeNull();
    expect(proposeVendor([])).toBeNull();
  });

  it('counts distinct sources, not claims: one page with many claims does not outvote two pages', () => {
    const list = [
      ...Array.from({ length: 5 }, () => from('https://code.example/THUDM/slime', 'repository', 'THUDM')),
      from('https://z.example/glm-5', 'technical_report', 'Zhipu AI'),
      from('https://z.example/blog/glm-5', 'official_blog', 'Zhipu AI'),
    ];
    expect(proposeVendor(list)).toEqual({ vendor: 'Zhipu AI', sources: 2, claims: 2 });
  });

  it('breaks a tie of sources by claims, then by the best kind of source, then by name', () => {
    const report = from('https://z.example/glm-5', 'technical_report', 'Zhipu AI');
    const repo = from('https://code.example/THUDM/slime', 'repository', 'THUDM');
    expect(proposeVendor([report, report, repo])?.vendor).toBe('Zhipu AI');
    expect(proposeVendor([repo, repo, report])?.vendor).toBe('THUDM');
    expect(proposeVendor([repo, report])?.vendor).toBe('Zhipu AI');
    expect(proposeVendor([from('https://a.example/1', 'release', 'Beta Lab'), from('https://b.example/1', 'release', 'Alpha Lab')])?.vendor).toBe('Alpha Lab');
  });

  it('folds case and white space, showing the spelling most claims use', () => {
    const list = [
      from('https://q.example/1', 'official_blog', 'Qwen Team'),
      from('https://q.example/1', 'official_blog', 'Qwen Team'),
      from('https://q.example/2', 'model_card', 'qwen  team'),
      from('https://o.example/1', 'official_blog', 'Other'),
      from('https://o.example/2', 'official_blog', 'Other'),
    ];
    expect(proposeVendor(list)).toEqual({ vendor: 'Qwen Team', sources: 2, claims: 3 });
  });

  it('does not depend on the order of the claims', () => {
    const list = [
      from('https://a.example/1', 'release', 'A Lab'),
      from('https://b.example/1', 'model_card', 'B Lab'),
      from('https://a.example/2', 'repository', 'a lab'),
      from('https://b.example/2', 'official_blog', 'B Lab'),
      from('https://c.example/1', 'third_party', 'C Blog'),
    ];
    const once = proposeVendor(list);
    for (let i = 0; i < list.length; i++) {
      const rotated = [...list.slice(i), ...list.slice(0, i)];
      expect(proposeVendor(rotated)).toEqual(once);
      expect(proposeVendor(rotated.reverse())).toEqual(once);
    }
    expect(once?.vendor).toBe('B Lab');
  });
});

describe('the proposed vendor of a survey row', () => {
  const claims = [
    from('https://z.example/glm-5', 'technical_report', 'Zhipu AI'),
    from('https://z.example/glm-5', 'technical_report', 'Zhipu AI', { model: 'GLM-5', recipe: 'X' }),
  ];

  it('is proposed from the row’s own claims while no vendor is stored, and marked as proposed', () => {
    const [row] = deriveRows(claims.slice(0, 1), [], { now: NOW });
    expect([row!.vendor, row!.proposedVendor]).toEqual([null, 'Zhipu AI']);
    expect(rowVendor(row!)).toEqual({ name: 'Zhipu AI', proposed: true });
  });

  it('gives way to the stored vendor, even one that differs', () => {
    const [row] = deriveRows(claims.slice(0, 1), [model({ model: 'GLM-5', vendor: 'Z.ai' })], { now: NOW });
    expect(rowVendor(row!)).toEqual({ name: 'Z.ai', proposed: false });
    const [blank] = deriveRows(claims.slice(0, 1), [model({ model: 'GLM-5', vendor: ' ' })], { now: NOW });
    expect(rowVendor(blank!)).toEqual({ name: 'Zhipu AI', proposed: true });
  });

  it('is none for a row whose sources name no first-party publisher', () => {
    const [row] = deriveRows([from('https://m.example/x', 'third_party', 'Medium')], [], { now: NOW });
    expect(rowVendor(row!)).toEqual({ name: null, proposed: false });
  });

  it('is proposed per row: a recipe row from its own claims', () => {
    const rows = deriveRows(claims, [], { now: NOW });
    expect(rows.map((r) => [r.recipe, r.proposedVendor])).toEqual([
      [null, 'Zhipu AI'],
      ['X', 'Zhipu AI'],
    ]);
  });
});
