/**
 * Every UI string, in English and Simplified Chinese, from the extension's own `_locales` files (the same
 * files the browser reads for the manifest). Keys are typed from the English file, so a missing key is a type
 * error.
 *
 * Where a message comes from:
 * - By default ("browser default") the browser picks the catalog from its UI language, and `t()` asks the
 *   browser's message source, which each context's glue installs first (`useMessageSource`, from
 *   `browser.i18n`). Content scripts and the background always work this way.
 * - Extension pages (options, side panel, PDF viewer) follow the curator's language setting: `startLocale()`
 *   reads it and, when it differs from the browser's, loads the chosen catalog
 *   (`/_locales/<locale>/messages.json`, fetched from the extension) and uses it instead.
 * - English is bundled as the fallback: a key missing elsewhere, or no message source (unit tests).
 *
 * Pure: the browser is reached only through the message source passed in.
 */
import en from '../../public/_locales/en/messages.json';
import type { ClaimKind, Evidence, SourceKind, Stage } from '../schema';

/** A message key. */
export type MessageKey = keyof typeof en;
/** The languages Recipe Lens speaks. */
export type Locale = 'en' | 'zh_CN';
/** A language choice: one of the locales, or follow the browser. */
export type LocaleChoice = Locale | 'auto';
/** Every locale, in the order the language menu lists them. */
export const LOCALES: readonly Locale[] = ['en', 'zh_CN'];
/** Every choice of the language setting. */
export const LOCALE_CHOICES: readonly LocaleChoice[] = ['auto', 'en', 'zh_CN'];

/** A `messages.json` file. */
export type Catalog = Record<string, { message: string }>;
const ENGLISH: Catalog = en;

/** Whether a value is one of the language choices. */
export function isLocaleChoice(value: unknown): value is LocaleChoice {
  return typeof value === 'string' && (LOCALE_CHOICES as readonly string[]).includes(value);
}

/** The browser's own messages, as the glue of each context hands them in. */
export interface MessageSource {
  /** The browser's message for `key` in the catalog it picked ('' when it has none); may throw once the extension is gone. */
  getMessage(key: string, subs: string[]): string;
  /** The browser's UI language (`zh-CN`, `en-US`, …). */
  uiLanguage(): string;
  /** Reads a catalog shipped with the extension. */
  loadCatalog(target: Locale): Promise<Catalog>;
}

let source: MessageSource | null = null;
let browserI18n: 'unknown' | 'yes' | 'no' = 'unknown';
/**
 * The browser's messages without substitutions, by key, as it gave them: its catalog does not change while a page
 * lives, and each call into it crosses into the browser's bindings (about 7 ms of the panel's first paint).
 */
const plainMessages = new Map<string, string>();

/** Installs the browser's messages (each context does it first, before anything is shown). */
export function useMessageSource(next: MessageSource): void {
  source = next;
  browserI18n = 'unknown';
  plainMessages.clear();
}

/** The browser's message for `key` ('' when it has none or there is no message source). */
function browserMessage(key: string, subs: string[]): string {
  if (browserI18n === 'no' || !source) return '';
  const kept = subs.length ? undefined : plainMessages.get(key);
  if (kept !== undefined) return kept;
  try {
    const message = source.getMessage(key, subs);
    browserI18n = 'yes';
    if (!subs.length && typeof message === 'string') plainMessages.set(key, message);
    return typeof message === 'string' ? message : '';
  } catch {
    browserI18n = 'no';
    return '';
  }
}

/** The browser's language as one of ours (any Chinese is Simplified Chinese). */
export function browserLocale(): Locale {
  let language = 'en';
  try {
    language = source?.uiLanguage() ?? globalThis.navigator?.language ?? 'en';
  } catch {
    language = globalThis.navigator?.language ?? 'en';
  }
  return /^zh/i.test(language) ? 'zh_CN' : 'en';
}

/** The locale of the catalog the browser picked for us (its `localeCode` message), English without one. */
function browserCatalogLocale(): Locale {
  return browserMessage('localeCode', []) === 'zh_CN' ? 'zh_CN' : 'en';
}

/** The catalog in use instead of the browser's, when the curator chose another language. */
let chosen: { locale: Locale; catalog: Catalog } | null = null;
/** The last choice asked for; a slower load of an earlier choice does not overwrite it. */
let wanted: LocaleChoice = 'auto';
const loaded = new Map<Locale, Catalog>([['en', ENGLISH]]);
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** The language in use. */
export function locale(): Locale {
  return chosen ? chosen.locale : browserCatalogLocale();
}

/** The language choice last applied ('auto': the browser's). */
export function localeChoice(): LocaleChoice {
  return wanted;
}

/** Calls back when the language changes; returns an unsubscribe function. */
export function onLocaleChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Uses `catalog` for `target` from now on (null: the browser's own catalog). */
function use(target: Locale | null, catalog: Catalog | null): void {
  const before = locale();
  const sameCatalog = (chosen?.catalog ?? null) === catalog;
  chosen = target && catalog ? { locale: target, catalog } : null;
  if (!sameCatalog || before !== locale()) notify();
}

/** Reads a catalog shipped with the extension, through the message source. */
async function fetchCatalog(target: Locale): Promise<Catalog> {
  if (!source) throw new Error(`the ${target} catalog cannot be read here`);
  return source.loadCatalog(target);
}

/**
 * Switches the language: 'auto' follows the browser. A language other than the browser's needs its catalog,
 * loaded once (`load` reads it; by default from the extension). Listeners hear of the change.
 */
export async function setLocale(choice: LocaleChoice, load: (target: Locale) => Promise<Catalog> = fetchCatalog): Promise<void> {
  wanted = choice;
  const target = choice === 'auto' ? browserLocale() : choice;
  if (target === browserCatalogLocale() && browserI18n === 'yes') {
    use(null, null);
    return;
  }
  let catalog = loaded.get(target);
  if (!catalog) {
    catalog = await load(target);
    loaded.set(target, catalog);
  }
  if (wanted === choice) use(target, catalog);
}

/** The message for `key` in the current language, with `$1`…`$9` replaced by `subs`. */
export function t(key: MessageKey, ...subs: Array<string | number>): string {
  const strings = subs.map(String);
  if (!chosen) {
    const message = browserMessage(key, strings);
    if (message) return message;
  }
  const entry = chosen?.catalog[key] ?? ENGLISH[key];
  const text = entry?.message ?? key;
  return strings.length ? text.replace(/\$(\d)/g, (whole, n: string) => strings[Number(n) - 1] ?? whole) : text;
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

const HINT_KEY = 'recipe-lens-locale';
const CHANNEL = 'recipe-lens-locale';

/** The choice remembered by this browser's extension pages (a hint for the first paint; the setting is the truth). */
function rememberedChoice(): LocaleChoice {
  try {
    const value = globalThis.localStorage?.getItem(HINT_KEY);
    return isLocaleChoice(value) ? value : 'auto';
  } catch {
    return 'auto';
  }
}

function remember(choice: LocaleChoice): void {
  try {
    globalThis.localStorage?.setItem(HINT_KEY, choice);
  } catch {
    // Storage may be off; the setting still holds the choice.
  }
}

/**
 * For an extension page: applies the remembered choice at once (so the first paint is in the right language
 * when it can be), then the stored setting (`read`, through the background), and follows later changes made
 * on the options page (a BroadcastChannel between the extension's pages). Resolves once the remembered
 * choice is applied; returns a function that stops following.
 */
export async function startLocale(read: () => Promise<LocaleChoice>): Promise<() => void> {
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
  if (channel) {
    channel.onmessage = (event: MessageEvent) => {
      if (isLocaleChoice(event.data)) void setLocale(event.data).catch(() => undefined);
    };
  }
  await setLocale(rememberedChoice()).catch(() => undefined);
  void read()
    .then((choice) => {
      remember(choice);
      return choice === wanted ? undefined : setLocale(choice);
    })
    .catch(() => undefined);
  return () => channel?.close();
}

/** Applies a new choice here and tells the other extension pages (after the setting was stored). */
export async function announceLocale(choice: LocaleChoice): Promise<void> {
  remember(choice);
  if (typeof BroadcastChannel === 'function') {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage(choice);
    channel.close();
  }
  await setLocale(choice);
}
