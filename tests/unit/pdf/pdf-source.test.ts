import { describe, expect, it } from 'vitest';
import { detectPdfSource, isJunkTitle, labOf, linesOf, looksLikeNames, pdfDate, type PageLine, type PositionedRun } from '../../../lib/pdf';

const upright = (text: string, size = 10): PageLine => ({ text, size, upright: true });
const TODAY = '2026-11-30';

function detect(url: string, info: Record<string, unknown>, lines: PageLine[], headings: string[] = []) {
  return detectPdfSource({ url, info, lines, headings }, TODAY, document);
}

describe('lines of a first page', () => {
  it('groups runs into lines at line ends, keeping the largest type and whether they run upright', () => {
    const run = (str: string, size: number, hasEOL: boolean, rotated = false): PositionedRun => ({
      str,
      hasEOL,
      transform: rotated ? [0, size, -size, 0, 10, 10] : [size, 0, 0, size, 10, 10],
    });
    const lines = linesOf([
      run('Qwen3', 24, false),
      run(' Technical Report', 24, true),
      run('', 12, true),
      run('Qwen Team', 12, true),
      run('arXiv:2505.09388v1  [cs.CL]  14 May 2025', 20, true, true),
    ]);
    expect(lines).toEqual([
      { text: 'Qwen3 Technical Report', size: 24, upright: true },
      { text: 'Qwen Team', size: 12, upright: true },
      { text: 'arXiv:2505.09388v1 [cs.CL] 14 May 2025', size: 20, upright: false },
    ]);
  });
});

describe('what a PDF is', () => {
  it('reads an arXiv report: title from the metadata, authors, lab, date and id from the stamp, models from the title', () => {
    const source = detect('https://arxiv.org/pdf/2505.09388v1', { Title: 'Qwen3 Technical Report', CreationDate: "D:20250515083000Z00'00'" }, [
      upright('arXiv:2505.09388v1 [cs.CL] 14 May 2025', 20),
      upright('Qwen3 Technical Report', 17),
      upright('Qwen Team', 11),
      upright('Abstract', 12),
      upright('In this work, we present Qwen3, the latest version of the Qwen model family, with thinking and non-thinking modes.', 10),
    ]);
    expect(source).toMatchObject({
      url: 'https://arxiv.org/pdf/2505.09388v1',
      title: 'Qwen3 Technical Report',
      kind: 'technical_report',
      publisher: 'Qwen Team',
      published: '2025-05-14',
      accessed: TODAY,
      authors: ['Qwen Team'],
      arxiv: { id: '2505.09388', version: 1 },
    });
    expect(source.models[0]).toBe('Qwen3');
  });

  it('takes the title from the largest type when the metadata names a file, and authors from the lines under it', () => {
    const source = detect('https://example.org/papers/main.pdf', { Title: 'main.dvi', Author: '' }, [
      upright('Preprint. Under review.', 9),
      upright('Scaling Reinforcement Learning', 17.2),
      upright('for Long-Horizon Agents', 17.2),
      upright('Ada Lovelace, Alan Turing and Grace Hopper', 11),
      upright('Analytical Engines Lab', 10),
      upright('Abstract', 12),
    ]);
    expect(source.title).toBe('Scaling Reinforcement Learning for Long-Horizon Agents');
    expect(source.authors).toEqual(['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Analytical Engines Lab']);
    expect(source.publisher).toBeNull();
  });

  it('knows a lab from an author line such as "DeepSeek-AI" and the date from the file when the page states none', () => {
    const source = detect(
      'https://example.org/r1.pdf',
      { Title: 'DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning', CreationDate: 'D:20250122120000' },
      [upright('DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via', 17), upright('Reinforcement Learning', 17), upright('DeepSeek-AI', 11)],
    );
    expect(source.publisher).toBe('DeepSeek');
    expect(source.published).toBe('2025-01-22');
    expect(source.models).toContain('DeepSeek-R1');
  });

  it('prefers the metadata Author and a lab hosting its own PDF', () => {
    const source = detect('https://qwenlm.github.io/papers/report.pdf', { Title: 'A report', Author: 'Jane Doe; John Roe' }, [upright('A report', 16)]);
    expect(source.authors).toEqual(['Jane Doe', 'John Roe']);
    expect(source.publisher).toBe('Qwen Team');
  });

  it('knows a local file by its arXiv abstract page, or not at all', () => {
    expect(detect('file:///reports/2501.12948v2.pdf', {}, [upright('arXiv:2501.12948v2 [cs.CL] 22 Jan 2025', 20), upright('Some Report', 16)]).url).toBe(
      'https://arxiv.org/abs/2501.12948',
    );
    expect(detect('file:///reports/report.pdf', {}, [upright('Some Report', 16)]).url).toBeNull();
  });

  it('drops tracking parameters and fragments from the address', () => {
    expect(detect('https://example.org/r.pdf?utm_source=x#page=3', { Title: 'A Report on RL' }, []).url).toBe('https://example.org/r.pdf');
  });
});

describe('front matter as the first page displays it', () => {
  const at = (str: string, size: number, x: number, y: number, hasEOL = false): PositionedRun => ({ str, hasEOL, transform: [size, 0, 0, size, x, y] });

  it('reads a title set in small capitals in its displayed case, and prefills its model from it', () => {
    // "KIMI K1.5: SCALING REINFORCEMENT LEARNING WITH LLMS": each word's first capital large, the rest small.
    const title = [
      at('K', 17, 100, 700),
      at('IMI', 13.8, 112, 700),
      at(' ', 17, 140, 700),
      at('K1.5', 13.8, 146, 700),
      at(': S', 17, 180, 700),
      at('CALING', 13.8, 196, 700),
      at(' R', 17, 250, 700),
      at('EINFORCEMENT', 13.8, 262, 700),
      at(' L', 17, 360, 700),
      at('EARNING', 13.8, 372, 700, true),
    ];
    const lines = linesOf([...title, at('Kimi Team', 11, 250, 660, true), at('Abstract', 12, 270, 620, true)]);
    expect(lines[0]).toEqual({ text: 'Kimi k1.5: Scaling Reinforcement Learning', raw: 'KIMI K1.5: SCALING REINFORCEMENT LEARNING', size: 17, upright: true });
    const source = detect('https://example.org/kimi.pdf', { Title: 'KIMI K1.5: SCALING REINFORCEMENT LEARNING' }, lines);
    expect(source.title).toBe('Kimi k1.5: Scaling Reinforcement Learning');
    expect(source.models[0]).toBe('Kimi k1.5');
    expect(source.authors).toEqual(['Kimi Team']);
    expect(source.publisher).toBe('Moonshot AI');
  });

  it('keeps author and organisation names whole: superscript affiliation marks separate them, digits in names stay', () => {
    const lines = linesOf([
      at('Scaling Test-Time Compute', 17, 100, 700, true),
      at('Wei Fu', 10, 100, 660),
      at('12', 7, 131, 663.6),
      at('∗', 7, 139, 663.6),
      at(' Jiaxuan Gao', 10, 145, 660),
      at('1', 7, 200, 663.6),
      at(', MiniMax-M1 Team', 10, 206, 660),
      at('2', 7, 290, 663.6, true),
      at('Abstract', 12, 270, 620, true),
    ]);
    expect(lines[1]).toEqual({ text: 'Wei Fu Jiaxuan Gao, MiniMax-M1 Team', names: 'Wei Fu,, Jiaxuan Gao,, MiniMax-M1 Team,', size: 10, upright: true });
    expect(detect('https://example.org/p.pdf', {}, lines).authors).toEqual(['Wei Fu', 'Jiaxuan Gao', 'MiniMax-M1 Team']);
    expect(detect('https://example.org/p.pdf', { Author: 'Kimi k1.5 Team; MiniMax-M1 Team' }, lines).authors).toEqual(['Kimi k1.5 Team', 'MiniMax-M1 Team']);
  });

  it('puts the title’s model first, before variants named in the abstract', () => {
    const source = detect('https://example.org/r1.pdf', { Title: 'DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning' }, [
      upright('DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via', 17),
      upright('Reinforcement Learning', 17),
      upright('DeepSeek-AI', 11),
      upright('We introduce our first-generation reasoning models, DeepSeek-R1-Zero and DeepSeek-R1, trained with large-scale RL.', 10),
    ]);
    expect(source.models[0]).toBe('DeepSeek-R1');
  });
});

describe('helpers', () => {
  it.each([
    ['main.pdf', true],
    ['Microsoft Word - draft_v3.docx', true],
    ['paper_v2', true],
    ['Untitled', true],
    ['abc', true],
    ['Kimi K2: Open Agentic Intelligence', false],
    ['GLM-4.5', false],
  ])('%s is a junk title: %s', (title, expected) => {
    expect(isJunkTitle(title)).toBe(expected);
  });

  it.each([
    ['Ada Lovelace, Alan Turing and Grace Hopper', true],
    ['Kimi Team', true],
    ['3 March 2026', false],
    ['slime is an LLM post-training framework for RL', false],
    ['We present a model.', false],
  ])('%s reads as names: %s', (line, expected) => {
    expect(looksLikeNames(line)).toBe(expected);
  });

  it('maps lab author names to publishers', () => {
    expect(labOf('Qwen Team')).toBe('Qwen Team');
    expect(labOf('Kimi Team')).toBe('Moonshot AI');
    expect(labOf('DeepSeek-AI')).toBe('DeepSeek');
    expect(labOf('Grace Hopper')).toBeUndefined();
  });

  it('reads PDF dates', () => {
    expect(pdfDate("D:20250122093000+00'00'")).toBe('2025-01-22');
    expect(pdfDate('20251301')).toBeNull();
    expect(pdfDate(undefined)).toBeNull();
  });
});
