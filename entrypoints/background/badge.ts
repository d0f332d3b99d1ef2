/** The toolbar badge of a tab: how many claims are painted there, or how many are orphans. */
import { browser } from 'wxt/browser';
import { plural, t } from '../../lib/i18n';

/** The badge text: the orphan count with "!", else the painted count, else nothing. */
export function badgeText(anchored: number, orphans: number): string {
  return orphans > 0 ? `${orphans}!` : anchored > 0 ? String(anchored) : '';
}

/** Sets a tab's badge text, colour and title from its painted and orphaned claims; returns the badge text. */
export async function showTabStatus(tabId: number, anchored: number, orphans: number): Promise<string> {
  const badge = badgeText(anchored, orphans);
  await browser.action.setBadgeText({ tabId, text: badge });
  await browser.action.setBadgeBackgroundColor({ tabId, color: orphans > 0 ? '#b91c1c' : '#4338ca' });
  const title =
    anchored + orphans === 0
      ? t('badgeTitle')
      : orphans
        ? t('badgeTitleOrphans', plural(anchored, 'paintedOne', 'paintedMany'), plural(orphans, 'orphansOne', 'orphansMany'))
        : t('badgeTitleClaims', plural(anchored, 'paintedOne', 'paintedMany'));
  await browser.action.setTitle({ tabId, title });
  return badge;
}
