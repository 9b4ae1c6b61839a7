// Search for people, as progressive enhancement of the GET form on /search/.
// Pagefind's static index (/pagefind/) answers on any host; where it was not published
// the writer's /api/search does. Results are built with DOM calls, never innerHTML.
const form = document.querySelector('[data-search]');
const input = form?.querySelector('input[name="q"]');
const status = document.querySelector('[data-search-status]');
const list = document.querySelector('[data-search-results]');

let pagefind = null;
// A big site's index is split into shards (/search-shards.json lists them): the first
// bundle loads, the others are merged into it.
async function loadPagefind() {
  const shards = await fetch('/search-shards.json').then((res) => (res.ok ? res.json() : null), () => null);
  const bundles = shards?.bundles?.length ? shards.bundles : ['/pagefind/'];
  const first = await import(`${bundles[0]}pagefind.js`);
  for (const bundle of bundles.slice(1)) await first.mergeIndex(bundle);
  return first;
}
// Pagefind answers a word it does not know with the longest prefix it does know
// ("xylophone" finds pages with "x"), so a word in no post listed unrelated pages. A
// page stays when a word its excerpt marks shares its first three letters (all of a
// shorter word) with a word of the query: stems and words being typed still match.
const wordsOf = (text) => text.toLocaleLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
function sharesStart(a, b) {
  const need = Math.min(3, [...a].length);
  return [...a].slice(0, need).join('') === [...b].slice(0, need).join('');
}
function matchesQuery(q, excerpt) {
  const marked = [...(excerpt ?? '').matchAll(/<mark>(.*?)<\/mark>/g)].flatMap((m) => wordsOf(m[1]));
  return wordsOf(q).some((w) => marked.some((m) => sharesStart(w, m)));
}

async function fromPagefind(q) {
  pagefind ??= await loadPagefind();
  const found = await pagefind.search(q);
  const data = await Promise.all(found.results.slice(0, 20).map((r) => r.data()));
  return data.filter((d) => matchesQuery(q, d.excerpt)).map((d) => ({ url: d.url, title: d.meta?.title ?? d.url, excerpt: d.excerpt }));
}

// The writer's search (on its own origin when the site names one: the form carries it).
const writerSearch = form?.getAttribute('data-search-endpoint') || '/api/search';

async function fromWriter(q) {
  const res = await fetch(`${writerSearch}?q=${encodeURIComponent(q)}`, { headers: { accept: 'application/json' }, mode: 'cors' });
  if (!res.ok) throw new Error(`search answered ${res.status}`);
  const body = await res.json();
  const hits = Array.isArray(body) ? body : (body.results ?? body.hits ?? []);
  // Its snippets are plain text (`Vec<String>`, `a < b`), not HTML with <mark>s.
  return hits.map((h) => ({ url: h.url, title: h.title ?? h.url, text: h.snippet || h.summary || '' }));
}

// Pagefind excerpts mark matches with <mark>; keep only those, as elements, the rest as text.
function excerptNodes(excerpt) {
  const doc = new DOMParser().parseFromString(`<p>${excerpt}</p>`, 'text/html');
  return [...doc.body.firstChild.childNodes].map((n) => {
    if (n.nodeName === 'MARK') {
      const m = document.createElement('mark');
      m.textContent = n.textContent;
      return m;
    }
    return document.createTextNode(n.textContent ?? '');
  });
}

function show(q, results) {
  list.replaceChildren(
    ...results.map((r) => {
      const li = document.createElement('li');
      const h = document.createElement('h2');
      const a = document.createElement('a');
      a.href = r.url;
      a.textContent = r.title;
      h.append(a);
      const p = document.createElement('p');
      if (r.text !== undefined) p.textContent = r.text;
      else p.append(...excerptNodes(r.excerpt ?? ''));
      li.append(h, p);
      return li;
    }),
  );
  status.textContent = `${results.length} result${results.length === 1 ? '' : 's'} for “${q}”`;
}

// A site built without the index says so on the form: its files are not asked for (two 404s a search).
const staticIndex = form?.getAttribute('data-search-index') !== 'off';

async function run(q) {
  if (!q.trim()) return;
  status.textContent = 'Searching…';
  try {
    if (!staticIndex) throw new Error('no static index');
    show(q, await fromPagefind(q));
  } catch {
    try {
      show(q, await fromWriter(q));
    } catch {
      status.textContent = 'Search is not available here; browse the tags or categories instead.';
    }
  }
}

if (form && input && status && list) {
  const q = new URLSearchParams(location.search).get('q') ?? '';
  input.value = q;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    history.replaceState(null, '', `?q=${encodeURIComponent(input.value)}`);
    run(input.value);
  });
  run(q);
}
