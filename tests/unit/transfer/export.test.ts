import { describe, expect, it } from 'vitest';
import { parseSurveyJsonl } from '../../../lib/import/jsonl';
import {
  escapeCsvCell,
  escapeMarkdown,
  fromW3cAnnotations,
  renderSurveyTable,
  serializeRecord,
  textFragmentLink,
  toJsonl,
  toW3cAnnotations,
} from '../../../lib/export';
import type { ClaimRecord } from '../../../lib/schema';
import { deriveRows } from '../../../lib/survey';
import { claim, model } from '../fixtures/records';

const NOW = '2026-12-01T00:00:00Z';

/** A minimal RFC 4180 reader for checking our CSV (quoted fields, doubled quotes, CRLF). */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The cells of a Markdown table line, unescaped pipes kept as separators. */
function mdCells(line: string): string[] {
  return line.slice(2, -2).split(/(?<!\\) \| /);
}

describe('toJsonl', () => {
  const a = claim({ id: 'clm_b_000001', model: 'GLM-5', source: { ...claim().source, url: 'https://b.example/' }, position: null });
  const b = claim({ id: 'clm_a_000002', model: 'GLM-5', source: { ...claim().source, url: 'https://b.example/' }, position: { start: 5, end: 9 } });
  const c = claim({ id: 'clm_c_000003', model: 'GLM-5', recipe: 'Air', source: { ...claim().source, url: 'https://a.example/' } });
  const d = claim({ id: 'clm_d_000004', model: 'GLM-5', source: { ...claim().source, url: 'https://a.example/' }, position: { start: 900, end: 901 } });
  const e = claim({ id: 'clm_e_000005', model: 'Alpha-1' });
  const m1 = model({ model: 'GLM-5' });
  const m2 = model({ model: 'GLM-5', recipe: 'Air' });

  it('sorts by model, recipe (null first), url, position (null last), id, with a row’s model record after its claims', () => {
    const text = toJsonl([a, b, c, d, e], [m2, m1]);
    const order = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id?: string; model: string; recipe: string | null });
    expect(order.map((r) => r.id ?? `model:${r.model}/${r.recipe}`)).toEqual([
      'clm_e_000005',
      'clm_d_000004',
      'clm_a_000002',
      'clm_b_000001',
      'model:GLM-5/null',
      'clm_c_000003',
      'model:GLM-5/Air',
    ]);
  });

  it('is byte-identical whatever the input order, with \\n line ends and a trailing newline', () => {
    const one = toJsonl([a, b, c, d, e], [m1, m2]);
    const two = toJsonl([e, d, c, b, a], [m2, m1]);
    expect(two).toBe(one);
    expect(one.endsWith('}\n')).toBe(true);
    expect(one).not.toMatch(/\r| \n/);
    expect(toJsonl([], [])).toBe('');
  });

  it('writes keys in the spec’s order, fills optional fields, keeps unknown fields after the known ones', () => {
    const odd = {
      extra_b: 1,
      updated_at: '2026-11-29T10:00:00Z',
      created_at: '2026-11-29T10:00:00Z',
      source: { accessed: '2026-11-29', kind: 'repository', title: 'T', url: 'https://x.example/', mirror: 'y' },
      quote: { suffix: '', exact: 'slime', prefix: '', selector_version: 2 },
      evidence: 'B',
      value: 'slime',
      kind: 'framework',
      model: 'GLM-5',
      id: 'clm_odd00001',
      schema: 'rl-survey.claim/1',
      extra_a: { z: 1, a: 2 },
    } as unknown as ClaimRecord;
    expect(toJsonl([odd], [])).toBe(
      '{"schema":"rl-survey.claim/1","id":"clm_odd00001","model":"GLM-5","recipe":null,"kind":"framework","stage":null,"value":"slime","evidence":"B","evidence_reason":null,' +
        '"quote":{"exact":"slime","prefix":"","suffix":"","selector_version":2},"position":null,' +
        '"source":{"url":"https://x.example/","title":"T","kind":"repository","publisher":null,"published":null,"accessed":"2026-11-29","mirror":"y"},' +
        '"link":null,"note":"","curator":"","created_at":"2026-11-29T10:00:00Z","updated_at":"2026-11-29T10:00:00Z","extra_b":1,"extra_a":{"z":1,"a":2}}\n',
    );
    expect(toJsonl([], [{ updated_at: '2026-11-29T10:05:00Z', model: 'GLM-5', schema: 'rl-survey.model/1' }])).toBe(
      '{"schema":"rl-survey.model/1","model":"GLM-5","recipe":null,"vendor":null,"based_on":null,"judgment":"","updated_at":"2026-11-29T10:05:00Z"}\n',
    );
  });

  it('matches the spec’s example byte for byte and round-trips through the parser', () => {
    const example =
      '{"schema":"rl-survey.claim/1","id":"clm_7Qm2xK9pT4","model":"GLM-5","recipe":null,"kind":"framework","stage":null,"value":"slime","evidence":"B","evidence_reason":null,"quote":{"exact":"slime is the RL framework behind GLM-5.2, GLM-5.1, GLM-5","prefix":"ted by frontier model training: ","suffix":", GLM-4.7, GLM-4.6, and GLM-4.5."},"position":{"start":1835,"end":1891},"source":{"url":"https://github.com/THUDM/slime","title":"THUDM/slime","kind":"repository","publisher":"THUDM","published":null,"accessed":"2026-11-29"},"link":"https://github.com/THUDM/slime#:~:text=slime%20is%20the%20RL%20framework%20behind%20GLM%2D5.2","note":"","curator":"","created_at":"2026-11-29T10:00:00Z","updated_at":"2026-11-29T10:00:00Z"}\n' +
      '{"schema":"rl-survey.model/1","model":"GLM-5","recipe":null,"vendor":"Zhipu AI","based_on":null,"judgment":"One of the few models whose full RL recipe can be reconstructed from public material.","updated_at":"2026-11-29T10:05:00Z"}\n';
    const { records, errors } = parseSurveyJsonl(example);
    expect(errors).toEqual([]);
    const claims = records.filter((r): r is ClaimRecord => r.schema === 'rl-survey.claim/1');
    const models = records.filter((r) => r.schema === 'rl-survey.model/1');
    expect(toJsonl(claims, models as never)).toBe(example);
  });

  it('drops exact duplicates', () => {
    expect(toJsonl([a, { ...a }], [])).toBe(toJsonl([a], []));
  });
});

describe('renderSurveyTable', () => {
  const release = {
    url: 'https://mm.example/news/m3',
    title: 'MiniMax M3 release',
    kind: 'release' as const,
    publisher: 'MiniMax',
    published: null,
    accessed: '2026-11-20',
  };
  const report = {
    url: 'https://arxiv.example/abs/1',
    title: 'MaxProof report for MiniMax-M3',
    kind: 'technical_report' as const,
    publisher: 'MiniMax',
    published: null,
    accessed: '2026-11-21',
  };
  const quote = (exact: string) => ({ exact, prefix: '', suffix: '' });
  const claims = [
    claim({
      id: 'm3_undiscl_1',
      model: 'MiniMax M3',
      kind: 'undisclosed',
      stage: null,
      value: 'RL stages',
      evidence: 'C',
      source: release,
      quote: quote('MiniMax M3 is available today.'),
    }),
    claim({
      id: 'mp_cispo_01',
      model: 'MiniMax M3',
      recipe: 'MaxProof',
      value: 'CISPO',
      stage: 'reasoning_rl',
      source: report,
      quote: quote('Proof RL uses CISPO.'),
    }),
    claim({
      id: 'mp_stage_01',
      model: 'MiniMax M3',
      recipe: 'MaxProof',
      kind: 'stage',
      value: 'Reasoning RL',
      stage: 'reasoning_rl',
      source: report,
      position: { start: 1, end: 9 },
      quote: quote('Proof RL uses CISPO.'),
    }),
    claim({ id: 'mp_rsft_001', model: 'MiniMax M3', recipe: 'MaxProof', value: 'rejection-sampling fine-tuning', stage: 'sft_distillation', source: report }),
    claim({ id: 'mp_filter01', model: 'MiniMax M3', recipe: 'MaxProof', kind: 'reward', value: 'std-threshold filter', stage: null, source: report }),
    claim({
      id: 'mp_forge_01',
      model: 'MiniMax M3',
      recipe: 'MaxProof',
      kind: 'framework',
      value: 'forge',
      stage: null,
      evidence: 'B',
      source: report,
      quote: quote('Proof RL ran on forge.'),
    }),
  ];
  const rows = deriveRows(claims, [model({ model: 'MiniMax M3', judgment: 'General recipe not disclosed.' })], { now: NOW });
  const defaultQuote = 'Reasoning RL uses GRPO with the KL term removed.';
  const fragment = (url: string, text: string) => `${url}#:~:text=${encodeURIComponent(text).replace(/-/g, '%2D')}`;

  it('renders Markdown in the seed’s column order with mixed evidence, recipe labels, and a footnote per quoted passage', () => {
    const md = renderSurveyTable(rows, { format: 'md', lang: 'en' });
    const lines = md.split('\n');
    expect(lines[0]).toBe('| Model | Evidence | RL framework / system | Public RL stages and algorithms | Design intention | Current judgment |');
    expect(lines[1]).toBe('|---|---|---|---|---|---|');
    expect(mdCells(lines[2]!)).toEqual([
      'MiniMax M3',
      'C / A',
      'not disclosed (checked 2026-11-20)',
      'Not disclosed: RL stages[^1]',
      'not disclosed (checked 2026-11-20)',
      'General recipe not disclosed.',
    ]);
    // Claims quoting the same words on the same page share a footnote (CISPO and the Reasoning RL stage; the two default quotes).
    expect(mdCells(lines[3]!)).toEqual([
      'MiniMax M3 · MaxProof',
      'A',
      'forge[^2]',
      'SFT / Distillation: rejection-sampling fine-tuning[^3]; Reasoning RL[^4]: CISPO[^4]; std-threshold filter[^3]',
      'not disclosed (checked 2026-11-21)',
      'no judgment yet',
    ]);
    expect(lines.slice(4)).toEqual([
      '',
      `[^1]: “MiniMax M3 is available today.” — MiniMax M3 release <${fragment('https://mm.example/news/m3', 'MiniMax M3 is available today.')}>`,
      `[^2]: “Proof RL ran on forge.” — MaxProof report for MiniMax-M3 <${fragment('https://arxiv.example/abs/1', 'Proof RL ran on forge.')}>`,
      `[^3]: “${defaultQuote}” — MaxProof report for MiniMax-M3 <${fragment('https://arxiv.example/abs/1', defaultQuote)}>`,
      `[^4]: “Proof RL uses CISPO.” — MaxProof report for MiniMax-M3 <${fragment('https://arxiv.example/abs/1', 'Proof RL uses CISPO.')}>`,
      '',
    ]);
  });

  it('keeps a recipe row right after its model row whatever the order given, and uses Chinese labels', () => {
    const md = renderSurveyTable([...rows].reverse(), { format: 'md', lang: 'zh' });
    const lines = md.split('\n');
    expect(lines[0]).toBe('| 模型 | 证据等级 | RL 框架 / 系统 | 公开的 RL 阶段与算法 | 设计意图 | 当前判断 |');
    expect(mdCells(lines[2]!).slice(0, 4)).toEqual(['MiniMax M3', 'C / A', '未公开（截至 2026-11-20）', '未公开：RL stages[^1]']);
    expect(mdCells(lines[3]!)[0]).toBe('MiniMax M3 · MaxProof');
    expect(mdCells(lines[2]!)[5]).toBe('General recipe not disclosed.');
    expect(mdCells(lines[3]!)[5]).toBe('暂无判断');
    expect(lines[5]).toBe(
      `[^1]: “MiniMax M3 is available today.” — MiniMax M3 release <${fragment('https://mm.example/news/m3', 'MiniMax M3 is available today.')}>`,
    );
  });

  it('shows a lone recipe row with its own level and a claimless row as not disclosed without a date', () => {
    const alone = rows.filter((r) => r.recipe !== null);
    expect(mdCells(renderSurveyTable(alone, { format: 'md', lang: 'en' }).split('\n')[2]!)[1]).toBe('A');
    const empty = deriveRows([], [model({ model: 'Kimi K2.7 Code', judgment: '' })], { now: NOW });
    expect(mdCells(renderSurveyTable(empty, { format: 'md', lang: 'zh' }).split('\n')[2]!)).toEqual([
      'Kimi K2.7 Code',
      'C',
      '未公开',
      '未公开',
      '未公开',
      '暂无判断',
    ]);
  });

  describe('an undisclosed claim stands in the cell it speaks about', () => {
    const src = { ...release, url: 'https://k.example/kimi-k2.6', title: 'Kimi K2.6' };
    const undisclosed = (id: string, value: string, stage: ClaimRecord['stage'] = null) =>
      claim({ id, model: 'Kimi K2.6', kind: 'undisclosed', stage, value, evidence: 'C', source: src, quote: quote(`${value} are not described.`) });
    const cells = (list: ClaimRecord[], lang: 'en' | 'zh', judgment = 'Continuity with K2.5 only.') =>
      mdCells(renderSurveyTable(deriveRows(list, [model({ model: 'Kimi K2.6', judgment })], { now: NOW }), { format: 'md', lang }).split('\n')[2]!);

    it.each([
      [
        'en',
        [undisclosed('k26_und_001', 'training framework')],
        ['Not disclosed: training framework[^1]', 'not disclosed (checked 2026-11-20)', 'not disclosed (checked 2026-11-20)'],
      ],
      ['zh', [undisclosed('k26_und_001', 'training framework')], ['未公开：training framework[^1]', '未公开（截至 2026-11-20）', '未公开（截至 2026-11-20）']],
      [
        'zh',
        [undisclosed('k26_und_002', 'RL stages, rewards and algorithms')],
        ['未公开（截至 2026-11-20）', '未公开：RL stages, rewards and algorithms[^1]', '未公开（截至 2026-11-20）'],
      ],
      [
        'en',
        [undisclosed('k26_und_003', 'Agentic RL', 'agentic_rl')],
        ['not disclosed (checked 2026-11-20)', 'Agentic / Tool RL: not disclosed[^1]', 'not disclosed (checked 2026-11-20)'],
      ],
      [
        'zh',
        [undisclosed('k26_und_009', 'Agentic / Tool RL', 'agentic_rl')],
        ['未公开（截至 2026-11-20）', 'Agentic / Tool RL：未公开[^1]', '未公开（截至 2026-11-20）'],
      ],
      [
        'en',
        [undisclosed('k26_und_004', 'reward design', 'reasoning_rl')],
        ['not disclosed (checked 2026-11-20)', 'Reasoning RL: reward design not disclosed[^1]', 'not disclosed (checked 2026-11-20)'],
      ],
      [
        'zh',
        [undisclosed('k26_und_010', '奖励设计', 'reasoning_rl')],
        ['未公开（截至 2026-11-20）', 'Reasoning RL：奖励设计未公开[^1]', '未公开（截至 2026-11-20）'],
      ],
      [
        'en',
        [undisclosed('k26_und_005', 'design intention')],
        ['not disclosed (checked 2026-11-20)', 'not disclosed (checked 2026-11-20)', 'Not disclosed: design intention[^1]'],
      ],
      [
        'en',
        [undisclosed('k26_und_006', 'general RL details')],
        ['not disclosed (checked 2026-11-20)', 'Not disclosed: general RL details[^1]', 'not disclosed (checked 2026-11-20)'],
      ],
      [
        'en',
        [undisclosed('k26_und_007', 'RL framework and stages')],
        ['Not disclosed: RL framework and stages[^1]', 'Not disclosed: RL framework and stages[^1]', 'not disclosed (checked 2026-11-20)'],
      ],
      [
        'en',
        [
          undisclosed('k26_und_008', 'RL stages'),
          claim({ id: 'k26_grpo_01', model: 'Kimi K2.6', value: 'GRPO', stage: 'reasoning_rl', evidence: 'B', source: { ...src, kind: 'official_blog' } }),
        ],
        ['not disclosed (checked 2026-11-20)', 'Reasoning RL: GRPO[^1]; Not disclosed: RL stages[^2]', 'not disclosed (checked 2026-11-20)'],
      ],
    ] as Array<['en' | 'zh', ClaimRecord[], string[]]>)('%s %#', (lang, list, [framework, stages, intention]) => {
      const c = cells(list, lang);
      expect([c[2], c[3], c[4]]).toEqual([framework, stages, intention]);
      expect(c[5]).toBe('Continuity with K2.5 only.');
    });

    it('leaves the judgment cell to the curator: "no judgment yet" even when the row has undisclosed claims', () => {
      expect(cells([undisclosed('k26_und_001', 'training framework')], 'en', '')[5]).toBe('no judgment yet');
      expect(cells([undisclosed('k26_und_001', 'training framework')], 'zh', '')[5]).toBe('暂无判断');
    });
  });

  describe('footnotes carry the passage', () => {
    const render = (list: ClaimRecord[], format: 'md' | 'csv' | 'json' = 'md') => renderSurveyTable(deriveRows(list, [], { now: NOW }), { format, lang: 'en' });
    const notesOf = (md: string) => md.split('\n').filter((l) => l.startsWith('[^'));

    it('cuts a long quote at a word before 300 characters', () => {
      const long = `${'word '.repeat(100)}end`;
      const [note] = notesOf(render([claim({ id: 'long_quote1', quote: quote(long) })]));
      const quoted = /“(.*)”/.exec(note!)![1]!;
      expect(quoted.length).toBeLessThanOrEqual(300);
      expect(quoted).toMatch(/^(word )+word…$/);
      expect(note).toContain('#:~:text=word%20word');
    });

    it('leaves out quoted words that are only the page title (a "not disclosed" record made from the panel)', () => {
      const c = claim({
        id: 'title_quote',
        kind: 'undisclosed',
        stage: 'agentic_rl',
        value: 'Agentic RL',
        quote: quote('Zeta-2 Technical Report'),
        link: 'https://example.org/zeta-2-report',
      });
      expect(notesOf(render([c]))).toEqual(['[^1]: Zeta-2 Technical Report <https://example.org/zeta-2-report>']);
    });

    it('links a claim on a PDF to its page and a claim with a stored link to that link', () => {
      const pdf = claim({ id: 'pdf_claim01', pdf: { fingerprint: 'abc', page: 7, arxiv: null } });
      const stored = claim({ id: 'stored_link', value: 'GSPO', quote: quote('GSPO is used.'), link: 'https://example.org/zeta-2-report#:~:text=GSPO' });
      expect(notesOf(render([pdf, stored]))).toEqual([
        `[^1]: “${defaultQuote}” — Zeta-2 Technical Report <https://example.org/zeta-2-report#page=7>`,
        '[^2]: “GSPO is used.” — Zeta-2 Technical Report <https://example.org/zeta-2-report#:~:text=GSPO>',
      ]);
    });

    it('falls back to the page when a stored link is not http(s)', () => {
      const bad = claim({ id: 'bad_link_01', link: 'javascript:alert(1)' });
      const [note] = notesOf(render([bad]));
      expect(note).toBe(`[^1]: “${defaultQuote}” — Zeta-2 Technical Report <https://example.org/zeta-2-report>`);
    });

    it('escapes quoted words in Markdown and keeps them whole in CSV and JSON', () => {
      const hostile = claim({ id: 'hostile_q01', quote: quote('Use <img src=x onerror=alert(1)> | [x](javascript:y) *now*') });
      const [note] = notesOf(render([hostile]));
      expect(note).toContain('“Use &lt;img src=x onerror=alert(1)&gt; \\| \\[x\\](javascript:y) \\*now\\*”');
      expect(note).not.toMatch(/<img|(?<!\\)\]\(/);
      const csv = readCsv(render([hostile], 'csv'));
      expect(csv[1]![6]).toContain(
        '“Use <img src=x onerror=alert(1)> | [x](javascript:y) *now*” — Zeta-2 Technical Report <https://example.org/zeta-2-report#:~:text=',
      );
      const json = JSON.parse(render([hostile], 'json')) as { footnotes: Array<Record<string, string>> };
      expect(json.footnotes[0]!.quote).toBe('Use <img src=x onerror=alert(1)> | [x](javascript:y) *now*');
    });
  });

  describe('tombstones render nothing', () => {
    const live = claim({ id: 'live_claim1', value: 'GRPO' });
    const dead = claim({
      id: 'dead_claim1',
      value: 'PPO',
      quote: quote('We used PPO.'),
      deleted_at: '2026-11-30T10:00:00Z',
      updated_at: '2026-11-30T10:00:00Z',
    });
    const deadRow = claim({ id: 'dead_claim2', model: 'Gone-1', value: 'DPO', quote: quote('Gone-1 used DPO.'), deleted_at: '2026-11-30T10:00:00Z' });

    it.each(['md', 'csv', 'json'] as const)('in %s: no value, no footnote, no row of deleted claims only', (format) => {
      const out = renderSurveyTable(deriveRows([live, dead, deadRow], [], { now: NOW }), { format, lang: 'en' });
      expect(out).toContain('GRPO');
      for (const gone of ['PPO', 'We used PPO', 'Gone-1', 'DPO']) expect(out).not.toContain(gone);
      expect(out).toBe(renderSurveyTable(deriveRows([live], [], { now: NOW }), { format, lang: 'en' }));
    });

    it('drops a deleted model record: its judgment and vendor are gone', () => {
      const deletedModel = model({ judgment: 'Withdrawn.', deleted_at: '2026-11-30T10:00:00Z' } as never);
      const [row] = deriveRows([live], [deletedModel], { now: NOW });
      expect([row!.judgment, row!.vendor]).toEqual(['', null]);
    });
  });

  it('escapes Markdown so nothing in a cell can break the table, link or run', () => {
    const hostile = claim({
      id: 'hostile_001',
      model: 'Evil|Model <b>',
      value: 'x | y <script>alert(1)</script> & [link](javascript:alert(1))\nnext *bold* `code` \\',
      source: { ...claim().source, title: 'A <img src=x onerror=alert(1)> title | pipe', url: 'https://e.example/a b?<x>' },
    });
    const md = renderSurveyTable(deriveRows([hostile], [model({ model: 'Evil|Model <b>', judgment: 'line one\r\nline two | three' })], { now: NOW }), {
      format: 'md',
      lang: 'en',
    });
    expect(md).not.toMatch(/<script|<img|<b>|(?<!\\)\]\(/);
    const lines = md.split('\n');
    expect(lines).toHaveLength(6);
    const cells = mdCells(lines[2]!);
    expect(cells).toHaveLength(6);
    expect(cells[0]).toBe('Evil\\|Model &lt;b&gt;');
    expect(cells[3]).toContain('x \\| y &lt;script&gt;alert(1)&lt;/script&gt; &amp; \\[link\\](javascript:alert(1)) next \\*bold\\* \\`code\\` \\\\[^1]');
    expect(cells[5]).toBe('line one line two \\| three');
    expect(lines[4]).toBe(
      `[^1]: “${defaultQuote}” — A &lt;img src=x onerror=alert(1)&gt; title \\| pipe <https://e.example/a%20b?%3Cx%3E#:~:text=Reasoning%20RL%20uses%20GRPO%20with%20the%20KL%20term%20removed.>`,
    );
    expect(escapeMarkdown('a\u2028b')).toBe('a b');
  });

  it('writes RFC 4180 CSV with a sources column and neutralised formulas', () => {
    const tricky = [
      claim({ id: 'csv_formula', model: '=HYPERLINK("http://evil.example","click")', value: '+1', kind: 'framework', stage: null }),
      claim({ id: 'csv_minus01', model: '@SUM(A1)', value: '-2, "quoted"', kind: 'framework', stage: null }),
    ];
    const csv = renderSurveyTable(deriveRows(tricky, [], { now: NOW }), { format: 'csv', lang: 'en' });
    expect(csv.endsWith('\r\n')).toBe(true);
    const table = readCsv(csv);
    expect(table[0]).toEqual([
      'Model',
      'Evidence',
      'RL framework / system',
      'Public RL stages and algorithms',
      'Design intention',
      'Current judgment',
      'Sources',
    ]);
    expect(table.every((r) => r.length === 7)).toBe(true);
    const byModel = Object.fromEntries(table.slice(1).map((r) => [r[0], r]));
    expect(Object.keys(byModel).sort()).toEqual(['\'=HYPERLINK("http://evil.example","click")', "'@SUM(A1)"]);
    expect(byModel["'@SUM(A1)"]![2]).toBe('\'-2, "quoted"[1]');
    expect(byModel['\'=HYPERLINK("http://evil.example","click")']![2]).toBe("'+1[1]");
    expect(byModel["'@SUM(A1)"]![6]).toBe(
      '[1] “Reasoning RL uses GRPO with the KL term removed.” — Zeta-2 Technical Report <https://example.org/zeta-2-report#:~:text=Reasoning%20RL%20uses%20GRPO%20with%20the%20KL%20term%20removed.>',
    );
    for (const row of table) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('escapes CSV cells per OWASP and RFC 4180', () => {
    expect(escapeCsvCell('=1+1')).toBe("'=1+1");
    expect(escapeCsvCell('\tx')).toBe("'\tx");
    expect(escapeCsvCell('\rx')).toBe('"\'\rx"');
    expect(escapeCsvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(escapeCsvCell('plain')).toBe('plain');
  });

  it('renders JSON with columns, rows and numbered footnotes with their passages', () => {
    const doc = JSON.parse(renderSurveyTable(rows, { format: 'json', lang: 'zh' })) as {
      lang: string;
      columns: Array<{ id: string; label: string }>;
      rows: Array<Record<string, unknown>>;
      footnotes: Array<{ n: number; title: string; url: string; link: string; quote: string }>;
    };
    expect(doc.lang).toBe('zh');
    expect(doc.columns.map((c) => c.id)).toEqual(['model', 'evidence', 'framework', 'stages', 'intention', 'judgment']);
    expect(doc.rows.map((r) => [r.label, r.evidence, r.recipe])).toEqual([
      ['MiniMax M3', 'C / A', null],
      ['MiniMax M3 · MaxProof', 'A', 'MaxProof'],
    ]);
    expect(doc.rows[1]!.framework).toBe('forge[2]');
    expect(doc.rows[1]!.sources).toEqual([2, 3, 4]);
    expect(doc.footnotes.map((f) => [f.n, f.title, f.url, f.quote])).toEqual([
      [1, 'MiniMax M3 release', 'https://mm.example/news/m3', 'MiniMax M3 is available today.'],
      [2, 'MaxProof report for MiniMax-M3', 'https://arxiv.example/abs/1', 'Proof RL ran on forge.'],
      [3, 'MaxProof report for MiniMax-M3', 'https://arxiv.example/abs/1', defaultQuote],
      [4, 'MaxProof report for MiniMax-M3', 'https://arxiv.example/abs/1', 'Proof RL uses CISPO.'],
    ]);
    expect(doc.footnotes[1]!.link).toBe(fragment('https://arxiv.example/abs/1', 'Proof RL ran on forge.'));
  });

  it('renders an empty table as its header', () => {
    expect(renderSurveyTable([], { format: 'md', lang: 'en' }).split('\n')).toHaveLength(3);
    expect(readCsv(renderSurveyTable([], { format: 'csv', lang: 'zh' }))).toEqual([
      ['模型', '证据等级', 'RL 框架 / 系统', '公开的 RL 阶段与算法', '设计意图', '当前判断', '来源'],
    ]);
  });
});

describe('W3C Web Annotations', () => {
  const claims = [
    claim({ id: 'w3c_claim_01', note: 'checked twice', curator: 'ana', extra: { kept: true } }),
    claim({ id: 'w3c_claim_02', position: null, model: 'GLM-5', curator: '' }),
  ];

  it('exports a collection of classifying annotations with quote and position selectors', () => {
    const doc = toW3cAnnotations(claims);
    expect(doc['@context']).toBe('http://www.w3.org/ns/anno.jsonld');
    expect(doc.type).toBe('AnnotationCollection');
    expect(doc.total).toBe(2);
    const [glm, zeta] = doc.first.items;
    expect(glm!.id).toBe('urn:rl-survey:claim:w3c_claim_02');
    expect(glm!.creator).toBeUndefined();
    expect(glm!.target.selector).toEqual([
      { type: 'TextQuoteSelector', exact: claims[1]!.quote.exact, prefix: claims[1]!.quote.prefix, suffix: claims[1]!.quote.suffix },
    ]);
    expect(zeta).toMatchObject({
      type: 'Annotation',
      motivation: 'classifying',
      created: '2026-11-29T10:00:00Z',
      modified: '2026-11-29T10:00:00Z',
      creator: { type: 'Person', nickname: 'ana' },
      target: {
        source: 'https://example.org/zeta-2-report',
        selector: [{ type: 'TextQuoteSelector' }, { type: 'TextPositionSelector', start: 120, end: 168 }],
      },
    });
    expect(zeta!.body.map((b) => [b.purpose, b.format ?? null])).toEqual([
      ['classifying', 'application/json'],
      ['tagging', null],
      ['commenting', null],
    ]);
    expect(JSON.parse(zeta!.body[0]!.value)).toMatchObject({
      model: 'Zeta-2',
      kind: 'algorithm',
      stage: 'reasoning_rl',
      value: 'GRPO',
      evidence: 'A',
      extra: { kept: true },
    });
  });

  it('reads its own export back, losslessly, from the object or its JSON text', () => {
    const doc = toW3cAnnotations(claims);
    for (const input of [doc, JSON.stringify(doc)]) {
      const { records, errors } = fromW3cAnnotations(input);
      expect(errors).toEqual([]);
      expect(records.map(serializeRecord).sort()).toEqual(claims.map(serializeRecord).sort());
    }
  });

  it('lets the target’s selectors win and names bad annotations by index', () => {
    const doc = toW3cAnnotations(claims);
    const [first, second] = doc.first.items;
    const edited = {
      ...first!,
      target: { source: 'https://moved.example/page', selector: [{ type: 'TextQuoteSelector', exact: 'edited passage', prefix: 'p', suffix: 's' }] },
    };
    const result = fromW3cAnnotations([
      edited,
      { type: 'Annotation', body: { type: 'TextualBody', value: 'just a comment' } },
      { ...second!, body: [{ type: 'TextualBody', format: 'application/json', value: '{"schema":"rl-survey.claim/1","id":"x"}' }] },
      'nope',
    ]);
    expect(result.records).toHaveLength(1);
    expect(result.records[0]!.quote).toEqual({ exact: 'edited passage', prefix: 'p', suffix: 's' });
    expect(result.records[0]!.source.url).toBe('https://moved.example/page');
    expect(result.errors.map((e) => e.index)).toEqual([2, 3, 4]);
    expect(result.errors[0]!.message).toMatch(/no claim body/);
    expect(result.errors[1]!.message).toMatch(/^id:/);
    expect(result.errors[2]!.message).toBe('expected an annotation object');
    expect(fromW3cAnnotations('{oops').errors[0]!.message).toMatch(/not valid JSON/);
    expect(fromW3cAnnotations({ type: 'Something' }).errors[0]!.index).toBe(0);
  });
});

/** Splits a text-fragment link into its decoded directive parts. */
function directive(link: string): { base: string; prefix: string | null; start: string; end: string | null; suffix: string | null } {
  const [base, text] = link.split(':~:text=') as [string, string];
  const parts = text.split(',');
  const prefix = parts[0]!.endsWith('-') ? decodeURIComponent(parts.shift()!.slice(0, -1)) : null;
  const suffix = parts[parts.length - 1]!.startsWith('-') ? decodeURIComponent(parts.pop()!.slice(1)) : null;
  return { base, prefix, start: decodeURIComponent(parts[0]!), end: parts[1] === undefined ? null : decodeURIComponent(parts[1]), suffix };
}

describe('textFragmentLink', () => {
  const url = 'https://example.org/report';

  it('links a distinctive passage with textStart only', () => {
    expect(textFragmentLink(url, { exact: 'Reasoning RL uses GRPO with the KL term removed.', prefix: 'x ', suffix: ' y' })).toBe(
      'https://example.org/report#:~:text=Reasoning%20RL%20uses%20GRPO%20with%20the%20KL%20term%20removed.',
    );
  });

  it('percent-encodes -, comma and & as the spec requires, and collapses white space', () => {
    expect(textFragmentLink(url, { exact: 'GLM-5,  slime &\n SGLang (async)' })).toBe(
      'https://example.org/report#:~:text=GLM%2D5%2C%20slime%20%26%20SGLang%20(async)',
    );
  });

  it('adds whole-word context to a short passage when there is no page text', () => {
    const link = textFragmentLink(url, { exact: 'GRPO', prefix: 'ted by frontier model training: ', suffix: ', GLM-4.7, GLM-4.6, and GLM-4.5.' });
    const d = directive(link);
    // "ted" is the cut-off end of a longer word: dropped.
    expect(d.prefix).toBe('by frontier model training:');
    expect(d.start).toBe('GRPO');
    expect(d.end).toBeNull();
    expect(', GLM-4.7, GLM-4.6, and GLM-4.5.'.startsWith(d.suffix!)).toBe(true);
    expect(d.suffix!.length).toBeLessThanOrEqual(30);
    expect(link).toContain(',-%2C%20GLM%2D4.7');
  });

  it('keeps a short context whole: it cannot have been cut', () => {
    expect(directive(textFragmentLink(url, { exact: 'GRPO', prefix: 'We use ', suffix: ' here' }))).toMatchObject({ prefix: 'We use', suffix: 'here' });
  });

  it('uses page text to decide: unique → no context, repeated → context', () => {
    const page = 'Stage two uses GRPO.  Stage three uses PPO with a critic. Stage four uses GRPO again.';
    expect(textFragmentLink(url, { exact: 'PPO', prefix: 'Stage three uses ', suffix: ' with a critic.' }, page)).toBe(`${url}#:~:text=PPO`);
    const d = directive(textFragmentLink(url, { exact: 'uses GRPO again', prefix: 'critic. Stage four ', suffix: '.' }, page));
    expect(d).toMatchObject({ prefix: null, start: 'uses GRPO again', suffix: null });
    const ambiguous = directive(
      textFragmentLink(
        url,
        { exact: 'Reasoning RL uses GRPO with the KL term removed', prefix: 'after the cold start. ', suffix: ' and a length penalty' },
        'Reasoning RL uses GRPO with the KL term removed. Later: after the cold start. Reasoning RL uses GRPO with the KL term removed and a length penalty',
      ),
    );
    expect(ambiguous.prefix).toBe('after the cold start.');
    expect(ambiguous.suffix).toBe('and a length penalty');
    // Not found in the page text (it changed): context, to be safe.
    expect(directive(textFragmentLink(url, { exact: 'a passage long enough to go alone', prefix: 'before ', suffix: ' after' }, 'other text')).prefix).toBe(
      'before',
    );
  });

  it('cuts a long passage into textStart,textEnd on word boundaries', () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    const d = directive(textFragmentLink(url, { exact: words }));
    expect(d.start.length).toBeGreaterThanOrEqual(40);
    expect(d.end!.length).toBeGreaterThanOrEqual(40);
    expect(words.startsWith(`${d.start} `)).toBe(true);
    expect(words.endsWith(` ${d.end}`)).toBe(true);
    expect(d.start.length + d.end!.length).toBeLessThan(words.length);
    expect(d.prefix).toBeNull();
  });

  it('widens textEnd while it also occurs earlier in the passage', () => {
    const ending = 'and the reward is rule based for all tasks';
    const exact = `${'Filler words about training go here. '.repeat(4)}${ending} ${'More filler about rollouts and systems. '.repeat(4)}${ending}`;
    expect(exact.length).toBeGreaterThan(300);
    const d = directive(textFragmentLink(url, { exact }));
    expect(exact.indexOf(d.end!, d.start.length)).toBe(exact.length - d.end!.length);
    expect(d.end!.length).toBeGreaterThan(ending.length);
  });

  it('widens a selection that starts or ends inside a word', () => {
    expect(directive(textFragmentLink(url, { exact: 'PO without the KL term', prefix: 'Reasoning RL uses GR', suffix: ' more' }))).toMatchObject({
      start: 'GRPO without the KL term',
    });
    expect(directive(textFragmentLink(url, { exact: 'Reasoning RL uses GRPO wi', prefix: '', suffix: 'thout the KL term' })).start).toBe(
      'Reasoning RL uses GRPO without',
    );
  });

  it('cuts CJK context between words, not inside them', () => {
    const link = textFragmentLink(url, { exact: 'GRPO', prefix: '推理强化学习阶段使用', suffix: '并移除了 KL 项' });
    const d = directive(link);
    expect(d.start).toBe('GRPO');
    expect(d.prefix).not.toBeNull();
    expect('推理强化学习阶段使用'.endsWith(d.prefix!)).toBe(true);
    expect('并移除了 KL 项'.startsWith(d.suffix!)).toBe(true);
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    const starts = new Set([...segmenter.segment('推理强化学习阶段使用')].map((s) => s.index));
    expect(starts.has('推理强化学习阶段使用'.length - d.prefix!.length)).toBe(true);
  });

  it('never throws on lone surrogates', () => {
    expect(textFragmentLink(url, { exact: 'broken \uD800 pair here, long enough' })).toBe(`${url}#:~:text=broken%20%EF%BF%BD%20pair%20here%2C%20long%20enough`);
  });

  it('keeps another fragment and replaces an old directive', () => {
    expect(textFragmentLink('https://example.org/r#sec-2', { exact: 'a passage long enough alone' })).toBe(
      'https://example.org/r#sec-2:~:text=a%20passage%20long%20enough%20alone',
    );
    expect(textFragmentLink('https://example.org/r#:~:text=old', { exact: 'a passage long enough alone' })).toBe(
      'https://example.org/r#:~:text=a%20passage%20long%20enough%20alone',
    );
  });
});
