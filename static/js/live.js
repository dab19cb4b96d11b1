// Live pages (base/live.py on the server). One websocket per page at /ws/live/?groups=...; the server sends only
// {"type": "changed", "group": "flight-3"} after a commit, and the page refetches its own fragment over HTTP, so
// what is shown passes the same permission checks as a reload. With JavaScript off a reload shows the truth.
//
// Two ways to use it:
//   declarative: an element with an id and data-live-groups="flight-3 event-2" is swapped for the element with the
//     same id in a fresh copy of the page (or of data-live-url) whenever one of its groups changes;
//   from a page script: bgLive.watch(["calcutta-1"], refresh, {poll: check, interval: 3000}) calls refresh() on a
//     change; only while the socket cannot connect does it call poll() every interval instead (the old polling).
(function () {
  "use strict";
  var watchers = [];
  var socket = null;
  var connected = false;
  var started = false;
  var retry = 1000;
  var pollTimer = null;
  var DEBOUNCE = 100;

  function groupsOf(list) {
    return (list || []).filter(function (name) { return /^[a-z]+-[0-9]+$/.test(name); });
  }

  function later(watcher) {
    // Several groups changing in one commit (flight, event, user) refetch once.
    if (watcher.timer) { return; }
    watcher.timer = window.setTimeout(function () { watcher.timer = null; watcher.onChange(); }, DEBOUNCE);
  }

  function allGroups() {
    var seen = {};
    watchers.forEach(function (w) { w.groups.forEach(function (g) { seen[g] = true; }); });
    return Object.keys(seen);
  }

  function pollAll() {
    pollTimer = null;
    if (connected) { return; }
    watchers.forEach(function (w) { if (w.poll) { w.poll(); } });
    pollTimer = window.setTimeout(pollAll, Math.min.apply(null, watchers.map(function (w) { return w.interval; })));
  }

  function startPolling() {
    if (!pollTimer && watchers.length) {
      pollTimer = window.setTimeout(pollAll, Math.min.apply(null, watchers.map(function (w) { return w.interval; })));
    }
  }

  function connect() {
    var groups = allGroups();
    if (!groups.length) { return; }
    if (!window.WebSocket) { startPolling(); return; }
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var url = scheme + window.location.host + "/ws/live/?groups=" + encodeURIComponent(groups.join(","));
    try { socket = new window.WebSocket(url); } catch (e) { startPolling(); return; }
    socket.onopen = function () {
      var wasDown = retry > 1000;
      connected = true;
      retry = 1000;
      if (pollTimer) { window.clearTimeout(pollTimer); pollTimer = null; }
      document.documentElement.setAttribute("data-live", "on");
      if (wasDown) { watchers.forEach(later); }  // changes may have been missed while away
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type !== "changed") { return; }
      watchers.forEach(function (w) { if (w.groups.indexOf(message.group) >= 0) { later(w); } });
    };
    socket.onclose = function () {
      connected = false;
      socket = null;
      document.documentElement.setAttribute("data-live", "off");
      startPolling();
      retry = Math.min(retry * 2, 30000);
      window.setTimeout(connect, retry);
    };
  }

  function start() {
    if (started) { return; }
    started = true;
    connect();
  }

  function watch(groups, onChange, options) {
    options = options || {};
    var watcher = {
      groups: groupsOf(groups), onChange: onChange, poll: options.poll || null,
      interval: options.interval || 5000, timer: null
    };
    if (!watcher.groups.length) { return watcher; }
    watchers.push(watcher);
    if (started && socket) { socket.close(); }  // reconnects with the new group list
    return watcher;
  }

  function swapRegion(element) {
    var url = element.getAttribute("data-live-url") || window.location.href;
    return window.fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var current = document.getElementById(element.id);
        var fresh = doc.getElementById(element.id);
        if (current && fresh) {
          current.replaceWith(document.importNode(fresh, true));
          document.dispatchEvent(new CustomEvent("live:swapped", { detail: { id: element.id } }));
        }
      })
      .catch(function () { /* offline for a moment: the next change or poll tries again */ });
  }

  function watchRegions() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-groups][id]"), function (element) {
      var id = element.id;
      var refresh = function () { var el = document.getElementById(id); if (el) { swapRegion(el); } };
      watch(element.getAttribute("data-live-groups").split(/[\s,]+/), refresh, { poll: refresh, interval: 10000 });
    });
  }

  window.bgLive = { watch: watch, isConnected: function () { return connected; } };
  if (!window.fetch) { return; }
  function ready() { watchRegions(); start(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { window.setTimeout(ready, 0); }
})();
