#!/usr/bin/env node
/**
 * README's "First steps", run as a newcomer runs them: each ```bash block of that
 * section is run with bash against the server on `PORT` (started with `npm start`), and
 * what it prints is compared with the ```text block after it, where `…` stands for any
 * text within a line. Prints each block's result; exits 1 on the first difference.
 *
 *   PORT=18080 npm start &   # then:
 *   PORT=18080 node .ci/first-steps.mjs
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const start = readme.indexOf('\n## First steps\n');
if (start === -1) throw new Error('README.md has no "## First steps" section');
const end = readme.indexOf('\n## ', start + 1);
const blocks = [...readme.slice(start, end === -1 ? undefined : end).matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
let checked = 0;
for (const [i, block] of blocks.entries()) {
  if (block.lang !== 'bash') continue;
  const expected = blocks[i + 1]?.lang === 'text' ? blocks[i + 1].text.trimEnd() : null;
  // Its output whatever its exit status (`grep -c` exits 1 when it counts 0).
  const printed = spawnSync('bash', ['-c', block.text], { encoding: 'utf8', env: process.env }).stdout.trimEnd();
  if (expected === null) continue;
  checked++;
  const pattern = new RegExp(`^${expected.split('…').map(escape).join('[^\\n]*')}$`);
  if (!pattern.test(printed)) {
    console.error(`First steps: the block\n${block.text}printed\n${printed}\ninstead of\n${expected}`);
    process.exit(1);
  }
  console.log(`first steps: ${block.text.trim().split('\n')[0].slice(0, 70)}… prints what the README shows`);
}
if (checked === 0) throw new Error('no ```bash block with a ```text block after it in "First steps"');
