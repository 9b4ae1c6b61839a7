/**
 * `localRefs` (rule `local-file`) judges the URL the page shows: for a label defined twice,
 * the first definition's (CommonMark 4.7), as the renderer and `dead-link` read it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { localRefs } from '../../packages/generator/src/validate/local-files.ts';

test('localRefs takes the first definition of a label, as the page does', () => {
  const body = 'The conclusion first.\n\n![chart][c]\n\n[c]: ./shown.png\n[c]: ./never-shown.png\n';
  assert.deepEqual(localRefs(body, 10), [{ url: './shown.png', image: true, line: 14, column: 1 }]);
});

test('localRefs judges a definition used by a link and an image as an image', () => {
  const body = 'The conclusion first.\n\n[the chart][c] and ![chart][c]\n\n[c]: ./chart.png\n';
  assert.deepEqual(localRefs(body, 1), [{ url: './chart.png', image: true, line: 5, column: 1 }]);
});
