// A row's evidence explanation as data, said in the panel's language through catalog keys (both catalogs
// hold them: tests/unit/i18n/i18n.test.ts); in English it is exactly the derived text that exports use.
import { describe, expect, it } from 'vitest';
import { evidenceText } from '../../../components/panel/Badges';
import { deriveRows, type SurveyRow } from '../../../lib/survey';
import { claim } from '../fixtures/records';

const NOW = '2026-12-01T00:00:00Z';
const source = (kind: 'technical_report' | 'official_blog' | 'model_card' | 'repository' | 'third_party', url: string) => ({ ...claim().source, kind, url });

/** Rows covering every kind of reason: none, undisclosed only, third party only, one source, several kinds and counts. */
function rows(): SurveyRow[] {
  return [
    ...deriveRows([], [{ schema: 'rl-survey.model/1', model: 'Empty-1', recipe: null, vendor: null, based_on: null, judgment: '', updated_at: NOW } as never], {
      now: NOW,
    }),
    ...deriveRows([claim({ id: 'und_000001', model: 'Und-1', kind: 'undisclosed', value: 'RL stages', evidence: 'C', stage: null })], [], { now: NOW }),
    ...deriveRows([claim({ id: 'thp_000001', model: 'Third-1', evidence: 'B', source: source('third_party', 'https://example.org/t') })], [], { now: NOW }),
    ...deriveRows([claim({ id: 'one_000001', model: 'One-1', evidence: 'A', source: source('technical_report', 'https://example.org/a') })], [], { now: NOW }),
    ...deriveRows(
      [
        claim({ id: 'mix_000001', model: 'Mix-1', evidence: 'B', source: source('official_blog', 'https://example.org/b') }),
        claim({ id: 'mix_000002', model: 'Mix-1', evidence: 'B', source: source('repository', 'https://example.org/r1') }),
        claim({ id: 'mix_000003', model: 'Mix-1', evidence: 'B', source: source('repository', 'https://example.org/r2') }),
        claim({ id: 'mix_000004', model: 'Mix-1', evidence: 'B', source: source('model_card', 'https://example.org/c') }),
      ],
      [],
      { now: NOW },
    ),
  ];
}

describe('evidence explanations', () => {
  it('carry their reason as data, and say it in English exactly as the derived text', () => {
    const all = rows();
    expect(all.map((r) => r.evidenceReason.why)).toEqual(['none', 'undisclosed', 'third_party', 'sources', 'sources']);
    for (const row of all) expect(evidenceText(row.evidenceReason)).toBe(row.evidenceExplanation);
    expect(all[4]!.evidenceExplanation).toBe('B: 4 claims from an official blog, a model card and 2 repositories');
    expect(all[4]!.evidenceReason).toEqual({
      level: 'B',
      why: 'sources',
      claims: 4,
      sources: [
        { kind: 'official_blog', count: 1 },
        { kind: 'model_card', count: 1 },
        { kind: 'repository', count: 2 },
      ],
    });
  });
});
