import { renderCommentMarkdown } from './packages/generator/src/render/comment-markdown.ts';
renderCommentMarkdown('warm *up* '.repeat(100));
const pats: Record<string,(n:number)=>string> = {
  setext: n=>'a\n=\n'.repeat(n), setextFill: n=>'a\n=\n'.repeat(n) + '- a\n'.repeat(Math.max(0,(16000-4*n)/4|0)),
  list: n=>'- a\n'.repeat(n), atx: n=>'# a\n'.repeat(n), para: n=>'a\n\n'.repeat(n), quote: n=>'> a\n'.repeat(n),
  olist: n=>'1. a\n'.repeat(n), lines: n=>'a\n'.repeat(n), hr: n=>'***\n'.repeat(n), table: n=>'|a|b|\n|-|-|\n' + '|a|b|\n'.repeat(n),
  nested: n=>Array.from({length:n},(_, i)=>'  '.repeat(i%16)+'- a\n').join(''),
  links: n=>'[a](b) '.repeat(n), code: n=>'`a` '.repeat(n), emph: n=>'*a* '.repeat(n), refs: n=>'[a]\n\n'.repeat(n)+'[a]: http://x\n',
  brackets: n=>'[a '.repeat(n), ent: n=>'&amp; '.repeat(n), auto: n=>'<http://a> '.repeat(n),
};
for (const [k, f] of Object.entries(pats)) {
  const row = [k];
  for (const n of [250, 500, 1000, 2000]) {
    const v = f(n); if (v.length > 16384) { row.push('-'); continue; }
    let best = 1e9; for (let i=0;i<3;i++){ const t = performance.now(); renderCommentMarkdown(v); best = Math.min(best, performance.now()-t); }
    row.push(`${n}:${best.toFixed(0)}`);
  }
  console.log(row.join('\t'));
}
