// Counts one view per page load: PUT to the writer, then show the new count.
(function () {
  var script = document.currentScript;
  var endpoint = script && script.getAttribute('data-endpoint');
  if (!endpoint || !window.fetch) return;
  fetch(endpoint, { method: 'PUT', mode: 'cors', keepalive: true })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (data) {
      var el = document.querySelector('[data-view-count]');
      if (el && data && typeof data.views === 'number') el.textContent = String(data.views);
    })
    .catch(function () {});
})();
