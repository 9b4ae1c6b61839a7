/**
 * `sendWholeFile` (`http/send-file.ts`): the file is opened once and everything about
 * the answer comes from that open file. A flush renames new versions into place at any
 * moment; a header that describes the bytes (the markdown twins' `x-markdown-tokens`)
 * must be made from the opened file, not from the path, or it describes another version.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { countTextTokens } from '@agora/generator';
import { sendWholeFile } from '../../packages/writer/src/http/send-file.ts';
import { serveProject } from '../helpers/server.ts';

test('a header made from the opened file describes the bytes sent, though the path is replaced meanwhile', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'agora-send-file-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'index.md');
  await writeFile(path, '# Version one\n');
  const app = express();
  app.get('/index.md', (req, res, next) => {
    void sendWholeFile(req, res, path, async (r, _path, opened) => {
      // A flush renames the next version into place after the open, before the headers.
      await writeFile(`${path}.next`, '# Version two, longer than the first\n');
      await rename(`${path}.next`, path);
      const bytes = (await opened.handle.read(Buffer.alloc(opened.size), 0, opened.size, 0)).buffer;
      r.setHeader('X-Body-Sha1', createHash('sha1').update(bytes).digest('hex'));
    }).then((outcome) => outcome !== 'sent' && next(), next);
  });
  const server = app.listen(0, '127.0.0.1');
  t.after(() => new Promise((r) => server.close(r)));
  await new Promise((r) => server.once('listening', r));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/index.md`);
  const body = Buffer.from(await res.arrayBuffer());
  assert.equal(body.toString(), '# Version one\n', 'the version that was open is sent');
  assert.equal(res.headers.get('x-body-sha1'), createHash('sha1').update(body).digest('hex'), 'and the header describes it');
  assert.equal(res.headers.get('content-length'), String(body.length));
});

test('x-markdown-tokens counts the markdown sent, though a flush replaces the file while it is counted', { timeout: 120_000 }, async (t) => {
  const { project, server } = await serveProject(t);
  const file = join(project.config.distDir, 'agents.md');
  // Counting this takes ~0.5 s of the writer's thread (distinct words: the tokenizer
  // remembers words it has seen). Another process renames the next version into place
  // 250 ms after the request is sent, as a flush does, while the writer counts.
  const version = (n: number) => `# Version ${n}\n\n${Array.from({ length: 150_000 }, (_, i) => `w${n}x${(i * 7919) % 100_003}q${i % 97}`).join(' ')}\n`;
  const replacement = '# Replaced\n\nShort.\n';
  const flusher = spawn(process.execPath, ['-e', `
    const fs = require('node:fs');
    require('node:readline').createInterface({ input: process.stdin }).on('line', () => setTimeout(() => {
      fs.writeFileSync(${JSON.stringify(`${file}.next`)}, ${JSON.stringify(replacement)});
      fs.renameSync(${JSON.stringify(`${file}.next`)}, ${JSON.stringify(file)});
      process.stdout.write('replaced\\n');
    }, 250));
    process.stdout.write('ready\\n');`], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.after(() => void flusher.kill());
  await once(flusher.stdout, 'data');
  // The first fetch of a process loads its client: not while the 250 ms run.
  await (await fetch(`${server.url}/robots.txt`)).text();
  // Each attempt must answer a header that counts the body it came with, whichever
  // version that is. At least one must have sent the version written before the request
  // (the file opened before the rename), or no attempt raced the rename at all.
  let raced = 0;
  for (let attempt = 1; attempt <= 5 && raced === 0; attempt++) {
    const sent = version(attempt);
    await writeFile(file, sent);
    const replaced = once(flusher.stdout, 'data');
    flusher.stdin.write('go\n');
    const res = await fetch(`${server.url}/agents.md`);
    const body = await res.text();
    await replaced;
    assert.equal(res.headers.get('x-markdown-tokens'), String(countTextTokens(body)), `attempt ${attempt}: the count is of the version sent (${body === sent ? 'the first' : 'the replacement'})`);
    if (body === sent) raced++;
  }
  assert.ok(raced > 0, 'in 5 attempts the request never opened the file before the flusher replaced it: the test proved nothing');
});
