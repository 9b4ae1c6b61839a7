/**
 * `npm run bench:comment-limits [-- --random 400]`: how long the comment renderer takes
 * on the heaviest bodies the work limits accept (`COMMENT_WORK_LIMITS`, nesting,
 * emphasis runs). Each named worst case is a body filled with one expensive construct
 * up to its limit (and the 16 KiB document size), then random mixes of every construct
 * that still pass `assertRenderableShape`. Prints the slowest render of each (best of
 * three runs, on this thread, no worker) and the slowest over-limit bodies the limits
 * refuse, for comparison. A calibration, not a test: the limits are counts, so what is
 * accepted never depends on this machine's speed.
 */
import { assertRenderableShape, COMMENT_RULES } from '@agora/generator';
import { renderCommentMarkdown } from '../packages/generator/src/render/comment-markdown.ts';
import { flag } from './report.ts';

const MAX_BODY = COMMENT_RULES.maxBytes - 120; // room for the front matter

/** Repeat `unit` until the body reaches `count` units or the size limit. */
const fill = (unit: string, count: number, head = '') => head + unit.repeat(Math.max(0, Math.min(count, Math.floor((MAX_BODY - head.length) / unit.length))));

export const WORST_CASES: Record<string, string> = {
  'setext headings': fill('a\n=\n', 100) + fill('a\n', 400 - 200),
  'atx headings': fill('# a\n', 100) + 'x\n'.repeat(300),
  'list items': fill('- a\n', 200) + fill('a\n', 200),
  'nested lists at max depth': Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i % 16)}- a`).join('\n'),
  'block quotes 16 deep': Array.from({ length: 400 }, () => '> '.repeat(16) + 'a').join('\n'),
  'paragraph lines': fill('a\n\n', 400),
  'table rows': '|a|b|c|\n|-|-|-|\n' + fill('|a|b|c|\n', 398),
  'table cells (20 columns)': `|${'h|'.repeat(20)}\n|${'-|'.repeat(20)}\n` + fill(`|${'a|'.repeat(20)}\n`, Math.floor(2000 / 21) - 2),
  'links': fill('[a](b) ', 500),
  'reference links': fill('[a][r] ', 249) + '\n\n[r]: http://x',
  // At maxReferenceChars: 250 `[` times a 1,000-character definition.
  'one reference definition repeated': `[a]: http://x/${'y'.repeat(985)}\n\n` + '[a] '.repeat(249),
  // At maxLabelChars: 250 nested `[` around 3,751 characters (` İ` costs the most to normalize), then 250 `]`.
  'link labels reaching far': '['.repeat(250) + ' İ'.repeat(1875) + 'x' + ']'.repeat(250),
  'code spans': fill('`a` ', 500),
  'emphasis runs': fill('*a* ', 500),
  'emphasis, nested': fill('***a*** ', 500),
  'emphasis runs at maxRunLength': fill(`${'*'.repeat(32)}a${'*'.repeat(32)} `, 500),
  'entities': fill('&amp; ', 3000),
  'autolinks': fill('<http://a.b> ', 1500),
  // Each scans the rest of the body for its end: at the limit, with the body filled to 16 KiB behind them.
  'raw HTML openers (<?, <!--, <![CDATA[)': fill('text ', 3000 - 120, `x ${'<? <!-- <![CDATA[ '.repeat(33)}<? `),
  'fenced code (highlighted)': '```js\n' + fill('var a = [1, "s", /r/g];\n', 1000) + '```',
  'blank lines': fill('\n', 998) + 'long enough',
  'several limits at once (maxWork 200 %)': fill('[a](b) ', 500) + fill('`a` ', 250) + fill('*a* ', 250) + '\n',
  'table and list items at once': `|${'h|'.repeat(20)}\n|${'-|'.repeat(20)}\n` + fill(`|${'a|'.repeat(20)}\n`, 60) + '\n' + fill('- a\n', 100),
};

const RANDOM_UNITS = ['a\n=\n', '# a\n', '- a\n', '1. a\n', '> a\n', '  - a\n', '|a|b|\n', '[a](b) ', '`a` ', '*a* ', '**a** ', '_a_ ', '&amp; ', '<http://a.b> ', 'word ', '\n', '[a]: http://x\n', '\\* ', '![a](b) ', '<!-- a ', '<?a ', '<b>a</b> '];

function randomBody(seed: number): string {
  let x = seed * 2654435761 % 2 ** 32;
  const next = () => (x = (x * 1664525 + 1013904223) % 2 ** 32) / 2 ** 32;
  const parts: string[] = [];
  const target = 1000 + next() * (MAX_BODY - 1000);
  let size = 0;
  while (size < target) {
    const unit = RANDOM_UNITS[Math.floor(next() * RANDOM_UNITS.length)]!;
    const run = unit.repeat(1 + Math.floor(next() * 60));
    if (size + run.length > target) break;
    parts.push(run);
    size += run.length;
  }
  return parts.join('');
}

const accepted = (body: string) => {
  try {
    assertRenderableShape(body);
    return true;
  } catch {
    return false;
  }
};

function timeRender(body: string): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    renderCommentMarkdown(body);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const samples = Number(flag('random', 'BENCH_RANDOM') ?? 300);
  renderCommentMarkdown('warm *up* `the` [renderer](x)\n\n- a\n');
  console.log('worst case                     accepted   bytes   render ms (best of 3)');
  let worst = 0;
  for (const [name, body] of Object.entries(WORST_CASES)) {
    const ok = accepted(body);
    const ms = timeRender(body);
    if (ok) worst = Math.max(worst, ms);
    console.log(`${name.padEnd(30)} ${String(ok).padEnd(9)} ${String(Buffer.byteLength(body)).padStart(6)}   ${ms.toFixed(1)}`);
  }
  let randomWorst = 0;
  let randomAccepted = 0;
  let refusedWorst = 0;
  let refused = 0;
  for (let seed = 1; randomAccepted < samples && seed < samples * 20; seed++) {
    const body = randomBody(seed);
    if (accepted(body)) {
      randomAccepted++;
      randomWorst = Math.max(randomWorst, timeRender(body));
    } else if (refused++ < 20) refusedWorst = Math.max(refusedWorst, timeRender(body));
  }
  console.log(`\nslowest named worst case accepted: ${worst.toFixed(1)} ms`);
  console.log(`random mixes: ${randomAccepted} accepted, slowest ${randomWorst.toFixed(1)} ms; ${refused} refused (slowest of the first 20: ${refusedWorst.toFixed(1)} ms)`);
}
