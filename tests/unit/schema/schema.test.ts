import { describe, expect, it } from 'vitest';
import { ClaimRecord, ModelRecord, SurveyRecord, describeZodError, modelKey } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

describe('claim records', () => {
  it('accepts the spec example shape and keeps unknown fields', () => {
    const parsed = ClaimRecord.parse({ ...claim(), extra_field: { kept: true } });
    expect(parsed.extra_field).toEqual({ kept: true });
    expect(parsed.model).toBe('Zeta-2');
  });

  it('accepts optional fields left out', () => {
    const { recipe: _r, stage: _s, evidence_reason: _e, position: _p, link: _l, note: _n, curator: _c, ...minimal } = claim();
    expect(ClaimRecord.safeParse(minimal).success).toBe(true);
  });

  it.each([
    ['id too short', { id: 'abc' }, 'id'],
    ['id with a space', { id: 'clm test 0001' }, 'id'],
    ['unknown kind', { kind: 'vibes' }, 'kind'],
    ['unknown stage', { stage: 'rlhf' }, 'stage'],
    ['empty value', { value: '   ' }, 'value'],
    ['value over 200 characters', { value: 'x'.repeat(201) }, 'value'],
    ['evidence D', { evidence: 'D' }, 'evidence'],
    ['empty quote', { quote: { exact: '', prefix: '', suffix: '' } }, 'quote.exact'],
    ['prefix over 64 characters', { quote: { exact: 'a', prefix: 'p'.repeat(65), suffix: '' } }, 'quote.prefix'],
    ['position end before start', { position: { start: 10, end: 5 } }, 'position'],
    ['non-http source URL', { source: { ...claim().source, url: 'javascript:alert(1)' } }, 'source.url'],
    ['relative source URL', { source: { ...claim().source, url: '/blog/x' } }, 'source.url'],
    ['bad published date', { source: { ...claim().source, published: '29/11/2026' } }, 'source.published'],
    ['unknown source kind', { source: { ...claim().source, kind: 'tweet' } }, 'source.kind'],
    ['local timestamp', { created_at: '2026-11-29 10:00' }, 'created_at'],
    ['timestamp with offset', { updated_at: '2026-11-29T10:00:00+08:00' }, 'updated_at'],
    ['empty model', { model: '' }, 'model'],
  ])('rejects %s', (_name, patch, path) => {
    const result = ClaimRecord.safeParse({ ...claim(), ...patch });
    expect(result.success).toBe(false);
    if (!result.success) expect(describeZodError(result.error)).toContain(path);
  });
});

describe('model records and the union', () => {
  it('accepts a model record and tells records apart by schema', () => {
    expect(ModelRecord.parse(model()).vendor).toBe('Zeta Lab');
    expect(SurveyRecord.parse(model()).schema).toBe('rl-survey.model/1');
    expect(SurveyRecord.parse(claim()).schema).toBe('rl-survey.claim/1');
  });

  it('rejects an unknown schema version', () => {
    expect(SurveyRecord.safeParse({ ...claim(), schema: 'rl-survey.claim/2' }).success).toBe(false);
  });

  it('keys model rows by model and recipe', () => {
    expect(modelKey('MiniMax M3', null)).toBe('MiniMax M3');
    expect(modelKey('MiniMax M3', 'MaxProof')).not.toBe(modelKey('MiniMax M3', null));
  });
});
