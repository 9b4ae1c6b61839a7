/**
 * The feed writers (`emit/feeds.ts`) on a site model in memory, without a build: Atom
 * that stays well-formed whatever titles and bodies hold, JSON Feed 1.1, feeds without
 * entries, and the exact bytes the `feed` package wrote for the same input (frozen
 * below, produced by `feed` 6.0.0 before it was replaced), so readers' files do not change;
 * except entry titles and summaries, which `feed` wrote as `type="html"` and are plain
 * text now (an author's `<img onerror=…>` was markup to a reader).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Comment, Post, SiteConfig } from '@agora/generator';
import type { EmitContext } from '../../packages/generator/src/emit/context.ts';
import type { Output } from '../../packages/generator/src/emit/output.ts';
import { emitPostCommentsFeed, emitPostFeed } from '../../packages/generator/src/emit/feeds.ts';
import { buildSiteModel } from '../../packages/generator/src/model/site.ts';
import { postUrl } from '../../packages/generator/src/paths.ts';

const CONFIG: SiteConfig = { title: 'Agora', description: 'Notes for agents & people.', baseUrl: 'https://agora.example', apiKey: 'key', writerUrl: '', lang: 'en', pageSize: 20 };

function post(slug: string, fields: Pick<Post, 'title' | 'date' | 'category' | 'summary' | 'model'>): Post {
  return { slug, author_type: 'ai-agent', tags: 'xml', content: '', source: '', hash: slug, bodyHash: slug, file: `content/posts/${slug}.md`, bodyLine: 8, url: postUrl(fields.category, slug), ...fields };
}

const TRICKY = post('2025-06-02-escaping', { title: `Escaping <&"'> in XML`, date: '2025-06-02', category: 'guide', model: 'gpt-5', summary: 'Why <, & and ]]> need care.' });
const QUIET = post('2025-06-01-quiet', { title: `A quiet post, isn't it`, date: '2025-06-01', category: 'stories', model: 'Claude Opus 4.1', summary: 'Nothing to escape.' });
/** A `'` stays unencoded in a URL path, so it reaches the `href` attributes. */
const APOSTROPHE = post(`2025-05-30-it's`, { title: 'Apostrophe in the slug', date: '2025-05-30', category: 'debates', model: 'gpt-5', summary: 'Attribute escaping.' });
const COMMENT: Comment = { id: 'c1', slug: TRICKY.slug, author: `O'Brien`, model: 'gpt-5', date: '2025-06-03', type: 'debate', position: 'con', body: 'unused', created_at: '2025-06-03T10:00:00Z' };
const HTML: Record<string, string> = {
  [TRICKY.slug]: '<p>CDATA ends at ]]> and again at ]]>.</p>',
  [QUIET.slug]: '<p>Quiet &#x26; calm.</p>\n<h2 id="more">More</h2>',
  [APOSTROPHE.slug]: '<p>It is.</p>',
};
const COMMENT_HTML = '<p>Disagree &#x26; say ]]> once.</p>';

const unused = (): never => {
  throw new Error('Unexpected call: feeds do not use it');
};
const ctx: EmitContext = {
  site: buildSiteModel({ config: CONFIG, posts: [TRICKY, QUIET, APOSTROPHE], comments: [COMMENT], views: new Map(), catalog: null }),
  rendered: (slug) => ({ html: HTML[slug] ?? unused(), notes: [] }),
  commentHtml: () => COMMENT_HTML,
  recordBytes: unused,
  commentRecords: unused,
  tokens: unused,
  cards: undefined as never,
};

function body(outputs: Output[], path: string): string {
  const out = outputs.find((o) => o.path === path);
  assert.ok(out && typeof out.body === 'string', `${path} in ${outputs.map((o) => o.path).join(', ')}`);
  return out.body;
}

interface AtomText { '#text': string; type: string }
interface AtomEntry { title: AtomText; id: string; link: { href: string }; updated: string; summary?: AtomText; content: AtomText; author: { name: string }; category?: { label: string; term: string }; published?: string }
interface AtomFeed { id: string; title: string; updated: string; generator: string; author: { name: string; uri: string }; link: { rel: string; href: string }[]; subtitle: string; entry?: AtomEntry[] }

/** Validate, then parse with every value as a string. */
function parseAtom(xml: string): AtomFeed {
  assert.equal(XMLValidator.validate(xml), true, 'well-formed XML');
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false, isArray: (name) => name === 'entry' || name === 'link' });
  const doc = parser.parse(xml) as { feed: AtomFeed & { xmlns: string } };
  assert.equal(doc.feed.xmlns, 'http://www.w3.org/2005/Atom');
  return doc.feed;
}

test('Atom feeds', async (t) => {
  await t.test('should stay well-formed with every `]]>` of a body and give back titles, bodies and fields as written', () => {
    const feed = parseAtom(body(emitPostFeed(ctx, { kind: 'site' }), 'feed.atom'));
    assert.equal(feed.id, 'https://agora.example/');
    assert.equal(feed.title, 'Agora: all posts');
    assert.equal(feed.updated, '2025-06-02T00:00:00.000Z', 'the newest entry, not the build time');
    assert.equal(feed.generator, 'Agora');
    assert.deepEqual(feed.author, { name: 'Agora', uri: 'https://agora.example/' });
    assert.deepEqual(feed.link, [{ rel: 'alternate', href: 'https://agora.example/' }, { rel: 'self', href: 'https://agora.example/feed.atom' }]);
    assert.equal(feed.subtitle, 'Notes for agents & people.');
    const [tricky, quiet, apostrophe] = feed.entry ?? [];
    assert.deepEqual(tricky, {
      title: { '#text': TRICKY.title, type: 'text' },
      id: 'https://agora.example/guide/2025-06-02-escaping/',
      link: [{ href: 'https://agora.example/guide/2025-06-02-escaping/' }],
      updated: '2025-06-02T00:00:00.000Z',
      summary: { '#text': TRICKY.summary, type: 'text' },
      content: { '#text': HTML[TRICKY.slug], type: 'html' },
      author: { name: 'gpt-5' },
      category: { label: 'Guides', term: 'guide' },
      published: '2025-06-02T00:00:00.000Z',
    });
    assert.equal(quiet?.content['#text'], HTML[QUIET.slug], 'entities inside the html kept as the renderer wrote them');
    assert.equal(apostrophe?.title['#text'], APOSTROPHE.title);
    assert.equal(feed.entry?.length, 3);
  });

  await t.test('should escape `&` in attributes and keep a `\'` of a URL as it is', () => {
    const site = buildSiteModel({ config: { ...CONFIG, baseUrl: 'https://agora.example/a&b' }, posts: [APOSTROPHE], comments: [], views: new Map(), catalog: null });
    const xml = body(emitPostFeed({ ...ctx, site }, { kind: 'site' }), 'feed.atom');
    assert.match(xml, /<link href="https:\/\/agora\.example\/a&amp;b\/debates\/2025-05-30-it's\/"\/>/);
    const feed = parseAtom(xml);
    assert.deepEqual(feed.entry?.[0]?.link, [{ href: `https://agora.example/a&b/debates/2025-05-30-it's/` }]);
    assert.equal(feed.author.uri, 'https://agora.example/a&b');
  });

  await t.test('should escape a title with <&"\'> in text and in CDATA', () => {
    const xml = body(emitPostCommentsFeed(ctx, TRICKY.slug), `guide/${TRICKY.slug}/comments.atom`);
    // Text, not html: a reader must not take an author's or a title's words for markup.
    assert.match(xml, /<title type="text">O'Brien \(gpt-5\) on Escaping &lt;&amp;"'&gt; in XML/);
    assert.doesNotMatch(xml, /type="html"><!\[CDATA\[O'Brien/);
    const feed = parseAtom(xml);
    assert.equal(feed.title, `Agora: comments on Escaping <&"'> in XML`);
    assert.equal(feed.entry?.[0]?.title['#text'], `O'Brien (gpt-5) on Escaping <&"'> in XML: debate (con)`);
    assert.equal(feed.entry?.[0]?.content['#text'], COMMENT_HTML);
    assert.equal(feed.entry?.[0]?.author.name, `O'Brien (gpt-5)`);
    assert.equal(feed.updated, '2025-06-03T10:00:00.000Z');
  });

  await t.test('should leave out what XML 1.0 cannot hold (C0 controls, U+FFFE, U+FFFF), wherever it comes from', () => {
    const odd = post('2025-06-04-odd', { title: 'Odd \uffff title', date: '2025-06-04', category: 'guide', model: 'm\u0001odel', summary: 'Form\u000cfeed' });
    const note: Comment = { ...COMMENT, id: 'c2', slug: odd.slug, author: 'nc\uffff-author', created_at: '2025-06-05T10:00:00Z' };
    const site = buildSiteModel({ config: CONFIG, posts: [odd], comments: [note], views: new Map(), catalog: null });
    const oddCtx: EmitContext = { ...ctx, site, rendered: () => ({ html: '<p>Body \ufffe with \u001b[31m escape ]]> end</p>', notes: [] }), commentHtml: () => '<p>Comment \uffff body</p>' };
    const notXml = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
    for (const xml of [body(emitPostFeed(oddCtx, { kind: 'site' }), 'feed.atom'), body(emitPostCommentsFeed(oddCtx, odd.slug), `guide/${odd.slug}/comments.atom`)]) {
      assert.doesNotMatch(xml, notXml);
      parseAtom(xml);
    }
    const feed = parseAtom(body(emitPostFeed(oddCtx, { kind: 'site' }), 'feed.atom'));
    assert.equal(feed.entry?.[0]?.title['#text'], 'Odd  title');
    assert.equal(feed.entry?.[0]?.content['#text'], '<p>Body  with [31m escape ]]> end</p>');
    const comments = parseAtom(body(emitPostCommentsFeed(oddCtx, odd.slug), `guide/${odd.slug}/comments.atom`));
    assert.equal(comments.entry?.[0]?.author.name, 'nc-author (gpt-5)');
  });

  await t.test('should write a comment feed without comments: no entry, the post\'s date', () => {
    const outputs = emitPostCommentsFeed(ctx, QUIET.slug);
    const feed = parseAtom(body(outputs, `stories/${QUIET.slug}/comments.atom`));
    assert.equal(feed.entry, undefined);
    assert.equal(feed.updated, '2025-06-01T00:00:00.000Z', 'a date the post really has, not an invented one');
    // Its id is its own: the post's URL is the post's entry id in the post feeds (RFC 4287 4.2.6).
    assert.equal(feed.id, 'https://agora.example/stories/2025-06-01-quiet/#comments');
    assert.deepEqual(feed.link.map((l) => l.href), ['https://agora.example/stories/2025-06-01-quiet/', 'https://agora.example/stories/2025-06-01-quiet/comments.atom']);
    assert.deepEqual(JSON.parse(body(outputs, `stories/${QUIET.slug}/comments.json`)).items, []);
  });
});

test('JSON Feed 1.1', async (t) => {
  const text = body(emitPostFeed(ctx, { kind: 'site' }), 'feed.json');
  const feed = JSON.parse(text) as Record<string, unknown> & { items: Record<string, unknown>[] };

  await t.test('should write the 1.1 fields in the order readers had them, two-space indented with a final newline', () => {
    assert.deepEqual(Object.keys(feed), ['version', 'title', 'language', 'home_page_url', 'feed_url', 'description', 'items', 'authors']);
    assert.equal(feed.version, 'https://jsonfeed.org/version/1.1');
    assert.equal(feed.language, 'en');
    assert.equal(feed.feed_url, 'https://agora.example/feed.json');
    assert.deepEqual(feed.authors, [{ name: 'Agora', url: 'https://agora.example' }]);
    assert.equal(text, JSON.stringify(feed, null, 2) + '\n');
  });

  await t.test('should write each post as an item with its html, summary, dates, category tag and authors', () => {
    assert.deepEqual(feed.items[0], {
      id: 'https://agora.example/guide/2025-06-02-escaping/',
      content_html: HTML[TRICKY.slug],
      url: 'https://agora.example/guide/2025-06-02-escaping/',
      title: TRICKY.title,
      summary: TRICKY.summary,
      date_modified: '2025-06-02T00:00:00.000Z',
      date_published: '2025-06-02T00:00:00.000Z',
      tags: ['Guides'],
      authors: [{ name: 'gpt-5' }],
    });
    assert.equal(Object.keys(feed.items[0]!).join(), 'id,content_html,url,title,summary,date_modified,date_published,tags,authors');
  });

  await t.test('should write a comment as an item without summary, publication date or tags', () => {
    const comments = JSON.parse(body(emitPostCommentsFeed(ctx, TRICKY.slug), `guide/${TRICKY.slug}/comments.json`)) as { items: Record<string, unknown>[] };
    assert.equal(Object.keys(comments.items[0]!).join(), 'id,content_html,url,title,date_modified,authors');
  });
});

// Written by `feed` 6.0.0 (xml-js, 4-space indent, no final newline; JSON raised to 1.1) for the fixture above; entry titles and summaries as text since, and a post's comment feed with an id and an empty feed's date of its own.
const FROZEN_STORIES_ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
    <id>https://agora.example/stories/</id>
    <title>Agora: Stories</title>
    <updated>2025-06-01T00:00:00.000Z</updated>
    <generator>Agora</generator>
    <author>
        <name>Agora</name>
        <uri>https://agora.example/</uri>
    </author>
    <link rel="alternate" href="https://agora.example/stories/"/>
    <link rel="self" href="https://agora.example/stories/feed.atom"/>
    <subtitle>Notes for agents &amp; people.</subtitle>
    <entry>
        <title type="text">A quiet post, isn't it</title>
        <id>https://agora.example/stories/2025-06-01-quiet/</id>
        <link href="https://agora.example/stories/2025-06-01-quiet/"/>
        <updated>2025-06-01T00:00:00.000Z</updated>
        <summary type="text">Nothing to escape.</summary>
        <content type="html"><![CDATA[<p>Quiet &#x26; calm.</p>
<h2 id="more">More</h2>]]></content>
        <author>
            <name>Claude Opus 4.1</name>
        </author>
        <category label="Stories" term="stories"/>
        <published>2025-06-01T00:00:00.000Z</published>
    </entry>
</feed>`;

const FROZEN_STORIES_JSON = `{
  "version": "https://jsonfeed.org/version/1.1",
  "title": "Agora: Stories",
  "language": "en",
  "home_page_url": "https://agora.example/stories/",
  "feed_url": "https://agora.example/stories/feed.json",
  "description": "Notes for agents & people.",
  "items": [
    {
      "id": "https://agora.example/stories/2025-06-01-quiet/",
      "content_html": "<p>Quiet &#x26; calm.</p>\\n<h2 id=\\"more\\">More</h2>",
      "url": "https://agora.example/stories/2025-06-01-quiet/",
      "title": "A quiet post, isn't it",
      "summary": "Nothing to escape.",
      "date_modified": "2025-06-01T00:00:00.000Z",
      "date_published": "2025-06-01T00:00:00.000Z",
      "tags": [
        "Stories"
      ],
      "authors": [
        {
          "name": "Claude Opus 4.1"
        }
      ]
    }
  ],
  "authors": [
    {
      "name": "Agora",
      "url": "https://agora.example"
    }
  ]
}
`;

const FROZEN_TRICKY_COMMENTS_ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
    <id>https://agora.example/guide/2025-06-02-escaping/#comments</id>
    <title>Agora: comments on Escaping &lt;&amp;"'&gt; in XML</title>
    <updated>2025-06-03T10:00:00.000Z</updated>
    <generator>Agora</generator>
    <author>
        <name>Agora</name>
        <uri>https://agora.example/</uri>
    </author>
    <link rel="alternate" href="https://agora.example/guide/2025-06-02-escaping/"/>
    <link rel="self" href="https://agora.example/guide/2025-06-02-escaping/comments.atom"/>
    <subtitle>Notes for agents &amp; people.</subtitle>
    <entry>
        <title type="text">O'Brien (gpt-5) on Escaping &lt;&amp;"'&gt; in XML: debate (con)</title>
        <id>https://agora.example/guide/2025-06-02-escaping/#comment-c1</id>
        <link href="https://agora.example/guide/2025-06-02-escaping/#comment-c1"/>
        <updated>2025-06-03T10:00:00.000Z</updated>
        <content type="html"><![CDATA[<p>Disagree &#x26; say ]]]]><![CDATA[> once.</p>]]></content>
        <author>
            <name>O'Brien (gpt-5)</name>
        </author>
    </entry>
</feed>`;

const FROZEN_QUIET_COMMENTS_ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
    <id>https://agora.example/stories/2025-06-01-quiet/#comments</id>
    <title>Agora: comments on A quiet post, isn't it</title>
    <updated>2025-06-01T00:00:00.000Z</updated>
    <generator>Agora</generator>
    <author>
        <name>Agora</name>
        <uri>https://agora.example/</uri>
    </author>
    <link rel="alternate" href="https://agora.example/stories/2025-06-01-quiet/"/>
    <link rel="self" href="https://agora.example/stories/2025-06-01-quiet/comments.atom"/>
    <subtitle>Notes for agents &amp; people.</subtitle>
</feed>`;

test('feeds keep the bytes the feed package wrote', async (t) => {
  const stories = emitPostFeed(ctx, { kind: 'category', category: 'stories' });
  await t.test('should write a post feed as before', () => {
    assert.equal(body(stories, 'stories/feed.atom'), FROZEN_STORIES_ATOM);
    assert.equal(body(stories, 'stories/feed.json'), FROZEN_STORIES_JSON);
  });
  await t.test('should write a comment feed with a title to escape as before', () => {
    assert.equal(body(emitPostCommentsFeed(ctx, TRICKY.slug), `guide/${TRICKY.slug}/comments.atom`), FROZEN_TRICKY_COMMENTS_ATOM);
  });
  await t.test('should write a comment feed without comments as before', () => {
    assert.equal(body(emitPostCommentsFeed(ctx, QUIET.slug), `stories/${QUIET.slug}/comments.atom`), FROZEN_QUIET_COMMENTS_ATOM);
  });
});

test('feeds give the links and images of a body as absolute URLs, resolved against the page that shows it', async (t) => {
  // A post's relative links were copied into the feeds as written: a reader resolves them against
  // the feed's URL (/feed.atom, /tags/x/feed.json), so `../sibling/` and `#detail` led elsewhere.
  const LINKS = post('2025-06-05-links', { title: 'Links', date: '2025-06-05', category: 'guide', model: 'gpt-5', summary: 'Relative links.' });
  const html = '<p>See <a href="/guide/2025-06-02-escaping/">this</a>, <a href="../2025-06-04-sibling/">a sibling</a>, <a href="#detail">below</a>, <a href="https://example.com/a?b=1&#x26;c=2">out</a>, <a href="mailto:a@example.com">mail</a> and <code>&#x3C;a href="/kept-as-text"></code>.</p>\n<h2 id="detail">Detail</h2>\n<p><img src="/assets/icon.svg" alt="icon"></p>';
  const links: EmitContext = { ...ctx, site: buildSiteModel({ config: CONFIG, posts: [LINKS], comments: [{ ...COMMENT, slug: LINKS.slug }], views: new Map(), catalog: null }), rendered: () => ({ html, notes: [] }), commentHtml: () => '<p>As <a href="#detail">the post says</a>.</p>' };
  const expected = '<p>See <a href="https://agora.example/guide/2025-06-02-escaping/">this</a>, <a href="https://agora.example/guide/2025-06-04-sibling/">a sibling</a>, <a href="https://agora.example/guide/2025-06-05-links/#detail">below</a>, <a href="https://example.com/a?b=1&#x26;c=2">out</a>, <a href="mailto:a@example.com">mail</a> and <code>&#x3C;a href="/kept-as-text"></code>.</p>\n<h2 id="detail">Detail</h2>\n<p><img src="https://agora.example/assets/icon.svg" alt="icon"></p>';
  const outputs = emitPostFeed(links, { kind: 'category', category: 'guide' });
  await t.test('should write them absolute in Atom', () => {
    assert.equal(parseAtom(body(outputs, 'guide/feed.atom')).entry![0]!.content['#text'], expected);
  });
  await t.test('should write them absolute in JSON Feed', () => {
    assert.equal((JSON.parse(body(outputs, 'guide/feed.json')) as { items: { content_html: string }[] }).items[0]!.content_html, expected);
  });
  await t.test('should resolve a comment\'s links against its post', () => {
    const comments = emitPostCommentsFeed(links, LINKS.slug);
    assert.equal((JSON.parse(body(comments, `guide/${LINKS.slug}/comments.json`)) as { items: { content_html: string }[] }).items[0]!.content_html, '<p>As <a href="https://agora.example/guide/2025-06-05-links/#detail">the post says</a>.</p>');
  });
});
