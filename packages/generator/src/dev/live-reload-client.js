// Live reload for `agora dev` only (never in dist/): the dev server serves this file at
// /__agora/live-reload.js and adds it to the pages it serves. It listens to
// /__agora/events (server-sent events, allowed by the site's CSP: script and connect
// from 'self'), reloads the page after each rebuild that wrote files, and shows the
// positioned message of a post that fails validation until a rebuild succeeds.
(() => {
  const ID = 'agora-dev-error';
  const show = (messages) => {
    let box = document.getElementById(ID);
    if (!box) {
      box = document.createElement('div');
      box.id = ID;
      box.setAttribute('role', 'alert');
      // CSSOM properties, not a style attribute: the CSP allows styles from files only.
      Object.assign(box.style, {
        position: 'fixed', inset: '0 0 auto 0', zIndex: '2147483647', maxHeight: '60vh', overflow: 'auto',
        margin: '0', padding: '1rem 1.25rem', background: '#2b0b0b', color: '#ffe9e9',
        font: '14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', whiteSpace: 'pre-wrap',
        borderBottom: '3px solid #ff5c5c',
      });
      document.body.prepend(box);
    }
    box.textContent = `agora dev: the last edit was not built; the page shows the previous version\n\n${messages.join('\n\n')}`;
  };
  const events = new EventSource('/__agora/events');
  // Marks the page as listening (for a person in the inspector, and for the tests).
  events.addEventListener('open', () => (document.documentElement.dataset.agoraDev = 'listening'));
  // This page's file in dist/: `/guide/x/` → `guide/x/index.html`.
  const path = decodeURIComponent(location.pathname).replace(/^\//, '');
  const file = path === '' || path.endsWith('/') ? `${path}index.html` : path;
  events.addEventListener('reload', (event) => {
    const data = JSON.parse(event.data);
    if (data.all || data.pages.includes(file)) location.reload();
  });
  events.addEventListener('error-report', (event) => show(JSON.parse(event.data).messages));
  // Fixed: a page that showed errors reloads (it may be the stand-in served while the
  // site could not start, or an older build of this page).
  events.addEventListener('ok', () => {
    if (document.getElementById(ID)) location.reload();
  });
})();
