/**
 * The repository's own documents link to each other by file and heading: every such
 * link in README.md and docs/*.md names a file that exists and, with `#…`, a heading
 * of that file as GitHub anchors it (github-slugger, which the generator uses for its
 * own heading ids: an en dash in a heading is dropped, not turned into a hyphen).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import GithubSlugger from 'github-slugger';
import { REPO_ROOT } from '../helpers/project.ts';

const documents = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const text = readFileSync(join(REPO_ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set(text.split('\n').filter((l) => /^#{1,6} /.test(l)).map((l) => slugger.slug(l.replace(/^#+ /, '').trim())));
}

test('links between the repository\'s documents name files and headings that exist', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of documents) {
    // Links in prose only: not in code blocks or code spans (`[text](url)` is an example).
    const text = readFileSync(join(REPO_ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : relative(REPO_ROOT, normalize(join(REPO_ROOT, dirname(file), path)));
      checked++;
      if (!existsSync(join(REPO_ROOT, resolved))) broken.push(`${file}: ${target} (no file ${resolved})`);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) broken.push(`${file}: ${target} (no heading with that anchor in ${resolved})`);
    }
  }
  assert.ok(checked > 20, `checked ${checked} links`);
  assert.deepEqual(broken, []);
});
