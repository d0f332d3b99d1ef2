// The one-time notice after the site rule changed (issue 24): which stored claims are listed to check.
import { describe, expect, it } from 'vitest';
import { claimsToReview, oldSiteRule, siteRuleChanged } from '../../../lib/source/address-review';
import { siteOf } from '../../../lib/source/sites';
import { claim } from '../fixtures/records';

const at = (url: string, id: string, created = '2026-11-29T10:00:00Z') => claim({ id, created_at: created, source: { ...claim().source, url } });

describe('the old, hand-kept site rule (kept only to review stored addresses)', () => {
  it.each([
    ['example.com', 'example.com'],
    ['www.example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['qwenlm.github.io', 'qwenlm.github.io'],
    ['localhost', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['x.readthedocs.io', 'readthedocs.io'],
  ])('oldSiteRule(%j) = %j', (host, site) => {
    expect(oldSiteRule(host)).toBe(site);
  });
});

describe('hosts the old rule took for one site with their neighbours', () => {
  it.each([
    ['https://x.readthedocs.io/en/latest/', true],
    ['https://y.notion.site/page', true],
    ['https://shop.other.com.mx/', true],
    ['https://a.github.io/card', false],
    ['https://blog.example.co.uk/post', false],
    ['https://huggingface.co/Qwen/Qwen3-8B', false],
    ['http://127.0.0.1:8080/x', false],
    ['not a url', false],
  ])('%s: %s', (url, changed) => {
    expect(siteRuleChanged(url, siteOf)).toBe(changed);
  });
});

describe('the claims the notice lists', () => {
  const since = '2026-12-04T00:00:00Z';
  const claims = [
    at('https://y.readthedocs.io/rl.html', 'clm_review00002'),
    at('https://x.readthedocs.io/rl.html', 'clm_review00001'),
    at('https://a.github.io/card', 'clm_review00003'),
    at('https://x.readthedocs.io/rl.html', 'clm_review00004', '2026-12-05T09:00:00Z'),
    { ...at('https://x.readthedocs.io/old.html', 'clm_review00005'), deleted_at: '2026-11-30T00:00:00Z' },
  ];

  it('lists live claims made before the stricter rule, on a changed host, sorted by address', () => {
    expect(claimsToReview(claims, siteOf, { since, ids: new Set() }).map((c) => c.id)).toEqual(['clm_review00001', 'clm_review00002']);
  });

  it('leaves out what the curator acknowledged, and never changes a claim', () => {
    const before = JSON.stringify(claims);
    expect(claimsToReview(claims, siteOf, { since, ids: new Set(['clm_review00001']) }).map((c) => c.id)).toEqual(['clm_review00002']);
    expect(JSON.stringify(claims)).toBe(before);
  });
});
