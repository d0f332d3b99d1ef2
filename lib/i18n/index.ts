/**
 * Every UI string, in English and Simplified Chinese, from the extension's own `_locales` files (the same
 * files the browser reads for the manifest). The language follows the browser unless the curator picks one
 * on the options page. Keys are typed from the English file, so a missing key is a type error.
 */
import { browser } from 'wxt/browser';
import en from '../../public/_locales/en/messages.json';
import zh from '../../public/_locales/zh_CN/messages.json';
import type { ClaimKind, Evidence, SourceKind, Stage } from '../schema';

/** A message key. */
export type MessageKey = keyof typeof en;
/** The languages Recipe Lens speaks. */
export type Locale = 'en' | 'zh_CN';
/** A language choice: one of the locales, or follow the browser. */
export type LocaleChoice = Locale | 'auto';

type Catalog = Record<string, { message: string }>;
const CATALOGS: Record<Locale, Catalog> = { en, zh_CN: zh as Catalog };

/** The browser's language as one of ours. */
export function browserLocale(): Locale {
  let language = 'en';
  try {
    language = browser.i18n?.getUILanguage?.() ?? globalThis.navigator?.language ?? 'en';
  } catch {
    language = globalThis.navigator?.language ?? 'en';
  }
  return /^zh/i.test(language) ? 'zh_CN' : 'en';
}

let current: Locale = browserLocale();
const listeners = new Set<() => void>();

/** Switches the language ('auto' follows the browser) and tells subscribers. */
export function setLocale(choice: LocaleChoice): void {
  const next = choice === 'auto' ? browserLocale() : choice;
  if (next === current) return;
  current = next;
  for (const listener of listeners) listener();
}

/** The language in use. */
export function locale(): Locale {
  return current;
}

/** Calls back when the language changes; returns an unsubscribe function. */
export function onLocaleChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The message for `key` in the current language, with `$1`…`$9` replaced by `subs`. */
export function t(key: MessageKey, ...subs: Array<string | number>): string {
  const entry = CATALOGS[current][key] ?? CATALOGS.en[key];
  const text = entry?.message ?? key;
  return subs.length ? text.replace(/\$(\d)/g, (whole, n: string) => (subs[Number(n) - 1] !== undefined ? String(subs[Number(n) - 1]) : whole)) : text;
}

/** "1 claim" / "3 claims" in the current language. */
export function plural(count: number, one: MessageKey, many: MessageKey): string {
  return t(count === 1 ? one : many, count);
}

/** The label of a claim kind. */
export function kindLabel(kind: ClaimKind): string {
  return t(`kind_${kind}` as MessageKey);
}

/** The label of a pipeline stage. */
export function stageLabel(stage: Stage): string {
  return t(`stage_${stage}` as MessageKey);
}

/** The label of an evidence level. */
export function evidenceLabel(level: Evidence): string {
  return t(`evidence_${level}` as MessageKey);
}

/** The short label of an evidence level (for tight spaces). */
export function evidenceShort(level: Evidence): string {
  return t(`evidence_short_${level}` as MessageKey);
}

/** The label of a source kind. */
export function sourceKindLabel(kind: SourceKind): string {
  return t(`source_${kind}` as MessageKey);
}

/** Every key of the catalogs, for the tests that keep both languages complete. */
export const CATALOG_KEYS: Record<Locale, string[]> = { en: Object.keys(en), zh_CN: Object.keys(zh) };
