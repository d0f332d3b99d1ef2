/** The browser's messages for `lib/i18n`: every context installs them first, before it shows or sends anything. */
import { browser } from 'wxt/browser';
import { type Catalog, type Locale, useMessageSource } from '../../lib/i18n';

/** Lets `t()` ask the browser's catalog (the one it picked from its UI language) and read the shipped catalogs. */
export function useBrowserMessages(): void {
  useMessageSource({
    getMessage: (key, subs) => browser.i18n.getMessage(key as never, subs as never),
    uiLanguage: () => browser.i18n.getUILanguage(),
    async loadCatalog(target: Locale): Promise<Catalog> {
      const response = await fetch(browser.runtime.getURL(`/_locales/${target}/messages.json` as never));
      if (!response.ok) throw new Error(`the ${target} catalog could not be read (${response.status})`);
      return (await response.json()) as Catalog;
    },
  });
}
