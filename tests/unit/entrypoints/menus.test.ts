// The context-menu items of the background, the PDF ones included, are titled in the language of the UI.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createMenus } from '../../../entrypoints/background/menus';
import { setLocale, type Catalog } from '../../../lib/i18n';
import en from '../../../public/_locales/en/messages.json';
import zh from '../../../public/_locales/zh_CN/messages.json';

/** The items createMenus makes, by id → title. */
async function menuTitles(): Promise<Record<string, string>> {
  const made: Record<string, string> = {};
  vi.spyOn(fakeBrowser.contextMenus, 'removeAll').mockResolvedValue(undefined as never);
  vi.spyOn(fakeBrowser.contextMenus, 'create').mockImplementation(((item: { id: string; title: string }) => {
    made[item.id] = item.title;
    return item.id;
  }) as never);
  createMenus();
  await vi.waitFor(() => expect(Object.keys(made)).toHaveLength(5));
  return made;
}

afterEach(async () => {
  vi.restoreAllMocks();
  await setLocale('auto');
});

describe('the context menus', () => {
  it('title every item, the PDF ones too, in Chinese when the UI is Chinese', async () => {
    await setLocale('zh_CN', async () => zh as Catalog);
    const titles = await menuTitles();
    expect(titles['recipe-lens-open-pdf-link']).toBe(zh.menuOpenPdfLink.message);
    expect(titles['recipe-lens-open-pdf-page']).toBe(zh.menuOpenPdfPage.message);
    expect(titles['recipe-lens-tag-claim-pdf']).toBe(zh.menuTag.message);
    const english = new Set([en.menuOpenPdfLink.message, en.menuOpenPdfPage.message, en.menuTag.message, en.menuPanel.message]);
    expect(Object.values(titles).filter((title) => english.has(title))).toEqual([]);
  });

  it('title them in English when the UI is English', async () => {
    await setLocale('en');
    const titles = await menuTitles();
    expect(titles['recipe-lens-open-pdf-link']).toBe(en.menuOpenPdfLink.message);
    expect(titles['recipe-lens-open-pdf-page']).toBe(en.menuOpenPdfPage.message);
  });
});
