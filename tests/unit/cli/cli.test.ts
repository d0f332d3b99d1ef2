// The `survey` CLI run as a child process (`node scripts/survey.mjs …`) on temporary files.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJsonl } from '../../../lib/export';
import type { ClaimRecord, ModelRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';
import { runSurvey, type SurveyRun } from '../../support/survey-cli';

const SHARED_FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures');
const TIMEOUT = 60_000;

let dir = '';

/** Runs the CLI in the temporary directory, so file names in messages are as typed. */
function survey(...args: string[]): Promise<SurveyRun> {
  return runSurvey(dir, ...args);
}

function write(name: string, text: string): string {
  writeFileSync(path.join(dir, name), text);
  return name;
}

const line = (value: unknown) => JSON.stringify(value);

const glmClaim = claim({
  id: 'clm_glm5_slime',
  model: 'GLM-5',
  kind: 'framework',
  stage: null,
  value: 'slime',
  evidence: 'B',
  source: { ...claim().source, url: 'https://code.example/THUDM/slime', title: 'THUDM/slime', kind: 'repository' },
});
const zetaClaim = claim({ id: 'clm_zeta_grpo1' });
const m3Claim = claim({
  id: 'clm_m3_undisc1',
  model: 'MiniMax M3',
  kind: 'undisclosed',
  stage: null,
  value: 'RL stages',
  evidence: 'C',
  source: { ...claim().source, url: 'https://mm.example/m3', title: 'MiniMax M3 release', kind: 'release' },
});
const maxProofClaim = claim({
  id: 'clm_m3_cispo01',
  model: 'MiniMax M3',
  recipe: 'MaxProof',
  value: 'CISPO',
  source: { ...claim().source, url: 'https://papers.example/maxproof', title: 'MaxProof for MiniMax-M3' },
});
const glmModel = model({ model: 'GLM-5', vendor: 'Zhipu AI', judgment: 'Reconstructable.' });

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'survey-cli-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('survey CLI: help and usage errors', () => {
  it(
    'prints help for the tool and for each command',
    async () => {
      const top = await survey('--help');
      expect(top.code).toBe(0);
      for (const command of ['validate', 'render', 'merge', 'stats']) expect(top.stdout).toContain(command);
      const runs = await Promise.all(['validate', 'render', 'merge', 'stats'].map((c) => survey(c, '--help')));
      runs.forEach((r, i) => {
        expect(r.code).toBe(0);
        expect(r.stdout).toMatch(new RegExp(`^Usage: survey ${['validate', 'render', 'merge', 'stats'][i]}`));
      });
      expect((await survey('help', 'merge')).stdout).toMatch(/^Usage: survey merge/);
    },
    TIMEOUT,
  );

  it(
    'exits 2 with a clear message for unknown commands, options, missing files and missing -o',
    async () => {
      write('ok.jsonl', `${line(zetaClaim)}\n`);
      const [none, unknown, missing, option, badValue, noOut, noFiles] = await Promise.all([
        survey(),
        survey('frobnicate'),
        survey('validate', 'ok.jsonl', 'nope.jsonl'),
        survey('render', 'ok.jsonl', '--colour'),
        survey('render', 'ok.jsonl', '--format', 'xlsx'),
        survey('merge', 'ok.jsonl'),
        survey('stats'),
      ]);
      for (const r of [none, unknown, missing, option, badValue, noOut, noFiles]) {
        expect(r.code).toBe(2);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
      expect(unknown.stderr).toContain('unknown command "frobnicate"');
      expect(missing.stderr).toContain('nope.jsonl: no such file');
      expect(missing.stdout).toBe('');
      expect(option.stderr).toContain('unknown option --colour');
      expect(badValue.stderr).toContain('--format must be one of md, csv, json');
      expect(noOut.stderr).toContain('merge needs -o OUT');
      expect(noFiles.stderr).toContain('no input files');
    },
    TIMEOUT,
  );
});

describe('survey validate', () => {
  it(
    'exits 0 when every line is valid',
    async () => {
      write('valid.jsonl', toJsonl([glmClaim, zetaClaim], [glmModel]));
      const r = await survey('validate', 'valid.jsonl');
      expect(r).toMatchObject({ code: 0, stdout: 'ok: 3 records in 1 file\n' });
    },
    TIMEOUT,
  );

  it(
    'prints FILE:LINE: message per problem, including duplicates across files, and exits 1',
    async () => {
      write(
        'bad.jsonl',
        [
          line(zetaClaim),
          '{"schema":"rl-survey.claim/1",',
          line({ ...glmClaim, id: undefined }),
          line({ ...glmClaim, evidence: 'D', position: { start: 'x', end: 2 } }),
          '',
          line({ ...glmModel, schema: 'rl-survey.model/2' }),
          line({ hello: 'world' }),
        ].join('\n'),
      );
      write('other.jsonl', `${line(glmModel)}\n${line({ ...zetaClaim, value: 'GSPO' })}\n${line(zetaClaim)}\n`);
      const r = await survey('validate', 'bad.jsonl', 'other.jsonl');
      expect(r.code).toBe(1);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.map((l) => l.split(': ')[0])).toEqual(['bad.jsonl:2', 'bad.jsonl:3', 'bad.jsonl:4', 'bad.jsonl:6', 'bad.jsonl:7', 'other.jsonl:2']);
      expect(lines[0]).toMatch(/^bad\.jsonl:2: not valid JSON/);
      expect(lines[1]).toMatch(/^bad\.jsonl:3: id: /);
      expect(lines[2]).toMatch(/^bad\.jsonl:4: .*evidence: .*position\.start: /);
      expect(lines[3]).toBe('bad.jsonl:6: unknown schema "rl-survey.model/2" (expected "rl-survey.claim/1" or "rl-survey.model/1")');
      expect(lines[4]).toMatch(/^bad\.jsonl:7: missing "schema"/);
      expect(lines[5]).toBe('other.jsonl:2: duplicate claim id "clm_zeta_grpo1" with different content from bad.jsonl:1');
      expect(r.stderr).toBe('6 problems in 2 files\n');
      expect(r.stdout + r.stderr).not.toMatch(/\n\s+at |Error:/);
    },
    TIMEOUT,
  );

  it(
    'flags a model record given twice with different content',
    async () => {
      write('m1.jsonl', `${line(glmModel)}\n`);
      write('m2.jsonl', `\n${line({ ...glmModel, judgment: 'other' })}\n`);
      const r = await survey('validate', 'm1.jsonl', 'm2.jsonl');
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('m2.jsonl:2: duplicate model record "GLM-5" with different content from m1.jsonl:1\n');
    },
    TIMEOUT,
  );
});

describe('survey render', () => {
  it(
    'prints the table in md, csv and json, in English or Chinese',
    async () => {
      write('table.jsonl', toJsonl([m3Claim, maxProofClaim, glmClaim], [glmModel]));
      const [md, zh, csv, json] = await Promise.all([
        survey('render', 'table.jsonl'),
        survey('render', 'table.jsonl', '--lang', 'zh'),
        survey('render', 'table.jsonl', '--format=csv'),
        survey('render', 'table.jsonl', '-f', 'json', '-l', 'zh'),
      ]);
      for (const r of [md, zh, csv, json]) expect(r.code).toBe(0);
      expect(md.stdout.split('\n')[0]).toBe(
        '| Model | Evidence | RL framework / system | Public RL stages and algorithms | Design intention | Current judgment |',
      );
      expect(md.stdout).toContain('| MiniMax M3 | C / A |');
      expect(md.stdout).toContain('| MiniMax M3 · MaxProof | A |');
      // A footnote per passage: the quoted words, the page and the text-fragment link to the passage.
      expect(md.stdout).toContain(
        '[^1]: “Reasoning RL uses GRPO with the KL term removed.” — THUDM/slime <https://code.example/THUDM/slime#:~:text=Reasoning%20RL%20uses%20GRPO%20with%20the%20KL%20term%20removed.>',
      );
      expect(zh.stdout.split('\n')[0]).toBe('| 模型 | 证据等级 | RL 框架 / 系统 | 公开的 RL 阶段与算法 | 设计意图 | 当前判断 |');
      // The undisclosed claim stands in the stages cell, not in the judgment.
      expect(zh.stdout).toMatch(/\| MiniMax M3 \| C \/ A \| 未公开（截至 2026-11-29） \| 未公开：RL stages\[\^2\] \| 未公开（截至 2026-11-29） \| 暂无判断 \|/);
      expect(md.stdout).toMatch(/\| MiniMax M3 \| C \/ A \| [^|]+ \| Not disclosed: RL stages\[\^2\] \|/);
      expect(csv.stdout.split('\r\n')[0]).toBe(
        'Model,Evidence,RL framework / system,Public RL stages and algorithms,Design intention,Current judgment,Sources',
      );
      const doc = JSON.parse(json.stdout) as { lang: string; rows: Array<{ label: string }> };
      expect(doc.lang).toBe('zh');
      expect(doc.rows.map((r) => r.label)).toEqual(['GLM-5', 'MiniMax M3', 'MiniMax M3 · MaxProof']);
    },
    TIMEOUT,
  );

  it(
    'renders nothing for tombstones: no value, no footnote, no row of deleted claims only',
    async () => {
      const deleted = { deleted_at: '2026-11-30T10:00:00Z', updated_at: '2026-11-30T10:00:00Z' };
      const gone = claim({ id: 'clm_gone_row1', model: 'Gone-9', value: 'DAPO', quote: { exact: 'Gone-9 uses DAPO.', prefix: '', suffix: '' }, ...deleted });
      const withdrawn = claim({ ...glmClaim, id: 'clm_glm5_ppo1', value: 'PPO', quote: { exact: 'GLM-5 used PPO once.', prefix: '', suffix: '' }, ...deleted });
      write('tombs.jsonl', toJsonl([glmClaim, withdrawn, gone], [glmModel]));
      write('live.jsonl', toJsonl([glmClaim], [glmModel]));
      const [withTombs, live] = await Promise.all([survey('render', 'tombs.jsonl'), survey('render', 'live.jsonl')]);
      expect(withTombs.code).toBe(0);
      for (const text of ['Gone-9', 'DAPO', 'PPO', 'used PPO once']) expect(withTombs.stdout).not.toContain(text);
      expect(withTombs.stdout).toBe(live.stdout);
    },
    TIMEOUT,
  );

  it(
    'refuses invalid input with FILE:LINE messages and exit 1',
    async () => {
      write('broken.jsonl', `${line(zetaClaim)}\nnot json\n`);
      const r = await survey('render', 'broken.jsonl');
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^broken\.jsonl:2: not valid JSON/);
    },
    TIMEOUT,
  );
});

describe('survey merge', () => {
  const older = claim({ id: 'clm_shared_01', value: 'GRPO' });
  const newer = claim({ id: 'clm_shared_01', value: 'GSPO', updated_at: '2026-11-30T10:00:00Z' });
  const tie = claim({ id: 'clm_shared_01', value: 'DAPO' });

  it(
    'writes the same deterministic JSONL whatever the input order, and merging it again changes nothing',
    async () => {
      write('a.jsonl', [line(zetaClaim), line(glmModel)].join('\n'));
      write('b.jsonl', `${line(glmClaim)}\n${line(zetaClaim)}\n${line(m3Claim)}\n`);
      const [ab, ba] = await Promise.all([survey('merge', 'a.jsonl', 'b.jsonl', '-o', 'ab.jsonl'), survey('merge', 'b.jsonl', 'a.jsonl', '--out=ba.jsonl')]);
      expect(ab.code).toBe(0);
      expect(ba.code).toBe(0);
      expect(ab.stderr).toBe('merged 2 files into ab.jsonl: 4 records\n');
      const text = readFileSync(path.join(dir, 'ab.jsonl'), 'utf8');
      expect(readFileSync(path.join(dir, 'ba.jsonl'), 'utf8')).toBe(text);
      expect(text).toBe(toJsonl([zetaClaim, glmClaim, m3Claim], [glmModel]));
      const again = await survey('merge', 'ab.jsonl', 'ab.jsonl', '-o', '-');
      expect(again).toMatchObject({ code: 0, stdout: text });
      expect((await survey('validate', 'ab.jsonl')).code).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'reports conflicts on stderr, writes nothing and exits 1; --prefer newer keeps the newest',
    async () => {
      write('old.jsonl', `${line(older)}\n`);
      write('new.jsonl', `${line(newer)}\n`);
      const conflict = await survey('merge', 'old.jsonl', 'new.jsonl', '-o', 'conflict.jsonl');
      expect(conflict.code).toBe(1);
      expect(conflict.stderr).toContain('conflict: claim clm_shared_01: value "GSPO" ≠ "GRPO"; updated_at "2026-11-30T10:00:00Z" ≠ "2026-11-29T10:00:00Z"');
      expect(conflict.stderr).toContain('--prefer newer');
      expect(existsSync(path.join(dir, 'conflict.jsonl'))).toBe(false);

      const [preferred, reversed] = await Promise.all([
        survey('merge', 'old.jsonl', 'new.jsonl', '-o', '-', '--prefer', 'newer'),
        survey('merge', 'new.jsonl', 'old.jsonl', '-o', '-', '--prefer=newer'),
      ]);
      expect(preferred).toMatchObject({ code: 0, stdout: toJsonl([newer], []) });
      expect(reversed.stdout).toBe(preferred.stdout);
    },
    TIMEOUT,
  );

  it(
    'with --prefer newer, warns about versions tying on updated_at and keeps the same one either way',
    async () => {
      write('tie1.jsonl', `${line(older)}\n`);
      write('tie2.jsonl', `${line(tie)}\n`);
      const [one, two] = await Promise.all([
        survey('merge', 'tie1.jsonl', 'tie2.jsonl', '-o', '-', '--prefer', 'newer'),
        survey('merge', 'tie2.jsonl', 'tie1.jsonl', '-o', '-', '--prefer', 'newer'),
      ]);
      expect(one.code).toBe(0);
      expect(one.stderr).toMatch(/^warning: versions with the same updated_at differ/);
      expect(two.stdout).toBe(one.stdout);
    },
    TIMEOUT,
  );
});

describe('survey stats', () => {
  it(
    'counts claims per model, kind, evidence level and source kind',
    async () => {
      write('stats.jsonl', toJsonl([m3Claim, maxProofClaim, glmClaim, zetaClaim], [glmModel]));
      const [text, json] = await Promise.all([survey('stats', 'stats.jsonl'), survey('stats', 'stats.jsonl', '--json')]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^4 claims and 1 model records in 1 file\n/);
      expect(text.stdout).toMatch(/claims per model\n {2}GLM-5 +1\n {2}MiniMax M3 +1\n {2}MiniMax M3 · MaxProof +1\n {2}Zeta-2 +1\n/);
      const doc = JSON.parse(json.stdout) as Record<string, Record<string, number> | number>;
      expect(doc).toMatchObject({
        files: 1,
        claims: 4,
        models: 1,
        byModel: { 'GLM-5': 1, 'MiniMax M3': 1, 'MiniMax M3 · MaxProof': 1, 'Zeta-2': 1 },
        byKind: { algorithm: 2, framework: 1, undisclosed: 1, stage: 0 },
        byEvidence: { A: 2, B: 1, C: 1 },
        bySourceKind: { technical_report: 2, repository: 1, release: 1, third_party: 0 },
      });
    },
    TIMEOUT,
  );
});

describe('survey CLI on the shared fixture records', () => {
  const recordsDir = path.join(SHARED_FIXTURES, 'records');
  const present = existsSync(recordsDir);

  it(
    present ? 'validates, renders, merges and counts them' : 'has no shared fixtures here (nothing to check)',
    async () => {
      if (!present) {
        expect(present).toBe(false);
        return;
      }
      const files = readdirSync(recordsDir)
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
        .map((f) => path.join(recordsDir, f));
      expect(files.length).toBeGreaterThan(0);
      const [valid, md, merged, stats] = await Promise.all([
        survey('validate', ...files),
        survey('render', ...files, '--lang', 'zh'),
        survey('merge', ...[...files].reverse(), '-o', '-'),
        survey('stats', ...files, '--json'),
      ]);
      expect(valid.code).toBe(0);
      expect(valid.stdout).toMatch(/^ok: \d+ records in \d+ files\n$/);
      expect(md.code).toBe(0);
      const records = files.flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as ClaimRecord | ModelRecord),
      );
      for (const r of records) expect(md.stdout).toContain(`| ${r.model}`);
      expect(merged.code).toBe(0);
      const claims = records.filter((r): r is ClaimRecord => r.schema === 'rl-survey.claim/1');
      const models = records.filter((r): r is ModelRecord => r.schema === 'rl-survey.model/1');
      expect(merged.stdout).toBe(toJsonl(claims, models));
      expect(stats.code).toBe(0);
      expect((JSON.parse(stats.stdout) as { claims: number }).claims).toBe(claims.length);
    },
    TIMEOUT,
  );
});
