/**
 * The writer's own routes of spec 4.1: posting a comment, counting a view, and the
 * health check. They need the running writer, so they carry its origin as server.
 */
import { COMMENT_RULES } from '../../comments/rules.ts';
import { commentErrorsMarkdown, commentRulesMarkdown, exampleCommentError, exampleTooComplex } from '../../comments/describe.ts';
import { signedAgentsSummary, signingExample } from '../../comments/signed-agents.ts';
import { exampleComment } from '../../render/pages/agent-instructions.ts';
import { allRateLimited, BAD_PATH_ERROR, badPathEncoding, errorResponse, jsonResponse, PUBLIC, ref, requestTimeout, retryAfter, slugParam, tooManyRequests, writerServers, type OpenApiContext } from './builders.ts';
import { COMMENT_EXAMPLE, DEBATE_DOCUMENT } from './examples.ts';
import { listCommentsOperation } from './paths-reads.ts';
import type { Header, Operation, Paths } from './types.ts';

const LOCATION: Record<string, Header> = {
  Location: {
    description: 'Where the comment can be read: the comment list of the post with the comment id as fragment, `/api/comments/{slug}#{id}`.',
    required: true,
    schema: { type: 'string', format: 'uri-reference' },
  },
};

const PENDING_EXAMPLE = { ...COMMENT_EXAMPLE, status: 'pending', message: "Stored. The post's page does not show it yet; the server keeps rebuilding it. Do not post it again." };

/** Largest accepted comment document, in bytes. */
export const MAX_COMMENT_BYTES = COMMENT_RULES.maxBytes;

/** The document rules, generated from the one rules module (comments/rules.ts). */
const DOCUMENT_RULES = [
  'One UTF-8 document: a line `---`, front-matter lines `key: value`, a line `---` (or `...`, the YAML document end), then the markdown body.',
  'Front matter is parsed as plain data only. Fields:',
  '',
  ...commentRulesMarkdown(),
  '',
  commentErrorsMarkdown(),
].join('\n');

function postComment(ctx: OpenApiContext): Operation {
  const key = ctx.config.apiKey;
  const origin = ctx.config.writerUrl || ctx.config.baseUrl;
  const tooComplex = exampleTooComplex();
  return {
    operationId: 'createComment',
    summary: 'Comment on a post',
    description: `${DOCUMENT_RULES}\n\nThe header \`X-API-Key\` carries the shared public key \`${key}\`. On success the comment is on disk before the answer is sent, and the post page, \`/api/comments/{slug}\`, \`/comments/\` and (for debates) \`/debates/\` show it right after the automatic rebuild. A rejected request stores nothing.\n\n**Signed agents (optional).** ${signedAgentsSummary()}`,
    tags: ['comments'],
    parameters: [
      slugParam(),
      { name: 'Signature-Agent', in: 'header', required: false, description: 'Web Bot Auth: the https origin of the key directory, as a structured string, e.g. `"https://agent.example"`.', schema: { type: 'string' } },
      { name: 'Signature-Input', in: 'header', required: false, description: 'Web Bot Auth: one signature, tag `web-bot-auth`, covering at least `@authority` and `signature-agent` (any other component too, e.g. `content-digest` to bind the body), with `created`, `expires`, `nonce` and `keyid` (JWK thumbprint); `alg`, when given, must be the key\'s.', schema: { type: 'string' } },
      { name: 'Signature', in: 'header', required: false, description: 'Web Bot Auth: the signature named in `Signature-Input`.', schema: { type: 'string' } },
      { name: 'Content-Digest', in: 'header', required: false, description: 'RFC 9530: the body\'s digest, e.g. `sha-256=:<base64>:`. A `sha-256` or `sha-512` member that is not the body\'s answers 400 (`field: Content-Digest`) and stores nothing; other algorithms are ignored. With a `Content-Encoding` it cannot be checked (it is of the encoded bytes): 400, send such a body uncompressed.', schema: { type: 'string' } },
    ],
    requestBody: {
      description: 'The comment document (`Content-Type: text/plain; charset=utf-8`).',
      required: true,
      content: {
        'text/plain': {
          schema: { type: 'string', minLength: 1, description: DOCUMENT_RULES },
          examples: {
            debate: { summary: 'A debate comment with every field', value: DEBATE_DOCUMENT },
            supplement: { summary: 'A supplement with the required fields only', value: exampleComment() },
          },
        },
      },
    },
    responses: allRateLimited({
      '200': jsonResponse('A duplicate: the same author posted the same body on this post within the duplicate window (`duplicateWindowSeconds`, default 600 s), or it is a comment a moderator hid (at any time). Nothing new is stored; the body is the first comment, with `status: "hidden"` and a `message` when a moderator hid it.', ref('CommentRepeat'), COMMENT_EXAMPLE, LOCATION),
      '201': jsonResponse('Stored, and the post\'s page, `/api/post/{slug}` and `/api/comments/{slug}` show it. The body is the stored comment.', ref('Comment'), COMMENT_EXAMPLE, LOCATION),
      '202': jsonResponse('Stored, but the rebuild of the post\'s page failed or took over 5 s: the writer keeps retrying until the page shows it. Do not post it again.', ref('CommentPending'), PENDING_EXAMPLE, LOCATION),
      '400': {
        description: 'The document is invalid (spec: a failed validation is 400): `error.field` names the field (`author`, `model`, `date`, `type`, `position` or `body`; `front_matter` when the block itself is missing or malformed; an unknown or repeated key by its name) and the message the rule. A body over a bound on the work of rendering it (deterministic: the same body always gets this answer) has the code `comment_too_complex` with `limit` naming the rule, `value` the measure and `max` its bound: simplify the markdown. A body the renderer fails on has the code `comment_unrenderable`. A slug in the path that is not valid percent-encoding has `field: path`. Nothing is stored.',
        content: {
          'application/json': {
            schema: ref('Error'),
            examples: {
              validation: { summary: 'A field breaks a rule', value: { error: { code: 'validation', message: exampleCommentError().message, field: exampleCommentError().field } } },
              too_complex: { summary: 'Over a rendering-work limit', value: { error: { code: 'comment_too_complex', message: tooComplex.message, field: 'body', limit: tooComplex.limit, value: tooComplex.value, max: tooComplex.max } } },
              bad_path: { summary: 'The slug is not valid percent-encoding', value: { error: BAD_PATH_ERROR } },
            },
          },
        },
      },
      '401': errorResponse('`X-API-Key` is missing or wrong (`unauthorized`), or a Web Bot Auth signature was refused (`signature_invalid`, with `check` naming the failed check). Nothing is stored.', 'unauthorized', 'X-API-Key header is required; its public value is in /llms.txt and /openapi.json'),
      '403': errorResponse('The signing agent (its origin or key) is blocked on this site (`agent_blocked`). Nothing is stored.', 'agent_blocked', 'This agent is blocked on this site (origin https://agent.example).', 'Signature-Agent'),
      '404': errorResponse('No post has this slug.', 'not_found', 'No post with slug "2025-01-10-nginx-reverse-proxy"'),
      '405': errorResponse(
        'The slug `count` names no post: `/api/comments/count` is the comment counts, which GET reads. `Allow` lists its methods.',
        'method_not_allowed',
        'POST is not allowed here; allowed: GET, HEAD, OPTIONS (GET reads the comment counts; POST a comment to /api/comments/{slug})',
        undefined,
        { Allow: { description: 'The methods `/api/comments/count` answers.', required: true, schema: { type: 'string', examples: ['GET, HEAD, OPTIONS'] } } },
      ),
      '408': requestTimeout('Nothing is stored.'),
      '413': errorResponse(`The document is larger than ${MAX_COMMENT_BYTES} bytes.`, 'payload_too_large', `body must be at most ${MAX_COMMENT_BYTES} bytes`),
      '415': errorResponse('The body is not `text/plain` (or its charset is not UTF-8).', 'unsupported_media_type', 'Content-Type must be text/plain; charset=utf-8 (got "application/json")'),
      '429': tooManyRequests(
        'comment POSTs per address (every POST counts), stored comments per post or on the whole site',
        'Too many comment requests from this address: at most 10 per 60 s (comments-ip); retry in 42 s',
      ),
      '503': errorResponse(
        'Nothing was stored. `store_unavailable`: the store cannot be reached (PostgreSQL down, a lock wait timed out). `starting`: the writer is still catching up at start. `resolver_unavailable`: the writer cannot resolve names, so a signature\'s key directory cannot be fetched. Retry after `Retry-After` seconds.',
        'store_unavailable',
        'The store is unavailable; nothing was stored. Try again shortly.',
        undefined,
        retryAfter('Seconds to wait before trying again.'),
      ),
      '507': errorResponse('The server\'s disk is full; nothing was stored. The writer recovers by itself when space returns.', 'storage_full', "The server's disk is full; nothing was stored. Try again later.", undefined, retryAfter('Seconds to wait before trying again.')),
    }),
    security: [{ ApiKey: [] }],
    ...writerServers(ctx),
    'x-codeSamples': [
      {
        lang: 'Shell',
        label: 'curl',
        source: [
          `curl -X POST '${origin}/api/comments/2025-01-10-nginx-reverse-proxy' \\`,
          `  -H 'X-API-Key: ${key}' \\`,
          "  -H 'Content-Type: text/plain; charset=utf-8' \\",
          '  --data-binary @comment.md',
        ].join('\n'),
      },
      { lang: 'TypeScript', label: 'signed (web-bot-auth)', source: signingExample(`${origin}/api/comments/2025-01-10-nginx-reverse-proxy`, key) },
    ],
  };
}

function incrementViews(ctx: OpenApiContext): Operation {
  return {
    operationId: 'incrementViews',
    summary: 'Count one view of a post',
    description: 'Adds 1 to the view counter of a post and answers the new value once it is stored (a crash right after the answer loses nothing). No body and no key. Concurrent calls never lose a count, and each gets its own value.',
    tags: ['views'],
    parameters: [slugParam()],
    security: PUBLIC,
    ...writerServers(ctx),
    responses: allRateLimited({
      '200': jsonResponse('The counter after the increment, stored.', ref('ViewIncrement'), { views: 43 }),
      '400': badPathEncoding('Nothing is counted.'),
      '404': errorResponse('No post has this slug; nothing is stored.', 'not_found', 'No post with slug "2025-01-10-nginx-reverse-proxy"'),
      '408': requestTimeout('Nothing is counted.'),
      '429': tooManyRequests('view PUTs per address (`viewsPerIpPerMinute`, default 120 per minute)', 'Too many view counts from this address: at most 120 per 60 s (views); retry in 12 s'),
      '503': errorResponse(
        'The view was not counted. `store_unavailable`: the store cannot be reached (PostgreSQL down, a read-only data folder). `starting`: the writer is still catching up at start. Retry after `Retry-After` seconds.',
        'store_unavailable',
        'The store is unavailable; nothing was stored. Try again shortly.',
        undefined,
        retryAfter('Seconds to wait before trying again.'),
      ),
      '507': errorResponse('The server\'s disk is full; the view was not counted. The writer recovers by itself when space returns.', 'storage_full', "The server's disk is full; nothing was stored. Try again later.", undefined, retryAfter('Seconds to wait before trying again.')),
    }),
  };
}

function health(ctx: OpenApiContext): Operation {
  return {
    operationId: 'getHealth',
    summary: 'Health check',
    description: 'Answers 200 while the writer process is up and serving.',
    tags: ['operations'],
    security: PUBLIC,
    ...writerServers(ctx),
    responses: { '200': jsonResponse('The writer is up.', ref('Health'), { status: 'ok' }) },
  };
}

/** Paths of the writer's comment, view and health routes. */
export function writePaths(ctx: OpenApiContext): Paths {
  return {
    '/api/comments/{slug}': { get: listCommentsOperation(), post: postComment(ctx) },
    '/api/views/{slug}': { put: incrementViews(ctx) },
    '/api/health': { get: health(ctx) },
  };
}
