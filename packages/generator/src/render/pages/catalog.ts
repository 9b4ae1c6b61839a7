/**
 * Catalog pages: `/agencatalog/` (every entry with its status and simple endpoint) and
 * one detail page per entry (operations, parameters, limits, attribution, and
 * copy-paste curl examples for the simple endpoint and the proxy).
 */
import { html, type SafeHtml } from '../html.ts';
import type { SiteConfig } from '../../types.ts';
import type { Catalog, CatalogService, Operation } from '../../catalog/types.ts';
import { layout } from './layout.ts';

function statusBadge(s: CatalogService): SafeHtml {
  return html`<span class="badge status-${s.status}">${s.status === 'active' ? 'active' : 'pending key'}</span>`;
}

export function renderCatalogIndex(site: SiteConfig, catalog: Catalog): string {
  const body = html`<h1>Public-data catalog</h1>
<p class="lead">Korean public-data APIs, described for agents. Entries with a simple endpoint need no key from you: the server holds the provider key. Every entry can also be called through the token-protected proxy <code>POST ${catalog.proxy.call}</code> with header <code>${catalog.proxy.auth}</code>.</p>
<p class="formats">Version ${catalog.version}, updated <time datetime="${catalog.updated}">${catalog.updated}</time> · as <a href="/agencatalog/catalog.json">JSON</a></p>
<ul class="catalog-list">
${catalog.services.map(
  (s) => html`<li>
<h2><a href="${detailPath(s)}">${s.name}</a> ${statusBadge(s)}</h2>
<p class="meta">${s.provider} · key scheme ${s.auth} · ${s.rate_limit.per_day.toLocaleString('en-US')} calls/day${s.free ? ' · free' : ''}</p>
<p>${s.description}</p>
${s.simple_api ? html`<p>Simple endpoint: <code>${s.simple_api.method} ${s.simple_api.url}</code></p>` : ''}
</li>`,
)}
</ul>`;
  return layout({ site, title: 'Public-data catalog', description: 'Korean public-data APIs with keyless simple endpoints and a proxy, described for agents.', path: '/agencatalog/', body, jsonAlternate: '/agencatalog/catalog.json', catalog: true });
}

/** Site-relative path of an entry's page (detail_url is absolute once loaded). */
export function detailPath(s: CatalogService): string {
  return `/agencatalog/${encodeURIComponent(s.slug)}/`;
}

function operationBlock(op: Operation): SafeHtml {
  return html`<section class="operation" id="op-${op.id.replace(/[^A-Za-z0-9_-]/g, '-')}">
<h3><code>${op.id}</code> — ${op.name}</h3>
<p>${op.note}</p>
${op.params.length === 0 ? html`<p class="empty">No parameters.</p>` : html`<div class="table-scroll" tabindex="0" role="group" aria-label="Parameters of ${op.id}"><table>
<thead><tr><th>Parameter</th><th>Required</th><th>Example</th><th>Description</th></tr></thead>
<tbody>${op.params.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.required ? 'yes' : 'no'}</td><td><code>${p.example}</code></td><td>${p.desc ?? ''}</td></tr>`)}</tbody>
</table></div>`}
<p><strong>Returns:</strong> ${op.returns.join(', ')}</p>
<p><strong>Limit:</strong> ${op.rate_limit.per_day.toLocaleString('en-US')} calls/day${op.rate_limit.note ? ` (${op.rate_limit.note})` : ''}</p>
</section>`;
}

/**
 * The call a detail page shows: the entry's first operation with its required
 * parameters. An operation with none gets its first parameter that has an example: a
 * rule such as "exactly one of corpNm, crno, bzno" is not in the catalog, and the call
 * shown without one was refused with 400.
 */
export function proxyExampleCall(s: CatalogService): { service: string; operation: string; params: Record<string, string> } {
  const op = s.apis[0];
  const required = (op?.params ?? []).filter((p) => p.required);
  const firstExample = (op?.params ?? []).find((p) => p.example !== undefined);
  const params = Object.fromEntries((required.length > 0 ? required : firstExample ? [firstExample] : []).map((p) => [p.name, p.example]));
  return { service: s.slug, operation: op?.id ?? '', params };
}

function proxyExample(site: SiteConfig, catalog: Catalog, s: CatalogService): string {
  const bodyJson = JSON.stringify(proxyExampleCall(s));
  return [
    `curl -X POST '${site.writerUrl || site.baseUrl}${catalog.proxy.call}' \\`,
    `  -H '${catalog.proxy.auth}: <your token>' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${bodyJson.replace(/'/g, "'\\''")}'`,
  ].join('\n');
}

export function renderCatalogDetail(site: SiteConfig, catalog: Catalog, s: CatalogService): string {
  const origin = site.writerUrl || site.baseUrl;
  const body = html`<p class="kicker"><a href="/agencatalog/">Public-data catalog</a></p>
<h1>${s.name} ${statusBadge(s)}</h1>
<p class="lead">${s.description}</p>
<dl class="post-meta">
<div><dt>Provider</dt><dd>${s.provider}</dd></div>
<div><dt>Key scheme</dt><dd>${s.auth}</dd></div>
<div><dt>Free</dt><dd>${s.free ? 'yes' : 'no'}</dd></div>
<div><dt>Limit</dt><dd>${s.rate_limit.per_day.toLocaleString('en-US')} calls/day</dd></div>
<div><dt>Checked</dt><dd><time datetime="${s.checked_date}">${s.checked_date}</time></dd></div>
</dl>
<p class="meta">${s.rate_limit.note}</p>
${s.status === 'pending_key' ? html`<p><strong>Pending key:</strong> the provider key is not set up on this server yet; calls answer 503 until it is.</p>` : ''}
<h2>What an agent gets</h2>
<ul>${s.what_agent_gets.map((g) => html`<li><strong>${g.data}</strong> — ${g.use}</li>`)}</ul>
<h2>Use cases</h2>
<ul>${s.use_cases.map((u) => html`<li>${u}</li>`)}</ul>
${s.simple_api ? html`<h2>Simple endpoint (no key)</h2>
<p>${s.simple_api.label}: ${s.simple_api.note}</p>
<pre tabindex="0" role="group" aria-label="Code: bash"><code class="language-bash">curl '${origin}${s.simple_api.url}'</code></pre>` : ''}
<h2>Proxy call</h2>
<p>With an agent token from the operator, call any operation below:</p>
<pre tabindex="0" role="group" aria-label="Code: bash"><code class="language-bash">${proxyExample(site, catalog, s)}</code></pre>
<h2>Operations</h2>
${s.apis.map(operationBlock)}
<h2>Attribution</h2>
<p>${s.attribution}</p>`;
  return layout({ site, title: s.name, description: s.description, path: detailPath(s), body, jsonAlternate: '/agencatalog/catalog.json', catalog: true });
}
