import { describe, expect, it } from 'vitest';
import { buildClaims, sourceFromFields, validateForm, valuesFromClaim, type ClaimFormValues } from '../../../lib/capture/draft';
import { mintClaimId } from '../../../lib/capture/ids';
import { chooseModel, prefillValues } from '../../../lib/capture/prefill';
import { ClaimRecord } from '../../../lib/schema';
import { claim, formValues } from '../fixtures/records';

const values = (patch: Partial<ClaimFormValues> = {}): ClaimFormValues => formValues({ model: 'GLM-5', ...patch });

const passage = { quote: { exact: 'Reasoning RL uses GRPO + IcePop.', prefix: 'p', suffix: 's' }, position: { start: 3, end: 35 } };
const source = sourceFromFields('https://example.org/r', '2026-11-29', { title: ' Report ', kind: 'technical_report', publisher: '', published: 'soon' });
let n = 0;
const ctx = { passage, source, suggested: 'A' as const, now: '2026-11-30T00:00:00Z', mintId: () => `clm_fixed${String(++n).padStart(4, '0')}` };

describe('validating the claim form', () => {
  it('accepts a complete form', () => {
    expect(validateForm(values(), 'A')).toEqual({});
  });

  it.each([
    ['a missing model', { model: '  ' }, 'model'],
    ['a missing value', { value: ' + ' }, 'value'],
    ['a level that differs from the rules without a reason', { evidence: 'B' as const }, 'evidenceReason'],
  ])('reports %s', (_name, patch, field) => {
    expect(Object.keys(validateForm(values(patch), 'A'))).toContain(field);
  });

  it('accepts a differing level when a reason is given', () => {
    expect(validateForm(values({ evidence: 'B', evidenceReason: 'framework only' }), 'A')).toEqual({});
  });
});

describe('building claim records', () => {
  it('creates one valid claim per value, sharing the passage', () => {
    const claims = buildClaims(values({ value: 'group relative policy optimization + IcePop' }), ctx);
    expect(claims.map((c) => c.value)).toEqual(['GRPO', 'IcePop']);
    expect(new Set(claims.map((c) => c.id)).size).toBe(2);
    for (const c of claims) {
      expect(ClaimRecord.safeParse(c).success).toBe(true);
      expect(c.quote).toEqual(passage.quote);
      expect(c.created_at).toBe('2026-11-30T00:00:00Z');
    }
  });

  it('cleans the source: empty publisher is null, a non-date is null, title trimmed', () => {
    expect(source).toEqual({
      url: 'https://example.org/r',
      title: 'Report',
      kind: 'technical_report',
      publisher: null,
      published: null,
      accessed: '2026-11-29',
    });
  });

  it('keeps id, creation time and unknown fields when editing', () => {
    const existing = claim({ id: 'clm_keep00001', created_at: '2026-01-01T00:00:00Z', extra: 'kept' } as never);
    const [edited] = buildClaims(values({ value: 'GSPO' }), { ...ctx, editing: existing });
    expect(edited).toMatchObject({ id: 'clm_keep00001', created_at: '2026-01-01T00:00:00Z', value: 'GSPO', extra: 'kept' });
    expect(valuesFromClaim(existing).value).toBe('GRPO');
  });

  it('stores the reason only when it is needed or given', () => {
    expect(buildClaims(values(), ctx)[0]!.evidence_reason).toBeNull();
    expect(buildClaims(values({ evidence: 'B', evidenceReason: ' only the framework ' }), ctx)[0]!.evidence_reason).toBe('only the framework');
  });

  it('refuses to build a record that would not validate, with a readable message', () => {
    expect(() => buildClaims(values({ model: 'x'.repeat(300) }), ctx)).toThrow(/cannot be saved: model/);
  });

  it('mints ids the schema accepts, different each time', () => {
    const ids = new Set(Array.from({ length: 200 }, () => mintClaimId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^clm_[A-Za-z0-9]{12}$/);
  });
});

describe('prefilling the form', () => {
  it.each([
    ['the longest model named in the passage', 'DeepSeek-R1-Zero, a model trained via large-scale RL', ['DeepSeek-R1', 'DeepSeek-R1-Zero'], 'DeepSeek-R1-Zero'],
    ['a name not continued by a version', 'we introduce DeepSeek-R1, which incorporates cold-start data', ['DeepSeek-R1', 'DeepSeek-R1-Zero'], 'DeepSeek-R1'],
    ['the page model when the passage names none', 'The second stage focused on scaling up RL.', ['Qwen3'], 'Qwen3'],
    ['nothing when nothing is known', 'Some text.', [], ''],
    [
      'the page’s main model when the passage names it beside a variant',
      'DeepSeek-R1 builds on DeepSeek-R1-Zero by adding cold-start data before RL.',
      ['DeepSeek-R1', 'DeepSeek-R1-Zero'],
      'DeepSeek-R1',
    ],
    [
      'the model named first when the main one is not named',
      'Unlike Qwen3-32B, Qwen3-235B-A22B uses more experts.',
      ['Qwen3', 'Qwen3-32B', 'Qwen3-235B-A22B'],
      'Qwen3-32B',
    ],
    ['not a name inside a longer one', 'The A22B variant uses GRPO.', ['Qwen3', 'A22B'], 'A22B'],
    ['not a short name glued to a longer one', 'Qwen3-235B-A22B uses GRPO.', ['Qwen3', 'A22B'], 'Qwen3'],
  ])('chooses %s', (_name, text, pageModels, expected) => {
    expect(chooseModel(text, pageModels, [])).toBe(expected);
  });

  it('prefills kind, value and evidence from the taxonomy and the source kind', () => {
    const v = prefillValues('Reasoning RL uses GRPO and IcePop with the KL term removed.', { kind: 'technical_report', models: ['GLM-5'] }, ['GLM-5']);
    expect(v.model).toBe('GLM-5');
    expect(v.kind).toBeDefined();
    expect(v.value.length).toBeGreaterThan(0);
    expect(v.evidence).toBe('A');
    const blog = prefillValues('slime is the RL framework behind GLM-5', { kind: 'repository', models: ['GLM-5'] }, []);
    expect(blog).toMatchObject({ kind: 'framework', value: 'slime', evidence: 'B' });
  });
});
