// Live reload for `agora dev` only: one stream of /__agora/events shared by every open
// page of the site (a SharedWorker). A stream per page held one of the browser's six
// HTTP/1.1 connections to the host each: with six pages open, none reloaded and a
// seventh did not load. Each page connects here and gets every event, and the last
// status (ok, or the error report) when it connects.
const ports = new Set();
let open = false;
let status = null;
const post = (message) => {
  for (const port of ports) port.postMessage(message);
};
const events = new EventSource('/__agora/events');
events.addEventListener('open', () => {
  open = true;
  post({ type: 'open' });
});
for (const type of ['reload', 'error-report', 'ok']) {
  events.addEventListener(type, (event) => {
    const message = { type, data: JSON.parse(event.data) };
    if (type !== 'reload') status = message;
    post(message);
  });
}
self.addEventListener('connect', (event) => {
  const port = event.ports[0];
  ports.add(port);
  // A page that goes says so (a worker is never told a port closed).
  port.addEventListener('message', (message) => {
    if (message.data === 'bye') ports.delete(port);
  });
  port.start();
  if (open) port.postMessage({ type: 'open' });
  if (status) port.postMessage(status);
});
