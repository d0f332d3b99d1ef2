/** Re-renders a component when the language changes; texts the extension pages share. */
import { useEffect, useState } from 'preact/hooks';
import type { BackupStatus } from '../../lib/backup';
import { locale, onLocaleChange, plural, t, type Locale } from '../../lib/i18n';

/** The current language; the component re-renders when it changes. */
export function useLocale(): Locale {
  const [value, setValue] = useState(locale());
  useEffect(() => onLocaleChange(() => setValue(locale())), []);
  return value;
}

/** Why a backup is due, in the current language (from the counts the background reports). */
export function backupReason(status: Pick<BackupStatus, 'changes' | 'lastBackupAt' | 'days'>): string {
  const changed = status.lastBackupAt
    ? plural(status.changes, 'backupChangedOne', 'backupChangedMany')
    : plural(status.changes, 'backupChangedFirstOne', 'backupChangedFirstMany');
  if (status.days === undefined) return changed;
  return t(status.lastBackupAt ? 'backupDaysLast' : 'backupDaysFirst', changed, status.days);
}
