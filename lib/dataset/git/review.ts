/**
 * Where a curator opens the review of a branch they published to: a pull
 * request on GitHub, a merge request on GitLab, a pull request on Gitea (and
 * Forgejo, Codeberg). Other hosts get no link.
 */

/** The code forges Recipe Lens knows. */
export type Forge = 'github' | 'gitlab' | 'gitea';

/** The forge of a repository URL, from its host name. */
export function forgeOf(url: string): Forge | null {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
  if (host === 'github.com' || host.startsWith('github.')) return 'github';
  if (host === 'gitlab.com' || host.startsWith('gitlab.')) return 'gitlab';
  if (host === 'codeberg.org' || host.startsWith('gitea.') || host.startsWith('forgejo.') || host.includes('gitea')) return 'gitea';
  return null;
}

/** The repository's web page: the clone URL without credentials, `.git` and trailing slashes. */
export function webUrl(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    const path = u.pathname.replace(/\/+$/, '').replace(/\.git$/, '');
    return `${u.protocol}//${u.host}${path}`;
  } catch {
    return null;
  }
}

/** The link that opens a review of `head` into `base` (null for hosts Recipe Lens does not know). */
export function reviewLink(url: string, base: string, head: string, forge: Forge | null = forgeOf(url)): string | null {
  const web = webUrl(url);
  if (!web || !forge) return null;
  const b = encodeURIComponent(base).replace(/%2F/gi, '/');
  const h = encodeURIComponent(head).replace(/%2F/gi, '/');
  switch (forge) {
    case 'github':
      return `${web}/compare/${b}...${h}?expand=1`;
    case 'gitea':
      return `${web}/compare/${b}...${h}`;
    case 'gitlab':
      return `${web}/-/merge_requests/new?merge_request%5Bsource_branch%5D=${encodeURIComponent(head)}&merge_request%5Btarget_branch%5D=${encodeURIComponent(base)}`;
  }
}
