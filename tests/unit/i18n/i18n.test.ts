/**
 * The two languages stay complete and the UI stays translatable:
 * - both `_locales` catalogs have the same keys, each message the same `$1`…`$9` placeholders;
 * - every key the code names (`t('…')`, `plural(n, '…', '…')`, `__MSG_…__`, the label helpers) exists;
 * - no component holds user-visible English of its own: a static scan of the JSX in `components/` for text
 *   children, user-visible attributes and strings shown as children that contain letters, with a short
 *   allow-list (below) of names that are the same in every language;
 * - `lib/i18n` can switch to a chosen catalog and back.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../../public/_locales/en/messages.json';
import zh from '../../../public/_locales/zh_CN/messages.json';
import { CLAIM_KINDS, EVIDENCE_LEVELS, SOURCE_KINDS, STAGES } from '../../../lib/schema';
import { suggestEvidence } from '../../../lib/evidence';
import {
  evidenceLabel,
  isLocaleChoice,
  kindLabel,
  locale,
  onLocaleChange,
  plural,
  setLocale,
  stageLabel,
  t,
  type Catalog,
  type MessageSource,
  useMessageSource,
} from '../../../lib/i18n';

const ROOT = path.resolve(__dirname, '../../..');
type Messages = Record<string, { message: string }>;
const CATALOGS: Record<string, Messages> = { en, zh_CN: zh };

/**
 * Text that may stand in JSX as it is, in every language. Keep it short; everything else goes through `t()`.
 * - product and format names: Recipe Lens, the "RL" logo, JSONL, GRPO, PDF;
 * - key names shown in <kbd> (Alt, Shift, C, Alt⇧E);
 * - address placeholders (https://…).
 */
const ALLOWED = new Set(['Recipe Lens', 'RL', 'JSONL', 'GRPO', 'PDF', 'Alt', 'Shift', 'C', 'Alt⇧E', 'https://…', 'https://arxiv.org/pdf/…']);
/** Elements whose text is code or key names, never prose. */
const LITERAL_ELEMENTS = new Set(['code', 'kbd']);
/** Attributes a person reads (or hears). */
const VISIBLE_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'aria-description', 'aria-roledescription', 'aria-valuetext']);

function files(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...files(full, ext));
    else if (ext.test(name)) out.push(full);
  }
  return out;
}

function placeholders(message: string): string[] {
  return (message.match(/\$\d/g) ?? []).sort();
}

describe('the locale catalogs', () => {
  it('have exactly the same keys', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });

  it('have the same placeholders in every message, and no empty message', () => {
    const mismatched = Object.keys(en).filter(
      (key) => placeholders(en[key as keyof typeof en].message).join() !== placeholders((zh as Messages)[key]?.message ?? '').join(),
    );
    expect(mismatched).toEqual([]);
    for (const [name, catalog] of Object.entries(CATALOGS)) {
      const empty = Object.entries(catalog).filter(([, entry]) => !entry.message);
      expect(empty.map(([key]) => `${name}:${key}`)).toEqual([]);
    }
  });

  it('use key names the browser accepts, none differing only by case (browsers match keys case-insensitively)', () => {
    const keys = Object.keys(en);
    expect(keys.filter((key) => !/^[A-Za-z0-9_]+$/.test(key))).toEqual([]);
    const lower = keys.map((key) => key.toLowerCase());
    expect(lower.filter((key, i) => lower.indexOf(key) !== i)).toEqual([]);
  });

  it('name their own locale (the browser tells which catalog it picked by it)', () => {
    expect(en.localeCode.message).toBe('en');
    expect((zh as Messages).localeCode!.message).toBe('zh_CN');
  });

  it('keep the survey’s own Chinese terms', () => {
    expect((zh as Messages).kind_undisclosed!.message).toBe('未公开');
    expect((zh as Messages).notDisclosed!.message).toBe('未公开');
    expect((zh as Messages).colModel!.message).toBe('模型');
    expect((zh as Messages).colJudgment!.message).toBe('当前判断');
  });
});

describe('the keys the code uses', () => {
  const sources = [
    ...files(path.join(ROOT, 'components'), /\.tsx?$/),
    ...files(path.join(ROOT, 'entrypoints'), /\.tsx?$/),
    ...files(path.join(ROOT, 'lib'), /\.tsx?$/),
  ];

  it('all exist', () => {
    const used = new Map<string, string>();
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      // Only files that take `t` and `plural` from lib/i18n (another `t` may mean something else).
      if (!/import \{[^}]*\b(t|plural)\b[^}]*\} from '[./]*(lib\/)?i18n'/.test(text) && !file.endsWith(path.join('lib', 'i18n', 'index.ts'))) continue;
      for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) used.set(m[1]!, path.relative(ROOT, file));
      for (const m of text.matchAll(/\bplural\([^,()]+(?:\([^()]*\))?[^,()]*,\s*'([^']+)',\s*'([^']+)'/g)) {
        used.set(m[1]!, path.relative(ROOT, file));
        used.set(m[2]!, path.relative(ROOT, file));
      }
    }
    const config = readFileSync(path.join(ROOT, 'wxt.config.ts'), 'utf8');
    for (const m of config.matchAll(/__MSG_(\w+)__/g)) used.set(m[1]!, 'wxt.config.ts');
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter(([key]) => !(key in en)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

  it('include a label for every kind, stage, evidence level and source kind', () => {
    const keys = [
      ...CLAIM_KINDS.map((k) => `kind_${k}`),
      ...STAGES.map((s) => `stage_${s}`),
      ...EVIDENCE_LEVELS.flatMap((l) => [`evidence_${l}`, `evidence_short_${l}`]),
      ...SOURCE_KINDS.map((k) => `source_${k}`),
      ...['version_extrapolation', 'a_without_report', 'third_party', 'user_guidance', 'stale'].map((code) => `warn_${code}`),
    ];
    expect(keys.filter((key) => !(key in en))).toEqual([]);
  });
});

/** Where a component shows text of its own: `file:line: text`. */
function hardCodedText(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const shown = text.replace(/\s+/g, ' ').trim();
    if (!/\p{L}/u.test(shown) || ALLOWED.has(shown)) return;
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    found.push(`${path.relative(ROOT, file)}:${line + 1}: ${shown}`);
  };
  const tagOf = (element: ts.Node | undefined): string | null => {
    if (element && ts.isJsxElement(element)) return element.openingElement.tagName.getText(source);
    return null;
  };
  /** Strings an expression can evaluate to as they are: literals through conditionals and ||, ??, &&. */
  const shownStrings = (expr: ts.Expression): ts.Node[] => {
    if (ts.isParenthesizedExpression(expr)) return shownStrings(expr.expression);
    if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return [expr];
    if (ts.isTemplateExpression(expr)) return [expr];
    if (ts.isConditionalExpression(expr)) return [...shownStrings(expr.whenTrue), ...shownStrings(expr.whenFalse)];
    if (
      ts.isBinaryExpression(expr) &&
      [ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.AmpersandAmpersandToken].includes(expr.operatorToken.kind)
    ) {
      return [...shownStrings(expr.left), ...shownStrings(expr.right)];
    }
    return [];
  };
  const literalText = (node: ts.Node): string => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
    return '';
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      if (!LITERAL_ELEMENTS.has(tagOf(node.parent) ?? '')) report(node, node.text);
    } else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      if (!LITERAL_ELEMENTS.has(tagOf(node.parent) ?? '')) for (const s of shownStrings(node.expression)) report(s, literalText(s));
    } else if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init)) report(init, init.text);
      else if (ts.isJsxExpression(init) && init.expression) for (const s of shownStrings(init.expression)) report(s, literalText(s));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the components', () => {
  const tsx = files(path.join(ROOT, 'components'), /\.tsx$/);

  it('are all scanned', () => {
    expect(tsx.length).toBeGreaterThan(20);
  });

  it('show no hard-coded English: every text goes through lib/i18n', () => {
    expect(tsx.flatMap(hardCodedText)).toEqual([]);
  });

  it('the scan finds text, attributes and shown strings (so a pass means something)', () => {
    const probe = path.join(ROOT, 'tests/unit/fixtures/i18n-probe.tsx');
    expect(hardCodedText(probe).map((line) => line.replace(/^.*?:\d+: /, ''))).toEqual([
      'Hello there',
      'Search…',
      'not disclosed',
      'undated',
      'of rows',
      'A title',
    ]);
  });
});

describe('switching the language', () => {
  afterEach(async () => {
    await setLocale('auto');
  });

  it('uses a chosen catalog, tells listeners, and comes back to the browser’s', async () => {
    let heard = 0;
    const off = onLocaleChange(() => heard++);
    const asked: string[] = [];
    await setLocale('zh_CN', async (target) => {
      asked.push(target);
      return zh as Catalog;
    });
    expect(asked).toEqual(['zh_CN']);
    expect(locale()).toBe('zh_CN');
    expect(t('colModel')).toBe('模型');
    expect(kindLabel('undisclosed')).toBe('未公开');
    expect(stageLabel('reasoning_rl')).toBe('推理 RL');
    expect(plural(3, 'claimsOne', 'claimsMany')).toBe('3 条论断');
    expect(t('restoreCounts', 0, 2, 60)).toBe('新增 0，替换 2，删除 60（此处有而备份中没有的记录）');
    expect(heard).toBe(1);

    await setLocale('en');
    expect(locale()).toBe('en');
    expect(t('colModel')).toBe('Model');
    expect(evidenceLabel('A')).toBe('Technical report');
    expect(plural(1, 'claimsOne', 'claimsMany')).toBe('1 claim');
    expect(heard).toBe(2);
    off();
  });

  it('loads a catalog once, and a slower earlier choice does not win over a later one', async () => {
    let release: (c: Catalog) => void = () => undefined;
    const slow = setLocale('zh_CN', () => new Promise<Catalog>((resolve) => (release = resolve)));
    await setLocale('en');
    release(zh as Catalog);
    await slow;
    expect(locale()).toBe('en');
    // Loaded by the slow call: asking again needs no load.
    await setLocale('zh_CN', () => Promise.reject(new Error('loaded twice')));
    expect(locale()).toBe('zh_CN');
  });

  it('gives the suggested evidence level’s reason in the language of the UI, like the warnings under it', async () => {
    expect(suggestEvidence('third_party', 'algorithm').reason).toMatch(/^A third-party write-up is not evidence/);
    await setLocale('zh_CN', async () => zh as Catalog);
    expect(suggestEvidence('third_party', 'algorithm').reason).toBe(zh.evidenceWhyThirdParty.message);
    expect(suggestEvidence('technical_report', 'algorithm').reason).toBe('技术报告陈述了一种算法 → A。');
    expect(suggestEvidence('official_blog', 'reward').reason).toBe('官方博客陈述了一种奖励设计 → B：只是整体的一部分，不是完整的配方。');
    expect(t('evidenceSuggested', 'C', suggestEvidence('third_party', 'algorithm').reason)).not.toMatch(/[A-Za-z]{4,}/);
  });

  it('accepts only the known choices', () => {
    expect(['auto', 'en', 'zh_CN'].every(isLocaleChoice)).toBe(true);
    expect(['zh', 'fr', '', null, 1].some(isLocaleChoice)).toBe(false);
  });
});

describe("the browser's messages", () => {
  afterEach(async () => {
    // Back to a browser without messages: the English catalog answers, as in the tests above.
    useMessageSource({ getMessage: () => '', uiLanguage: () => 'en', loadCatalog: async () => en as Catalog });
    await setLocale('auto');
  });

  it('asks the browser once for a message without substitutions, every time for one with them, and again after a new source', async () => {
    const asked: string[] = [];
    const source = (prefix: string): MessageSource => ({
      getMessage: (key, subs) => (asked.push(`${key}:${subs.join(',')}`), subs.length ? `${prefix}${key} ${subs.join(' ')}` : `${prefix}${key}`),
      uiLanguage: () => 'en',
      loadCatalog: async () => en as Catalog,
    });
    useMessageSource(source('a:'));
    // Following the browser's language: its messages answer.
    await setLocale('auto');
    asked.length = 0;
    expect(t('colModel')).toBe('a:colModel');
    expect(t('colModel')).toBe('a:colModel');
    expect(t('claimsMany', 3)).toBe('a:claimsMany 3');
    expect(t('claimsMany', 4)).toBe('a:claimsMany 4');
    expect(asked).toEqual(['colModel:', 'claimsMany:3', 'claimsMany:4']);
    useMessageSource(source('b:'));
    expect(t('colModel')).toBe('b:colModel');
    expect(asked).toHaveLength(4);
  });

  it('falls back to the English catalog when the browser has no message or its extension is gone', async () => {
    useMessageSource({ getMessage: () => '', uiLanguage: () => 'en', loadCatalog: async () => en as Catalog });
    await setLocale('auto');
    expect(t('colModel')).toBe('Model');
    useMessageSource({
      getMessage: () => {
        throw new Error('Extension context invalidated.');
      },
      uiLanguage: () => 'en',
      loadCatalog: async () => en as Catalog,
    });
    expect(t('colModel')).toBe('Model');
    expect(t('colModel')).toBe('Model');
  });
});
