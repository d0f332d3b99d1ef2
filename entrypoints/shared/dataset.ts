/** The dataset's one capability that is not a call: the host permission, asked from the page. */
import { browser } from 'wxt/browser';
import { originPattern } from '../../lib/dataset/summary';

/** Asks the browser for the repository's origin (only that one, and only when it is not granted already). */
export async function allowHost(url: string): Promise<boolean> {
  const origins = [originPattern(url)];
  if (await browser.permissions.contains({ origins })) return true;
  return browser.permissions.request({ origins });
}
