/** The Dataset card's connection form: its fields, from and to a saved connection, and what is wrong in it before anything is sent. */
import type { DatasetLink } from '../../lib/dataset/link';
import { t } from '../../lib/i18n';

/** The connection form's fields (the token as typed: it is never read back). */
export interface Form {
  url: string;
  branch: string;
  token: string;
  name: string;
  username: string;
  target: 'branch' | 'review';
  pullOnStart: boolean;
  pullEveryMinutes: number;
}

/** The form over a saved connection (or an empty one). */
export function formOf(link: DatasetLink | null): Form {
  return {
    url: link?.url ?? '',
    branch: link?.branch ?? 'main',
    token: '',
    name: link?.name ?? '',
    username: link?.username ?? '',
    target: link?.target ?? 'branch',
    pullOnStart: link?.pullOnStart ?? false,
    pullEveryMinutes: link?.pullEveryMinutes ?? 0,
  };
}

/** The connection the form describes, trimmed and in range. */
export function linkOf(form: Form): DatasetLink {
  return {
    url: form.url.trim(),
    branch: form.branch.trim(),
    name: form.name.trim(),
    username: form.username.trim(),
    target: form.target,
    pullOnStart: form.pullOnStart,
    pullEveryMinutes: Math.max(0, Math.min(1440, Math.round(form.pullEveryMinutes || 0))),
  };
}

/** What is missing or wrong in the form, before anything is sent (null: nothing). */
export function formProblem(form: Form, hasToken: boolean): string | null {
  try {
    const u = new URL(form.url.trim());
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(u.hostname))) return t('datasetNeedHttps');
    if (u.username || u.password) return t('datasetNoCredentialsInUrl');
  } catch {
    return t('datasetNeedUrl');
  }
  if (!/^[A-Za-z0-9._/-]+$/.test(form.branch.trim()) || form.branch.includes('..')) return t('datasetNeedBranch');
  if (!form.name.trim()) return t('datasetNeedName');
  if (!form.token.trim() && !hasToken) return t('datasetNeedToken');
  return null;
}
