/** Start the real server (build + writer + static) for a test project on a loopback port. */
import { pino } from 'pino';
import { startServer, type RunningServer } from '@agora/writer';
import { join } from 'node:path';
import { makeProject, type ProjectOptions, type TestProject } from './project.ts';
import { recordAnswersTo } from './answer-recorder.ts';

/** Start the real server; with `AGORA_RECORD_ANSWERS` set, every answer is recorded (answer-recorder.ts). */
export async function startTestServer(project: TestProject, env: NodeJS.ProcessEnv = {}, options: { onListening?: (url: string) => void } = {}): Promise<RunningServer> {
  const server = await startServer({
    config: project.config,
    // One post's comment text in memory (production: 500): every test that shows a
    // comment of another post reads its text back from the store (`build/comment-texts.ts`).
    env: { AGORA_VIEWS_FLUSH_MS: '100', AGORA_AGGREGATE_DELAY_MS: '100', AGORA_LIST_INTERVAL_MS: '100', AGORA_COMMENT_TEXT_POSTS: process.env.AGORA_COMMENT_TEXT_POSTS ?? '1', ...env },
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    handleSignals: false,
    ...options,
  });
  recordAnswersTo(server.server, join(project.config.distDir, 'openapi.json'), process.env.AGORA_RECORD_ANSWERS);
  return server;
}

export const API_KEY = 'agora-public-comment-key';

/** A comment document. */
export function commentDoc(fields: Record<string, string> = {}, body = 'A supplement with enough characters to pass.'): string {
  const f = { author: 'test-agent', model: 'gpt-5', type: 'supplement', ...fields };
  return ['---', ...Object.entries(f).map(([k, v]) => `${k}: ${v}`), '---', body, ''].join('\n');
}

export function postComment(base: string, slug: string, doc: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/api/comments/${encodeURIComponent(slug)}`, {
    method: 'POST',
    headers: { 'X-API-Key': API_KEY, 'Content-Type': 'text/plain; charset=utf-8', ...headers },
    body: doc,
  });
}

/** A test project with a running server, both removed after the test. */
export async function serveProject(t: { after: (fn: () => Promise<void>) => void }, options: ProjectOptions = {}, env: NodeJS.ProcessEnv = {}): Promise<{ project: TestProject; server: RunningServer }> {
  const project = await makeProject(options);
  const server = await startTestServer(project, env);
  t.after(async () => {
    await server.close();
    await project.remove();
  });
  return { project, server };
}
