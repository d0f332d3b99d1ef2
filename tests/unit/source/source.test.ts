import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClaimRecord, type SourceKind } from '../../../lib/schema';
import { KNOWN_PUBLISHERS, detectSource, guessModels, normalizeDate, normalizeUrl, sameSite } from '../../../lib/source';
import { siteOf } from '../../../lib/source/sites';

const TODAY = '2026-11-29';
const docOf = (html: string): Document => new DOMParser().parseFromString(html, 'text/html');
const page = (head: string, body = ''): Document => docOf(`<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`);

describe('normalizeUrl', () => {
  it.each([
    ['https://example.com/post?utm_source=x&utm_medium=y&id=3#section-2', 'https://example.com/post?id=3'],
    ['https://example.com/a?b=2&fbclid=abc&a=1&gclid=z', 'https://example.com/a?b=2&a=1'],
    [
      'https://example.com/a?mc_cid=1&mc_eid=2&ref=hn&ref_src=twsrc&spm=a.b&from=timeline&si=x&igshid=y&_hsenc=p&_hsmi=q&yclid=r&msclkid=s&UTM_Campaign=t',
      'https://example.com/a',
    ],
    ['https://example.com/a?z=1&y=2&x=3', 'https://example.com/a?z=1&y=2&x=3'],
    ['https://example.com/a?q=a%20b&tag=c+d', 'https://example.com/a?q=a%20b&tag=c+d'],
    ['HTTPS://Example.COM:443/Path/To', 'https://example.com/Path/To'],
    ['http://example.com:80', 'http://example.com/'],
    ['http://example.com:8080/x', 'http://example.com:8080/x'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/blog/index.html', 'https://example.com/blog/index.html'],
    ['https://example.com/page?', 'https://example.com/page'],
    ['https://example.com/page#:~:text=slime', 'https://example.com/page'],
    ['https://user:secret@example.com/x', 'https://example.com/x'],
    ['  https://github.com/THUDM/slime  ', 'https://github.com/THUDM/slime'],
    ['not a url', 'not a url'],
    ['  /relative/path  ', '/relative/path'],
    ['chrome://extensions/', 'chrome://extensions/'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it.each([
    ['https://www.example.com/a?utm_source=x', 'https://example.com/a', 'https://example.com/a'],
    ['https://blog.example.com/post?id=1', 'https://www.example.com/post', 'https://www.example.com/post'],
    ['https://example.com/a/b?x=1', '/canonical/b', 'https://example.com/canonical/b'],
    ['https://example.com/a', 'https://example.com/c#frag', 'https://example.com/c'],
    ['https://example.com/a', 'https://medium.com/@someone/a', 'https://example.com/a'],
    ['https://qwenlm.github.io/blog/qwen3/', 'https://someone.github.io/blog/qwen3/', 'https://qwenlm.github.io/blog/qwen3/'],
    ['https://example.com/a', 'ftp://example.com/a', 'https://example.com/a'],
    ['https://example.com/a', '', 'https://example.com/a'],
    ['https://example.com/a', null, 'https://example.com/a'],
    ['https://news.example.co.uk/a', 'https://www.example.co.uk/b', 'https://www.example.co.uk/b'],
    ['https://a.co.uk/x', 'https://b.co.uk/x', 'https://a.co.uk/x'],
    // The Public Suffix List decides (its private section too): names under these suffixes are sites of their own.
    ['https://shop.other.com.mx/a', 'https://other.com.mx/b', 'https://other.com.mx/b'],
    ['https://other.com.mx/a', 'https://another.com.mx/a', 'https://other.com.mx/a'],
    ['https://x.readthedocs.io/en/latest/', 'https://y.readthedocs.io/en/latest/', 'https://x.readthedocs.io/en/latest/'],
    ['https://x.readthedocs.io/en/latest/', 'https://x.readthedocs.io/en/stable/', 'https://x.readthedocs.io/en/stable/'],
    ['https://team.notion.site/page', 'https://other.notion.site/page', 'https://team.notion.site/page'],
    ['https://a.github.io/card', 'https://b.github.io/card', 'https://a.github.io/card'],
    ['https://a.github.io/card', 'https://a.github.io/card/', 'https://a.github.io/card/'],
    ['http://127.0.0.1:8080/a', 'http://127.0.0.1:9090/b', 'http://127.0.0.1:9090/b'],
    ['http://127.0.0.1/a', 'http://127.0.0.2/a', 'http://127.0.0.1/a'],
    ['http://localhost:3000/a', 'http://localhost:3000/b', 'http://localhost:3000/b'],
    ['http://localhost/a', 'http://other.localhost/a', 'http://localhost/a'],
  ])('%j with canonical %j → %j', (url, canonical, expected) => {
    expect(normalizeUrl(url, canonical, siteOf)).toBe(expected);
  });

  it.each([
    ['https://Example.com:443/a/../b/?utm_source=x&k=v w#f'],
    ['https://example.com/%E4%B8%AD%E6%96%87?q=%20'],
    ['https://例子.测试/路径?名=值'],
    ['http://fixtures.test/blog/qwen3/'],
    ['https://example.com/a?x=1&&y=2&'],
    ['not a url'],
  ])('is idempotent on %j', (input) => {
    const once = normalizeUrl(input);
    expect(normalizeUrl(once)).toBe(once);
    expect(normalizeUrl(once, once, siteOf)).toBe(once);
  });

  it.each([
    ['example.com', 'example.com'],
    ['www.example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['qwenlm.github.io', 'qwenlm.github.io'],
    ['shop.other.com.mx', 'other.com.mx'],
    ['x.readthedocs.io', 'x.readthedocs.io'],
    ['team.notion.site', 'team.notion.site'],
    ['localhost', null],
    ['127.0.0.1', null],
  ])('siteOf(%j) = %j', (host, site) => {
    expect(siteOf(host)).toBe(site);
  });

  it.each([
    ['https://a.github.io/x', 'https://b.github.io/x', false],
    ['https://a.github.io/x', 'https://A.github.io/y', true],
    ['https://x.readthedocs.io/', 'https://y.readthedocs.io/', false],
    ['https://one.notion.site/', 'https://two.notion.site/', false],
    ['https://shop.other.com.mx/', 'https://other.com.mx/', true],
    ['https://other.com.mx/', 'https://another.com.mx/', false],
    ['http://127.0.0.1/', 'http://127.0.0.1:8080/', true],
    ['http://127.0.0.1/', 'http://10.0.0.1/', false],
    ['http://localhost/', 'http://localhost:5173/', true],
    ['http://[::1]/', 'http://localhost/', false],
  ])('sameSite(%j, %j) = %j', (a, b, same) => {
    expect(sameSite(a, b, siteOf)).toBe(same);
  });
});

describe('normalizeDate', () => {
  it.each([
    ['2025/04/29', '2025-04-29'],
    ['2025-04-29', '2025-04-29'],
    ['2025-4-9', '2025-04-09'],
    ['2025-04-29T23:30:00-07:00', '2025-04-29'],
    ['2025-04-29T10:00:00.000Z', '2025-04-29'],
    ['20250429', '2025-04-29'],
    ['April 29, 2025', '2025-04-29'],
    ['Sept. 3, 2025', '2025-09-03'],
    ['29 Apr 2025', '2025-04-29'],
    ['2025年4月29日', '2025-04-29'],
    ['29. April 2025', '2025-04-29'],
    ['Tue, 29 Apr 2025 10:00:00 GMT', '2025-04-29'],
    ['2025-02-27T16:45:00.000+0000', '2025-02-27'],
    ['29.04.2025', '2025-04-29'],
    ['Publikováno 14. 3. 2025', '2025-03-14'],
    ['29-04-2025', '2025-04-29'],
    ['04/29/2025', '2025-04-29'],
    ['29/04/2025', '2025-04-29'],
    ['03/04/2025', '2025-03-04'],
    ['31.02.2025', null],
    ['2025', null],
    ['2025-02-30', null],
    ['yesterday', null],
    ['', null],
    [null, null],
  ])('%j → %j', (input, expected) => {
    expect(normalizeDate(input)).toBe(expected);
  });
});

describe('detectSource on small documents', () => {
  it('reads an arXiv abstract page with citation_* meta', () => {
    const doc = page(
      `<title>[2501.12948] DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning</title>
       <meta name="citation_title" content="DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning">
       <meta name="citation_date" content="2025/01/22">
       <meta name="citation_pdf_url" content="https://arxiv.org/pdf/2501.12948">
       <meta name="citation_arxiv_id" content="2501.12948">
       <meta property="og:site_name" content="arXiv.org">
       <link rel="canonical" href="https://arxiv.org/abs/2501.12948">`,
      '<h1 class="title">DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning</h1>',
    );
    const s = detectSource(doc, 'https://arxiv.org/abs/2501.12948v1?utm_source=x#S3', TODAY, { siteOf });
    expect(s).toEqual({
      url: 'https://arxiv.org/abs/2501.12948',
      title: 'DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning',
      kind: 'technical_report',
      publisher: null,
      published: '2025-01-22',
      accessed: TODAY,
      models: ['DeepSeek-R1'],
    });
  });

  it('reads a Hugging Face model card', () => {
    const doc = page(
      '<title>Qwen/Qwen3-8B · Hugging Face</title><meta property="og:title" content="Qwen/Qwen3-8B · Hugging Face">',
      '<h1>Qwen3-8B</h1><h2>Qwen3 Highlights</h2>',
    );
    const s = detectSource(doc, 'https://huggingface.co/Qwen/Qwen3-8B', TODAY, { siteOf });
    expect(s.kind).toBe('model_card');
    expect(s.publisher).toBe('Qwen Team');
    expect(s.title).toBe('Qwen/Qwen3-8B · Hugging Face');
    expect(s.models[0]).toBe('Qwen3-8B');
    expect(s.models).toContain('Qwen3');
  });

  it('reads a GitHub repository, keeping unmapped owners as publisher', () => {
    const doc = page(
      '<title>GitHub - THUDM/slime: slime is an LLM post-training framework for RL Scaling.</title>',
      '<article class="markdown-body"><h1>slime</h1></article>',
    );
    const s = detectSource(doc, 'https://github.com/THUDM/slime', TODAY, { siteOf });
    expect([s.kind, s.publisher, s.url]).toEqual(['repository', 'THUDM', 'https://github.com/THUDM/slime']);
  });

  it('reads a GitHub release page', () => {
    const doc = page(
      '<title>Release v0.5.0 · volcengine/verl · GitHub</title>',
      '<div class="release-header"><relative-time datetime="2025-07-22T08:00:00Z">Jul 22</relative-time></div>',
    );
    const s = detectSource(doc, 'https://github.com/volcengine/verl/releases/tag/v0.5.0', TODAY, { siteOf });
    expect([s.kind, s.publisher, s.published]).toEqual(['release', 'ByteDance Seed', '2025-07-22']);
  });

  it('calls a Medium post third-party', () => {
    const doc = page(
      `<title>How Qwen3 was trained | by Some One | Medium</title>
       <meta property="og:type" content="article">
       <meta property="og:site_name" content="Medium">
       <meta property="og:title" content="How Qwen3 was trained">
       <meta property="article:published_time" content="2025-05-02T08:10:00.000Z">
       <meta name="author" content="Some One">`,
      '<article><h1>How Qwen3 was trained</h1></article>',
    );
    const s = detectSource(doc, 'https://medium.com/@someone/how-qwen3-was-trained-abc123?source=rss', TODAY, { siteOf });
    expect([s.kind, s.publisher, s.published, s.title]).toEqual(['third_party', 'Medium', '2025-05-02', 'How Qwen3 was trained']);
    expect(s.models).toEqual(['Qwen3']);
  });

  it('reads a lab blog post with article:published_time', () => {
    const doc = page(
      `<title>GLM-5: From Vibe Coding to Agentic Engineering</title>
       <meta property="og:type" content="article">
       <meta property="og:site_name" content="Z.ai">
       <meta property="article:published_time" content="2026-02-11T12:00:00+08:00">`,
      '<article><h1>GLM-5: From Vibe Coding to Agentic Engineering</h1><h2>Post-training with slime</h2></article>',
    );
    const s = detectSource(doc, 'https://z.ai/blog/glm-5', TODAY, { siteOf });
    expect([s.kind, s.publisher, s.published, s.models]).toEqual(['official_blog', 'Zhipu AI', '2026-02-11', ['GLM-5']]);
  });

  it.each([
    ['a PDF in a lab repository', 'https://github.com/deepseek-ai/DeepSeek-R1/blob/main/DeepSeek_R1.pdf', '<title>x</title>', 'technical_report', 'DeepSeek'],
    ['an OpenReview page', 'https://openreview.net/forum?id=abc', '<title>Some paper | OpenReview</title>', 'technical_report', null],
    [
      'a page titled technical report',
      'https://example.org/kimi',
      '<title>Kimi K2: Open Agentic Intelligence — Technical Report</title>',
      'technical_report',
      null,
    ],
    ['a Hugging Face paper page', 'https://huggingface.co/papers/2505.09388', '<title>Paper page - Qwen3 Technical Report</title>', 'technical_report', null],
    ['a GitHub repository of a mapped owner', 'https://github.com/QwenLM/Qwen3', '<title>GitHub - QwenLM/Qwen3</title>', 'repository', 'Qwen Team'],
    ['a GitHub file view', 'https://github.com/zai-org/GLM-5/blob/main/README.md', '<title>GLM-5/README.md</title>', 'repository', 'Zhipu AI'],
    ['a GitHub organisation page', 'https://github.com/orgs/QwenLM/repositories', '<title>QwenLM repositories</title>', 'third_party', null],
    ['a Hugging Face dataset', 'https://huggingface.co/datasets/deepseek-ai/some-data', '<title>x</title>', 'repository', 'DeepSeek'],
    ['a ModelScope model page', 'https://modelscope.cn/models/Qwen/Qwen3-8B', '<title>Qwen3-8B</title>', 'model_card', 'Qwen Team'],
    ['the Hugging Face blog', 'https://huggingface.co/blog/open-r1', '<title>Open-R1</title>', 'official_blog', 'Hugging Face'],
    ['an org article on the Hugging Face blog', 'https://huggingface.co/blog/zai-org/glm-5', '<title>GLM-5</title>', 'official_blog', 'Zhipu AI'],
    [
      'a lab sub-domain',
      'https://api-docs.deepseek.com/news/news250120',
      '<title>DeepSeek-R1 Release | DeepSeek API Docs</title>',
      'official_blog',
      'DeepSeek',
    ],
    ['the Qwen blog', 'https://qwenlm.github.io/blog/qwen3/', '<title>Qwen3: Think Deeper, Act Faster</title>', 'official_blog', 'Qwen Team'],
    [
      'a site calling itself a lab',
      'https://lab.example/posts/1',
      '<title>x</title><meta property="og:site_name" content="Mistral AI">',
      'official_blog',
      'Mistral AI',
    ],
    ['release notes', 'https://help.example.com/notes', '<title>Model Release Notes</title>', 'release', null],
    ['a changelog', 'https://example.com/changelog', '<title>Changelog</title><meta property="og:site_name" content="Example">', 'release', 'Example'],
    ['a version release on an unknown site', 'https://example.com/x', '<title>Release v1.2.0</title>', 'release', null],
    [
      'a Substack post',
      'https://someone.substack.com/p/glm-5',
      '<title>GLM-5 notes</title><meta property="og:type" content="article"><meta property="og:site_name" content="Interconnects">',
      'third_party',
      'Interconnects',
    ],
    // The author is never the publisher; nothing on this page says "知乎" is the site rather than part of the title.
    ['a Zhihu article', 'https://zhuanlan.zhihu.com/p/123', '<title>Qwen3 技术解读 - 知乎</title><meta name="author" content="某人">', 'third_party', null],
    [
      'a third-party /blog/ page that names itself',
      'https://ml.example/blog/qwen3-review',
      '<title>Qwen3 review</title><meta property="og:site_name" content="ML Weekly">',
      'third_party',
      'ML Weekly',
    ],
  ] as Array<[string, string, string, SourceKind, string | null]>)('classifies %s', (_what, url, head, kind, publisher) => {
    const s = detectSource(page(head, '<article><p>text</p></article>'), url, TODAY, { siteOf });
    expect([s.kind, s.publisher]).toEqual([kind, publisher]);
  });

  it.each([
    ['a header <time>', '', '<article><header><time datetime="2025-04-29">April 29</time></header></article>', '2025-04-29'],
    [
      'JSON-LD datePublished',
      '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage"},{"@type":"BlogPosting","datePublished":"2025-07-28T00:00:00+08:00"}]}</script>',
      '',
      '2025-07-28',
    ],
    ['malformed JSON-LD', '<script type="application/ld+json">{oops</script>', '', null],
    ['citation_publication_date', '<meta name="citation_publication_date" content="2025/04/29">', '', '2025-04-29'],
    ['nothing', '', '<p>Posted by the team</p>', null],
  ])('dates a page from %s', (_what, head, body, expected) => {
    expect(detectSource(page(`<title>t</title>${head}`, body), 'https://example.com/p', TODAY, { siteOf }).published).toBe(expected);
  });

  it('collapses white space in titles and falls back to og:title, then <title>', () => {
    expect(detectSource(page('<title>  A \n  title  </title>'), 'https://example.com/', TODAY, { siteOf }).title).toBe('A title');
    expect(detectSource(page('<title>Site</title><meta property="og:title" content=" The   post "> '), 'https://example.com/', TODAY, { siteOf }).title).toBe(
      'The post',
    );
  });

  it('resolves a relative canonical link against the page URL', () => {
    const doc = page('<title>t</title><link rel="canonical" href="/blog/post">');
    expect(detectSource(doc, 'https://example.com/blog/post?utm_medium=x&page=2#top', TODAY, { siteOf }).url).toBe('https://example.com/blog/post');
  });

  it('ignores a canonical link to another site', () => {
    const doc = page('<title>t</title><link rel="canonical" href="https://syndication.example.net/post">');
    expect(detectSource(doc, 'https://example.com/post', TODAY, { siteOf }).url).toBe('https://example.com/post');
  });
});

const at = (url: string, head: string, body = '') => detectSource(page(head, body), url, TODAY, { siteOf });
const ld = (json: string) => `<script type="application/ld+json">${json}</script>`;

describe('titles: the page’s own headline, not a social card', () => {
  it.each([
    [
      'a heading that is the <title> beats a teaser og:title',
      '<title>Inside the recipe | TechPulse</title><meta property="og:title" content="You won’t believe this">',
      '<article><h1>Inside the recipe</h1></article>',
      'Inside the recipe',
    ],
    [
      'an h2 headline beats a teaser og:title when the only h1 is the logo',
      '<title>How labs hide rewards | Wren</title><meta property="og:site_name" content="Wren"><meta property="og:title" content="The secret">',
      '<header><h1>Wren</h1></header><h2>How labs hide rewards</h2>',
      'How labs hide rewards',
    ],
    [
      'the JSON-LD headline beats og:title',
      `<title>Magpie</title><meta property="og:title" content="One trick">${ld('{"@type":"NewsArticle","headline":"Critic-free RL gains ground"}')}`,
      '',
      'Critic-free RL gains ground',
    ],
    [
      'microdata headline',
      '<title>Blog</title>',
      '<div itemscope itemtype="https://schema.org/BlogPosting"><h1 itemprop="headline">Process rewards</h1></div>',
      'Process rewards',
    ],
    ['Dublin Core DC.title', '<title>Working paper 25-07</title><meta name="DC.title" content="Scaling laws for DPO">', '', 'Scaling laws for DPO'],
    ['og:title that agrees with the heading', '<title>A | Site</title><meta property="og:title" content="A">', '<h1>A</h1>', 'A'],
    ['og:title when no heading contradicts it', '<title>Site</title><meta property="og:title" content="The post">', '<h1>Something else</h1>', 'The post'],
    ['the site name after " | "', '<title>Headline | Ferrous Weekly</title><meta property="og:site_name" content="Ferrous Weekly">', '', 'Headline'],
    ['the site name after " - "', '<title>Headline - Ferrous Weekly</title><meta property="og:site_name" content="Ferrous Weekly">', '', 'Headline'],
    ['the site name after " – "', '<title>Headline – Ferrous Weekly</title><meta property="og:site_name" content="Ferrous Weekly">', '', 'Headline'],
    ['the site name after " · "', '<title>Headline · Ferrous Weekly</title><meta property="og:site_name" content="Ferrous Weekly">', '', 'Headline'],
    [
      'a Chinese site name after "_"',
      '<title>多家实验室公开训练框架_算力日报</title><meta property="og:site_name" content="算力日报">',
      '',
      '多家实验室公开训练框架',
    ],
    [
      'a site name that opens the title',
      '<title>GitHub - owner/repo: a framework</title><meta property="og:site_name" content="GitHub">',
      '',
      'owner/repo: a framework',
    ],
    [
      'a site name longer than the declared one',
      '<title>Release notes – Acme Cloud Docs</title><meta name="application-name" content="Acme Cloud">',
      '',
      'Release notes',
    ],
    [
      'a byline and the site name',
      '<title>How it was trained | by Ann Lee | Medium</title><meta property="og:site_name" content="Medium">',
      '',
      'How it was trained',
    ],
    ['a title that is only the site name', '<title>Ferrous Weekly</title><meta property="og:site_name" content="Ferrous Weekly">', '', 'Ferrous Weekly'],
    ['nothing stripped when the page names no site', '<title>Qwen/Qwen3-8B · Hugging Face</title>', '<h1>Qwen3-8B</h1>', 'Qwen/Qwen3-8B · Hugging Face'],
    ['a colon is part of the title', '<title>Qwen3: Think Deeper | Qwen</title><meta property="og:site_name" content="Qwen">', '', 'Qwen3: Think Deeper'],
    [
      'space-separated property lists',
      '<title>x</title><meta property="og:title dc:title" content="Reward models, revisited">',
      '',
      'Reward models, revisited',
    ],
  ])('%s', (_what, head, body, title) => {
    expect(at('https://site.example/post', head, body).title).toBe(title);
  });
});

describe('publishers: the organisation, never the author', () => {
  const article = (json: string) => ld(`{"@context":"https://schema.org",${json}}`);
  it.each([
    [
      'JSON-LD in //<![CDATA[',
      `<title>t</title><script type="application/ld+json">//<![CDATA[\n{"@type":"NewsArticle","publisher":{"@type":"Organization","name":"The Harbor Ledger"}}\n//]]></script><meta name="author" content="Maria Kowalski">`,
      'The Harbor Ledger',
    ],
    [
      'JSON-LD in /*<![CDATA[*/',
      `<title>t</title><script type="application/ld+json">/*<![CDATA[*/{"@type":"Article","publisher":{"name":"Harbor"}}/*]]>*/</script>`,
      'Harbor',
    ],
    ['JSON-LD in bare <![CDATA[', `<title>t</title><script type="application/ld+json"><![CDATA[{"@type":"Article","publisher":"Harbor"}]]></script>`, 'Harbor'],
    [
      'JSON-LD in an HTML comment, with trailing commas',
      `<title>t</title><script type="application/ld+json"><!--{"@type":"Article","publisher":{"name":"Fjord",},}--></script>`,
      'Fjord',
    ],
    [
      'JSON-LD with a line break inside a string',
      `<title>t</title><script type="application/ld+json">{"@type":"Article","description":"a\nb","publisher":{"name":"Fjord"}}</script>`,
      'Fjord',
    ],
    [
      'JSON-LD with a media-type parameter',
      `<title>t</title><script type="application/ld+json; charset=utf-8">{"@type":"Article","publisher":{"name":"Fjord"}}</script>`,
      'Fjord',
    ],
    [
      'publisher as a string',
      `<title>t</title>${article('"@type":"BlogPosting","author":"Lena","publisher":"Fischer & Park Labs"')}<meta name="author" content="Lena">`,
      'Fischer & Park Labs',
    ],
    [
      'publisher as an array',
      `<title>t</title>${article('"@type":"ReportageNewsArticle","publisher":[{"@type":"NewsMediaOrganization","name":"Meridian Times"}]')}`,
      'Meridian Times',
    ],
    [
      'publisher by @id in an @graph',
      `<title>t</title>${article('"@graph":[{"@type":"Article","publisher":{"@id":"#org"}},{"@type":"WebSite","name":"Northwind Blog"},{"@type":"Organization","@id":"#org","name":"Northwind Research"}]')}`,
      'Northwind Research',
    ],
    ['publisher that is an HTML-escaped name', `<title>t</title>${article('"@type":"Article","publisher":{"name":"Bytes &amp; Bolts"}')}`, 'Bytes & Bolts'],
    [
      'a Person publisher is passed over for the site name',
      `<title>t</title><meta property="og:site_name" content="Tern Log">${article('"@type":"BlogPosting","publisher":{"@type":"Person","name":"Alex"}')}`,
      'Tern Log',
    ],
    ['a Person publisher alone gives nothing', `<title>t</title>${article('"@type":"BlogPosting","publisher":{"@type":"Person","name":"Alex"}')}`, null],
    [
      'an organisation that writes its own blog',
      `<title>t</title><meta name="author" content="Halcyon">${article('"@type":["Article","BlogPosting"],"author":{"@type":"Organization","name":"Halcyon"},"publisher":{"@type":"Organization","name":"Halcyon"}')}`,
      'Halcyon',
    ],
    ['meta author alone gives nothing', '<title>Post</title><meta name="author" content="Jane Okafor">', null],
    ['article:author alone gives nothing', '<title>Post</title><meta property="article:author" content="Tom Reyes">', null],
    [
      'a reporter and a site name',
      '<title>Story - Lakeside Gazette</title><meta name="author" content="Tom Reyes"><meta property="og:site_name" content="Lakeside Gazette">',
      'Lakeside Gazette',
    ],
    [
      'a site name equal to the author',
      '<title>Post</title><meta name="author" content="Jane Okafor"><meta property="og:site_name" content="Jane Okafor">',
      null,
    ],
    ['a tagline after " - "', '<title>t</title><meta property="og:site_name" content="Aktuálně.cz - Víte, co se právě děje">', 'Aktuálně.cz'],
    ['a tagline after " | "', '<title>t</title><meta property="og:site_name" content="Gradient Garden | Ideas for builders">', 'Gradient Garden'],
    ['a tagline after " — "', '<title>t</title><meta property="og:site_name" content="Polaris Post — Independent journalism">', 'Polaris Post'],
    ['a tagline after ": "', '<title>t</title><meta property="og:site_name" content="Kestrel: your daily dose of ML">', 'Kestrel'],
    ['a tagline after " · "', '<title>t</title><meta property="og:site_name" content="Rechenwerk · Das Magazin für Informatik">', 'Rechenwerk'],
    [
      'a tagline before the name, told by the host',
      '<title>t</title><meta property="og:site_name" content="Ideas worth shipping - Bluefin Labs">',
      'Bluefin Labs',
    ],
    ['a Chinese tagline', '<title>t</title><meta property="og:site_name" content="算力日报 - 人工智能新闻与评论">', '算力日报'],
    [
      'space-separated property lists',
      '<title>t</title><meta property="og:site_name dc:publisher" content="Quarry Notes"><meta name="author" content="Ken">',
      'Quarry Notes',
    ],
    ['microdata publisher', '<title>t</title>', 'Ostrava AI'],
    ['Dublin Core DC.publisher', '<title>t</title><meta name="DC.publisher" content="Institute for Learning Systems">', 'Institute for Learning Systems'],
    ['application-name', '<title>t</title><meta name="application-name" content="Acme Cloud">', 'Acme Cloud'],
    ['a title affix that spells the host', '<title>Post | Bluefin Labs</title><meta name="author" content="Ann">', 'Bluefin Labs'],
    ['a title affix beside the page’s heading', '<title>GLM-5 后训练流程解读 - 知乎</title>', '知乎'],
    ['a title affix that is a kind of document, not a site', '<title>Kimi K2 — Technical Report</title>', null],
    ['a title affix that is a byline', '<title>The state of RL - by Hanna Berg</title>', null],
  ])('%s', (what, head, publisher) => {
    const body =
      what === 'microdata publisher'
        ? '<div itemscope itemtype="https://schema.org/BlogPosting"><div itemprop="publisher" itemscope itemtype="https://schema.org/Organization"><meta itemprop="name" content="Ostrava AI"></div></div>'
        : what.includes('heading')
          ? '<h1>GLM-5 后训练流程解读</h1>'
          : '<h1>The state of RL</h1>';
    expect(at('https://bluefinlabs.example/p/1', head, body).publisher).toBe(publisher);
  });
});

describe('publication dates: never a modified date', () => {
  it.each([
    [
      'JSON-LD in //<![CDATA[',
      `<script type="application/ld+json">//<![CDATA[\n{"@type":"NewsArticle","dateModified":"2025-09-15","datePublished":"2025-09-14T07:45:00+02:00"}\n//]]></script>`,
      '',
      '2025-09-14',
    ],
    [
      'an @graph whose page and article state both dates',
      ld(
        '{"@graph":[{"@type":"WebPage","dateModified":"2025-04-02","datePublished":"2025-03-27"},{"@type":"Article","dateModified":"2025-04-02","datePublished":"2025-03-28"}]}',
      ),
      '',
      '2025-03-28',
    ],
    ['JSON-LD with only dateModified', ld('{"@type":"Article","dateModified":"2025-04-02"}'), '', null],
    [
      'article:published_time after article:modified_time',
      '<meta property="article:modified_time" content="2025-07-30"><meta property="article:published_time" content="2025-05-19">',
      '',
      '2025-05-19',
    ],
    [
      'only article:modified_time and og:updated_time',
      '<meta property="article:modified_time" content="2025-07-30"><meta property="og:updated_time" content="2025-07-30">',
      '',
      null,
    ],
    [
      'space-separated property lists',
      '<meta property="article:modified_time og:updated_time" content="2025-02-01"><meta property="dc:date article:published_time" content="2024-11-20">',
      '',
      '2024-11-20',
    ],
    [
      'a header <time> marked published after one marked updated',
      '',
      '<article><header><p>Updated <time datetime="2025-06-01">Jun 1</time> · Published <time datetime="2025-05-20">May 20</time></p></header></article>',
      '2025-05-20',
    ],
    [
      'WordPress entry-date and updated',
      '',
      '<article><header><time class="updated" datetime="2025-07-01">x</time><time class="entry-date published" datetime="2025-06-24">y</time></header></article>',
      '2025-06-24',
    ],
    ['only an "Updated" <time>', '', '<article><header><p>Updated <time datetime="2025-12-12">Dec 12</time></p></header></article>', null],
    ['only a "Last updated" <time>', '', '<main><p>Last updated <time datetime="2025-12-01">Dec 1</time></p></main>', null],
    ['a time marked dateModified', '', '<time itemprop="dateModified" datetime="2025-03-02">x</time>', null],
    ['an unlabelled <time> in the article', '', '<article><p class="meta"><time datetime="2024-10-02">Oct 2</time></p></article>', '2024-10-02'],
    ['a <time> in the footer', '', '<main><p>x</p></main><footer><time datetime="2025-08-30">Aug 30</time></footer>', null],
    ['a <time> without datetime', '', '<article><p class="meta">By Ada · <time>May 2, 2025</time></p></article>', '2025-05-02'],
    [
      'itemprop datePublished',
      '',
      '<div itemscope><time itemprop="datePublished" datetime="2025-02-17">x</time><time itemprop="dateModified" datetime="2025-03-02">y</time></div>',
      '2025-02-17',
    ],
    [
      'Dublin Core issued after modified',
      '<meta name="DC.date.modified" content="2025-09-30"><meta name="DC.date.issued" content="2025-07-15">',
      '',
      '2025-07-15',
    ],
    ['dcterms:issued in RDFa', '<meta property="dcterms:issued" content="2025-07-15">', '', '2025-07-15'],
    ['parsely-pub-date', '<meta name="parsely-pub-date" content="2025-01-21T14:05:00Z">', '', '2025-01-21'],
    ['parsely-page', `<meta name="parsely-page" content='{"title":"x","pub_date":"2025-03-03T11:00:00Z"}'>`, '', '2025-03-03'],
    ['sailthru.date', '<meta name="sailthru.date" content="2025-04-22 09:00:00">', '', '2025-04-22'],
    ['pubdate as digits', '<meta name="pubdate" content="20250612">', '', '2025-06-12'],
    ['meta date, not last-modified', '<meta name="last-modified" content="2025-03-10"><meta name="date" content="2025-03-04">', '', '2025-03-04'],
    [
      'a byline, "last updated" first',
      '',
      '<article><div class="post-meta"><span class="updated-date">Last updated April 9, 2025</span> <span class="published-date">Published March 3, 2025</span></div></article>',
      '2025-03-03',
    ],
    ['a Chinese edit time', '', '<article><div class="ContentItem-time">编辑于 2026-02-18 10:00</div></article>', null],
    ['a day-first dotted byline', '', '<article><p class="article-date">Publikováno 14. 3. 2025</p></article>', '2025-03-14'],
  ])('%s', (_what, head, body, expected) => {
    expect(at('https://site.example/post', `<title>t</title>${head}`, body).published).toBe(expected);
  });

  it('reads a date in the URL path when the page states none', () => {
    expect(at('https://site.example/2024/12/18/rlvr/', '<title>t</title>').published).toBe('2024-12-18');
    expect(at('https://site.example/news/2025/0808/rl.html', '<title>t</title>').published).toBe('2025-08-08');
    expect(at('https://site.example/v2/1/3/x', '<title>t</title>').published).toBeNull();
  });

  it('dates a repository or model card only from metadata, not from the commit times it shows', () => {
    const commit = '<div class="Box-header"><relative-time datetime="2025-11-02T10:00:00Z">Nov 2</relative-time></div>';
    expect(at('https://github.com/MoonshotAI/Kimi-K2', '<title>GitHub - MoonshotAI/Kimi-K2</title>', commit).published).toBeNull();
    expect(
      at('https://huggingface.co/Qwen/Qwen3-8B', '<title>Qwen/Qwen3-8B</title>', '<p>Updated <time datetime="2025-05-01">May 1</time></p>').published,
    ).toBeNull();
    expect(at('https://github.com/MoonshotAI/Kimi-K2', `<title>x</title>${ld('{"@type":"SoftwareSourceCode","datePublished":"2025-07-11"}')}`).published).toBe(
      '2025-07-11',
    );
  });
});

describe('guessModels', () => {
  it.each([
    ['Qwen3: Think Deeper, Act Faster', '', 'https://qwenlm.github.io/blog/qwen3/', ['Qwen3']],
    [
      'deepseek-ai/DeepSeek-R1: README.md',
      '<h1>DeepSeek-R1</h1><p>We introduce DeepSeek-R1-Zero and DeepSeek-R1.</p>',
      'https://github.com/deepseek-ai/DeepSeek-R1',
      ['DeepSeek-R1', 'DeepSeek-R1-Zero'],
    ],
    ['Kimi K2.6: Long-horizon coding', '<h2>Compared with Kimi K2.5</h2>', 'https://example.com/', ['Kimi K2.6', 'Kimi K2.5']],
    ['MiniMax M3 and MaxProof', '', 'https://example.com/', ['MiniMax M3']],
    [
      'Introducing Claude Opus 4.1',
      '<h2>Gemini 2.5 Pro, GPT-5 and Llama 4</h2>',
      'https://example.com/',
      ['Claude Opus 4.1', 'Gemini 2.5 Pro', 'GPT-5', 'Llama 4'],
    ],
    ['GLM-5.2 and GLM-5V-Turbo', '', 'https://z.ai/blog/glm-5.2', ['GLM-5.2', 'GLM-5V-Turbo']],
    ['DeepSeek-V3.2 Release', '', 'https://example.com/', ['DeepSeek-V3.2']],
    ['Qwen3.5: Towards native multimodal agents', '<h2>Section 2</h2><h2>Upgrade to FSDP2</h2><h2>Apache 2.0</h2>', 'https://example.com/', ['Qwen3.5']],
    ['slime', '<h2>Why This Design Matters</h2>', 'https://github.com/THUDM/slime', []],
  ])('%j → %j', (title, body, url, expected) => {
    expect(guessModels(page(`<title>${title}</title>`, body), url)).toEqual(expected);
  });

  it('ranks the title first, dedupes case-insensitively and keeps at most 8', () => {
    const headings = Array.from({ length: 12 }, (_, i) => `<h2>GPT-${i + 10}</h2>`).join('');
    const models = guessModels(page('<title>Qwen3 vs QWEN3</title>', `<h1>qwen3</h1>${headings}`), 'https://example.com/');
    expect(models[0]).toBe('Qwen3');
    expect(models).toHaveLength(8);
    expect(models.filter((m) => m.toLowerCase() === 'qwen3')).toHaveLength(1);
  });

  it('lets a lower-case URL slug confirm a name seen in a heading', () => {
    const body = '<h2>GLM-4.7</h2><h2>GLM-5</h2>';
    expect(guessModels(page('<title>Blog</title>', body), 'https://z.ai/blog/glm-5')).toEqual(['GLM-5', 'GLM-4.7']);
  });
});

describe('KNOWN_PUBLISHERS', () => {
  it.each([
    ['qwenlm.github.io', 'Qwen Team'],
    ['qwen.ai', 'Qwen Team'],
    ['z.ai', 'Zhipu AI'],
    ['zhipuai.cn', 'Zhipu AI'],
    ['bigmodel.cn', 'Zhipu AI'],
    ['github.com/QwenLM', 'Qwen Team'],
    ['github.com/deepseek-ai', 'DeepSeek'],
    ['github.com/volcengine', 'ByteDance Seed'],
    ['github.com/MoonshotAI', 'Moonshot AI'],
    ['github.com/MiniMax-AI', 'MiniMax'],
  ])('%s → %s', (key, name) => {
    expect(KNOWN_PUBLISHERS[key]).toBe(name);
  });

  it('leaves THUDM unmapped so its repositories keep the owner name', () => {
    expect(KNOWN_PUBLISHERS['github.com/THUDM']).toBeUndefined();
  });
});

interface FixturePage {
  file: string;
  url: string;
  source_kind: SourceKind;
  publisher: string;
  title: string;
  records: string | null;
}

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures');
const hasFixtures = existsSync(path.join(FIXTURES, 'pages.json'));

if (hasFixtures) {
  const pages = JSON.parse(readFileSync(path.join(FIXTURES, 'pages.json'), 'utf8')) as FixturePage[];
  const load = (p: FixturePage) => detectSource(docOf(readFileSync(path.join(FIXTURES, p.file), 'utf8')), p.url, TODAY, { siteOf });

  describe('detectSource on the shared fixture pages', () => {
    it.each(pages.map((p) => [p.file, p] as const))('%s matches pages.json', (_file, p) => {
      const s = load(p);
      expect({ url: s.url, kind: s.kind, publisher: s.publisher, title: s.title }).toEqual({
        url: p.url,
        kind: p.source_kind,
        publisher: p.publisher,
        title: p.title,
      });
    });

    it.each(pages.filter((p) => p.records !== null).map((p) => [p.file, p] as const))('%s agrees with the source of its curated records', (_file, p) => {
      const s = load(p);
      const lines = readFileSync(path.join(FIXTURES, p.records as string), 'utf8')
        .split('\n')
        .filter(Boolean);
      for (const line of lines) {
        const record = ClaimRecord.parse(JSON.parse(line));
        expect({ url: s.url, kind: s.kind, publisher: s.publisher, title: s.title }).toEqual({
          url: record.source.url,
          kind: record.source.kind,
          publisher: record.source.publisher,
          title: record.source.title,
        });
      }
    });

    it.each([
      ['pages/QwenLM__qwenlm.github.io__content_blog_qwen3_index.html', 'Qwen3', []],
      ['pages/deepseek-ai__DeepSeek-R1__README.html', 'DeepSeek-R1', ['DeepSeek-R1-Zero']],
      ['pages/THUDM__slime__README.html', undefined, []],
    ] as Array<[string, string | undefined, string[]]>)('%s is about %s', (file, first, also) => {
      const p = pages.find((x) => x.file === file);
      expect(p).toBeDefined();
      const s = load(p as FixturePage);
      expect(s.models[0]).toBe(first);
      for (const m of also) expect(s.models).toContain(m);
      expect(s.models.length).toBeLessThanOrEqual(8);
    });
  });
} else {
  it(`fixture pages are missing at ${FIXTURES}: fixture checks not run`, () => {
    expect(hasFixtures).toBe(false);
  });
}
