// Live reload for `agora dev` only (never in dist/): the dev server serves this file at
// /__agora/live-reload.js and adds it to the pages it serves. It listens to
// /__agora/events (server-sent events, allowed by the site's CSP: script and connect
// from 'self') through one SharedWorker for all open pages (/__agora/live-reload-worker.js:
// a stream per page held one of the browser's six connections to the host each),
// reloads the page after each rebuild that rewrote it, and shows the positioned message
// of a post that fails validation until a rebuild succeeds.
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
    box.textContent = `agora dev: the last edit was not built; the page shows ${document.querySelector("[data-agora-stand-in]") ? 'the messages until the site starts' : 'the previous version'}\n\n${messages.join('\n\n')}`;
  };
  // This page's file in dist/: `/guide/x/` → `guide/x/index.html`.
  const path = decodeURIComponent(location.pathname).replace(/^\//, '');
  const file = path === '' || path.endsWith('/') ? `${path}index.html` : path;
  let reloading = false;
  const reload = () => {
    if (reloading) return;
    reloading = true;
    location.reload();
  };
  const handle = ({ type, data }) => {
    // Marks the page as listening (for a person in the inspector, and for the tests).
    if (type === 'open') document.documentElement.dataset.agoraDev = 'listening';
    else if (type === 'reload' && (data.all || data.pages.includes(file))) reload();
    else if (type === 'error-report') show(data.messages);
    // Fixed: a page that showed errors reloads (it may be the stand-in served while the
    // site could not start, or an older build of this page).
    else if (type === 'ok' && document.getElementById(ID)) reload();
  };
  if (typeof SharedWorker === 'function') {
    const worker = new SharedWorker('/__agora/live-reload-worker.js', { name: 'agora-dev' });
    worker.port.addEventListener('message', (event) => handle(event.data));
    worker.port.start();
    addEventListener('pagehide', () => worker.port.postMessage('bye'));
    return;
  }
  // No SharedWorker (Chrome on Android): a stream of this page's own.
  const events = new EventSource('/__agora/events');
  events.addEventListener('open', () => handle({ type: 'open' }));
  for (const type of ['reload', 'error-report', 'ok']) events.addEventListener(type, (event) => handle({ type, data: JSON.parse(event.data) }));
})();
