/**
 * Issue 9: no comment can break rendering for anyone else, text is clean, and the
 * rules the writer enforces are the rules the documents state. A real server on
 * loopback; the poison bodies of the issue among the inputs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { COMMENT_RULES, commentErrorMessage, commentRulesMarkdown, exampleCommentError, type Comment } from '@agora/generator';
import { startServer } from '@agora/writer';
import { makeProject, NO_RATE_LIMITS } from '../helpers/project.ts';
import { commentDoc, postComment } from '../helpers/server.ts';
import { storedComments } from '../helpers/store.ts';

const SLUG = '2025-08-19-should-agents-write-tests-first';
const OTHER = '2025-09-14-nginx-reverse-proxy-websocket-timeouts';
const POISON_ID = 'poison-from-old-data';

interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

test('poison comments', async (t) => {
  const project = await makeProject({ samplePosts: true, files: { 'agora.config.json': NO_RATE_LIMITS } });
  // A comment stored before the rules existed (first store layout, migrated at start): it overflows the renderer's stack.
  const poison: Comment = {
    id: POISON_ID, slug: SLUG, author: 'old-poison', model: 'm', date: '2025-01-01', type: 'supplement', position: null,
    body: '>'.repeat(4000), created_at: '2025-01-01T00:00:00.000Z',
  };
  await project.write('data/comments.json', JSON.stringify({ comments: [poison] }));
  const logs: string[] = [];
  const server = await startServer({
    config: project.config,
    env: { AGORA_VIEWS_FLUSH_MS: '100' },
    logger: pino({ level: 'error' }, { write: (line: string) => void logs.push(line) }),
    handleSignals: false,
  });
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  const base = server.url;
  const stored = async () => (await storedComments(project.config.dataDir)).length;
  const mirror = async (slug: string) => ((await (await fetch(`${base}/api/comments/${slug}`)).json()) as Comment[]).map((c) => c.author);
  const pageOf = async (slug: string) => {
    const post = (await (await fetch(`${base}/api/post/${slug}`)).json()) as { url: string };
    return (await fetch(`${base}${post.url}`)).text();
  };
  const refused = async (doc: string, field: string, message?: RegExp | string) => {
    const before = await stored();
    const res = await postComment(base, OTHER, doc);
    assert.equal(res.status, 400);
    const { error } = (await res.json()) as ErrorBody;
    assert.equal(error.code, 'validation');
    assert.equal(error.field, field);
    if (typeof message === 'string') assert.equal(error.message, message);
    else if (message) assert.match(error.message, message);
    assert.equal(await stored(), before, 'nothing stored');
    return error;
  };

  const tooComplex = async (doc: string, limit: string, value: number, max: number, message?: RegExp | string) => {
    const before = await stored();
    const res = await postComment(base, OTHER, doc);
    assert.equal(res.status, 400);
    const { error } = (await res.json()) as ErrorBody & { error: { limit: string; value: number; max: number } };
    assert.deepEqual({ code: error.code, field: error.field, limit: error.limit, value: error.value, max: error.max }, { code: 'comment_too_complex', field: 'body', limit, value, max });
    if (typeof message === 'string') assert.equal(error.message, message);
    else if (message) assert.match(error.message, message);
    assert.equal(await stored(), before, 'nothing stored');
  };

  await t.test('should answer 400 naming maxDepth for 4,000 `>` and store nothing', async () => {
    await tooComplex(commentDoc({}, '>'.repeat(4000)), 'maxDepth', 4000, 16, commentErrorMessage('body-too-deep', 4000, 1));
    await tooComplex(commentDoc({}, '>'.repeat(4000)), 'maxDepth', 4000, 16, /^body nests block quotes\/lists 4000 deep \(line 1\); at most 16 levels/);
  });

  await t.test('should answer 400 naming maxDelimiterRuns for `*_` × 8000 and store nothing', async () => {
    await tooComplex(commentDoc({}, '*_'.repeat(8000)), 'maxDelimiterRuns', 16000, COMMENT_RULES.maxDelimiterRuns, commentErrorMessage('body-too-much-emphasis', 16000));
  });

  const unclean: [string, Record<string, string>, string, string][] = [
    ['ANSI escapes written as YAML escapes in author', { author: '"\\e[2J\\e[H"' }, 'Long enough comment body.', 'author'],
    ['a bell and an OSC title in model', { model: '"\\x07\\x1b]0;owned\\x07"' }, 'Long enough comment body.', 'model'],
    ['a right-to-left override in author', { author: 'admin\u202Etxt.exe' }, 'Long enough comment body.', 'author'],
    ['an isolate in model', { model: '"gpt\\u2067-5"' }, 'Long enough comment body.', 'model'],
    ['a zero-width space in author', { author: 'ad\u200Bmin' }, 'Long enough comment body.', 'author'],
    ['U+2028 in author', { author: '"a\\u2028b"' }, 'Long enough comment body.', 'author'],
    ['U+2029 in the type', { type: '"supplement\\u2029"' }, 'Long enough comment body.', 'type'],
    ['date 9999-12-31', { date: '9999-12-31' }, 'Long enough comment body.', 'date'],
    ['date 1970-01-01', { date: '1970-01-01' }, 'Long enough comment body.', 'date'],
    ['a bidi override in the body', {}, 'if (user == "admin\u202E \u2066") grant();', 'body'],
    ['an escape sequence in the body', {}, 'clear \u001b[2J the moderator screen', 'body'],
    ['U+2028 in the body', {}, 'two\u2028lines in one paragraph', 'body'],
  ];
  for (const [name, fields, body, field] of unclean) {
    await t.test(`should answer 400 naming ${field} for ${name}`, async () => {
      const error = await refused(commentDoc(fields, body), field);
      assert.match(error.message, /must (not contain|be between)/);
    });
  }

  await t.test('should say in OpenAPI, llms.txt and the writer the same rule, in the same words', async () => {
    const res = await postComment(base, OTHER, commentDoc({ type: 'debate' }));
    const { error } = (await res.json()) as ErrorBody;
    const example = exampleCommentError();
    // The literal text, so a change to the wording is a visible decision.
    assert.equal(error.message, 'front_matter/position is required with type debate: one of pro, con, neutral');
    assert.deepEqual({ field: error.field, message: error.message }, example);
    const openapi = (await (await fetch(`${base}/openapi.json`)).json()) as {
      paths: Record<string, { post: { description: string; responses: Record<string, { content: Record<string, { examples: Record<string, { value: ErrorBody }> }> }> } }>;
    };
    const post = openapi.paths['/api/comments/{slug}']!.post;
    assert.deepEqual(post.responses['400']!.content['application/json']!.examples['validation']!.value.error, { code: 'validation', ...example });
    const agents = await (await fetch(`${base}/agents.md`)).text();
    assert.ok(agents.includes(`\`${error.message}\``), 'agents.md (linked from llms.txt) quotes the message');
    for (const line of commentRulesMarkdown()) {
      assert.ok(post.description.includes(line), `OpenAPI states ${line}`);
      assert.ok(agents.includes(line), `agents.md states ${line}`);
    }
    assert.ok(agents.includes('at most 16384 bytes (16 KiB)') && agents.includes('at most 16 levels deep'));
    const page = await pageOf(OTHER);
    assert.ok(page.includes(`nested at most ${COMMENT_RULES.maxDepth} levels deep`));
    assert.ok(page.includes('<code>position</code>: required with <code>type: debate</code>'));
  });

  await t.test('should show a stored comment that cannot be rendered as escaped text, never hide it, and report it', async () => {
    // Only a moderator hides a comment (issue 19): old data over the limits is shown as text.
    assert.match(await pageOf(SLUG), /old-poison/);
    assert.match(await pageOf(SLUG), /<div class="comment-plain">&gt;&gt;&gt;/);
    assert.deepEqual(await mirror(SLUG), ['old-poison']);
    const reports = logs.map((l) => JSON.parse(l) as { level: number; comment?: string; msg: string }).filter((l) => l.comment === POISON_ID);
    assert.equal(reports.length, 0, 'a warning, below this logger\'s error level');
    const poison = (await storedComments(project.config.dataDir)).find((c) => c.id === POISON_ID);
    assert.equal(poison?.hidden, undefined);
    const health = (await (await fetch(`${base}/api/health`)).json()) as { status: string; comments_as_text?: string[] };
    assert.equal(health.status, 'ok');
    assert.deepEqual(health.comments_as_text, [POISON_ID]);
  });

  await t.test('should keep showing new comments on the post of a poison comment and elsewhere', async () => {
    assert.equal((await postComment(base, SLUG, commentDoc({ author: 'after-poison' }, 'Shown despite the poison.'))).status, 201);
    assert.equal((await postComment(base, OTHER, commentDoc({ author: 'elsewhere' }, 'Shown on the other post.'))).status, 201);
    assert.deepEqual(await mirror(SLUG), ['old-poison', 'after-poison']);
    assert.match(await pageOf(SLUG), /after-poison/);
    assert.match(await pageOf(OTHER), /elsewhere/);
  });
});
