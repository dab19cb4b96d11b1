// Live pages (base/live.py on the server). One websocket per page at /ws/live/?groups=...; after a commit the
// server sends {"type": "changed", "group": "flight-3"} and the page refetches its own fragment over HTTP, so
// what is shown passes the same permission checks as a reload. With JavaScript off a reload shows the truth.
// A public region, the same for every viewer (the public bracket), names its variant and version
// (data-live-fragment="en.0" data-live-version="17"); the socket asks for it (&fragments=flight-3:en.0:17) and
// the server sends the region itself, rendered once per version for all watchers:
// {"type": "fragment", "group": "flight-3", "version": 18, "regions": {"live-bracket": "<div ...>"}}. It is
// swapped in when newer than the version shown; a region of the group the message does not carry refetches.
// A page that shows the version before is sent only the parts of the region that changed (a bracket's slots):
// {"type": "fragment", "group": "flight-3", "version": 18, "base": 17, "patches": {"live-bracket": {"slot-5": ...}}}.
// A reconnect names the versions shown now: the server sends what is newer, then "joined" names the regions it
// holds current ({"fragments": {"flight-3": ["live-bracket"]}}), and only what no fragment covers refetches.
// A fragment may carry "data" instead of regions, for a page script that draws it (calcutta/board.js): it is
// handed on as a "live:fragment" event, and the script's watcher covers its group.
//
// Two ways to use it:
//   declarative: an element with an id and data-live-groups="flight-3 event-2" is swapped for the element with the
//     same id in a fresh copy of the page (or of data-live-url) whenever one of its groups changes; the regions of
//     one URL share one GET, a region with a field being typed in waits until the field is left, and one marked
//     data-live-poll="off" (the header's bell, on every page) is not polled while the socket is down;
//   from a page script: bgLive.watch(["calcutta-1"], refresh, {poll: check, interval: 3000}) calls refresh() on a
//     change; only while the socket cannot connect does it call poll() every interval instead (the old polling).
//
// Keyboard and screen-reader users: a swap keeps the focus where it was (the element of the same id in the fresh
// copy, else the same control: same tag, form action, name, value and text, or link target), without scrolling,
// and a region whose text changed says so on the page's one role=status line (#live-status in base.html; a
// region marked data-live-announce="off", the header's bell, is swapped quietly). Page scripts that swap or
// redraw content themselves use the same two: bgLive.swap(old, fresh) and bgLive.announce().
(function () {
  "use strict";
  var watchers = [];
  var socket = null;
  var connected = false;
  var started = false;
  // Reconnecting: "full jitter" (a random wait up to min(CAP, BASE * 2^failures)), so a page is live again within
  // about CAP of the server coming back (doubling up to 30 s took ~19 s after an 8 s Redis outage), and the pages
  // of a restarted node do not all come back in the same instant.
  var RETRY_BASE = 500;
  var RETRY_CAP = 3000;
  var failures = 0;
  var missed = false;  // the socket was down: changes may have gone by unheard
  var pollTimer = null;
  var DEBOUNCE = 100;
  // Refetches are spread: a change heard by many pages at once (a reconnect after a restart above all) must not
  // bring them all back in the same 100 ms.
  var JITTER = 400;
  var JITTER_MISSED = 1000;  // on top of the reconnect's own spread (up to 3 s)

  function controlKey(element) {
    var form = element.form || (element.closest && element.closest("form"));
    return {
      id: element.id || "", tag: element.tagName, href: element.getAttribute("href") || "",
      name: element.getAttribute("name") || "", value: element.getAttribute("value") || "",
      text: (element.textContent || "").replace(/\s+/g, " ").trim(),
      action: form ? (form.getAttribute("action") || "") : null
    };
  }

  function sameControl(element, key) {
    if (key.href) { return element.getAttribute("href") === key.href; }
    var form = element.form || (element.closest && element.closest("form"));
    if ((form ? (form.getAttribute("action") || "") : null) !== key.action) { return false; }
    return (element.getAttribute("name") || "") === key.name && (element.getAttribute("value") || "") === key.value &&
      (element.textContent || "").replace(/\s+/g, " ").trim() === key.text;
  }

  function equivalent(root, key) {
    if (key.id) {
      var same = root.id === key.id ? root : root.querySelector("#" + window.CSS.escape(key.id));
      if (same) { return same; }
    }
    var candidates = root.querySelectorAll(key.tag.toLowerCase());
    for (var i = 0; i < candidates.length; i++) {
      if (sameControl(candidates[i], key)) { return candidates[i]; }
    }
    return null;
  }

  function swap(current, fresh) {
    // Replace `current` by `fresh`; focus inside it goes to the same control in the fresh copy, or, when that
    // is gone (the result just confirmed elsewhere), to the region itself: never to <body>.
    var active = document.activeElement;
    var key = active && active !== document.body && current.contains(active) ? controlKey(active) : null;
    current.replaceWith(fresh);
    if (!key) { return; }
    var target = equivalent(fresh, key);
    if (!target) {
      target = fresh;
      if (!fresh.hasAttribute("tabindex")) { fresh.setAttribute("tabindex", "-1"); }
    }
    target.focus({ preventScroll: true });
  }

  var announceTimer = null;
  function announce(text) {
    // Emptied first, then filled a moment later: the same words twice in a row are read twice.
    var line = document.getElementById("live-status");
    if (!line) { return; }
    line.textContent = "";
    window.clearTimeout(announceTimer);
    announceTimer = window.setTimeout(function () {
      line.textContent = text || line.getAttribute("data-updated") || "";
    }, 150);
  }

  function textOf(element) { return (element.textContent || "").replace(/\s+/g, " ").trim(); }

  function swapRegion(current, fresh) {
    var changed = textOf(current) !== textOf(fresh);
    swap(current, fresh);
    if (changed && current.getAttribute("data-live-announce") !== "off") { announce(); }
  }

  function groupsOf(list) {
    return (list || []).filter(function (name) { return /^[a-z]+-[0-9]+$/.test(name); });
  }

  function later(watcher, group, spread) {
    // Several groups changing in one commit (flight, event, user) refetch once; onChange hears which changed
    // (nothing known, e.g. after the socket was down: null, everything may have).
    if (group && watcher.changed !== null) { (watcher.changed = watcher.changed || {})[group] = true; }
    if (!group) { watcher.changed = null; }
    if (watcher.timer) { return; }
    watcher.timer = window.setTimeout(function () {
      var changed = watcher.changed;
      watcher.timer = null;
      watcher.changed = undefined;
      watcher.onChange(changed || null);
    }, DEBOUNCE + Math.random() * (spread === undefined ? JITTER : spread));
  }

  function fragmentsAsked() {
    // group:variant:version of every public region on the page, for the socket's URL (built at each connect, so
    // a reconnect names the versions shown now).
    var asked = [];
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-fragment][id]"), function (el) {
      var group = (el.getAttribute("data-live-groups") || el.getAttribute("data-live-group") || "").split(/[\s,]+/)[0];
      var version = el.getAttribute("data-live-version") || "0";
      if (/^[a-z]+-[0-9]+$/.test(group)) { asked.push(group + ":" + el.getAttribute("data-live-fragment") + ":" + version); }
    });
    return asked;
  }

  function shownVersion(element) {
    var version = parseInt(element.getAttribute("data-live-version") || "", 10);
    return isNaN(version) ? -1 : version;
  }

  function applyFragment(message) {
    // Swap each region the message carries, by id, when it is newer than the one shown (built from the HTML by a
    // template element: nothing in it runs). Returns the ids it covered; a region being typed in is swapped once
    // the field is left (by then a newer fragment may have been shown: the version check skips this one).
    var covered = {};
    var regions = message.regions || {};
    Object.keys(regions).forEach(function (id) {
      covered[id] = true;
      var current = document.getElementById(id);
      if (!current || shownVersion(current) >= message.version) { return; }
      if (typingIn(current)) {
        current.addEventListener("focusout", function () { window.setTimeout(function () { applyFragment(message); }, 0); }, { once: true });
        return;
      }
      var holder = document.createElement("template");
      holder.innerHTML = regions[id];
      var fresh = holder.content.firstElementChild;
      if (!fresh || fresh.id !== id) { covered[id] = false; return; }
      swapRegion(current, document.importNode(fresh, true));
      document.dispatchEvent(new CustomEvent("live:swapped", { detail: { id: id } }));
    });
    return covered;
  }

  function applyPatches(message) {
    // Only the parts of a region that changed ({"base": 17, "version": 18, "patches": {"live-bracket":
    // {"slot-5": "<div id=\"slot-5\" ...>"}}}), sent to a page that shows the version they apply to: each part is
    // swapped by id, then the region takes the new version. A region at another version, or a part not found,
    // is left as it is and not covered: its watcher refetches it.
    var covered = {};
    var patches = message.patches || {};
    Object.keys(patches).forEach(function (id) {
      covered[id] = true;
      var current = document.getElementById(id);
      if (!current || shownVersion(current) >= message.version) { return; }
      if (shownVersion(current) !== message.base) { covered[id] = false; return; }
      if (typingIn(current)) {
        current.addEventListener("focusout", function () { window.setTimeout(function () { applyPatches(message); }, 0); }, { once: true });
        return;
      }
      var parts = patches[id];
      var fresh = {};
      var whole = Object.keys(parts).every(function (part) {
        var holder = document.createElement("template");
        holder.innerHTML = parts[part];
        fresh[part] = holder.content.firstElementChild;
        var old = document.getElementById(part);
        return fresh[part] && fresh[part].id === part && old && current.contains(old);
      });
      if (!whole) { covered[id] = false; return; }
      var changed = false;
      Object.keys(fresh).forEach(function (part) {
        var old = document.getElementById(part);
        changed = changed || textOf(old) !== textOf(fresh[part]);
        swap(old, document.importNode(fresh[part], true));  // the focus stays on its control, as in swapRegion
      });
      current.setAttribute("data-live-version", String(message.version));
      if (changed && current.getAttribute("data-live-announce") !== "off") { announce(); }
      document.dispatchEvent(new CustomEvent("live:swapped", { detail: { id: id } }));
    });
    return covered;
  }

  function refetchMissed(current) {
    // Back after the socket was down: the server has just sent the fragments newer than the page's and names, per
    // group, the regions now current. A watcher all of whose groups are covered so is up to date; every other one
    // refetches once, spread (a restarted node's pages come back together).
    var covered = {};
    Object.keys(current).forEach(function (group) { current[group].forEach(function (id) { covered[id] = true; }); });
    watchers.forEach(function (w) {
      var upToDate = w.groups.every(function (g) { return current[g] && w.covers && w.covers(g, covered); });
      if (!upToDate) { later(w, null, JITTER_MISSED); }
    });
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
    var asked = fragmentsAsked();
    if (asked.length) { url += "&fragments=" + encodeURIComponent(asked.join(",")); }
    try { socket = new window.WebSocket(url); } catch (e) { startPolling(); return; }
    socket.onopen = function () {
      connected = true;
      failures = 0;
      if (pollTimer) { window.clearTimeout(pollTimer); pollTimer = null; }
      document.documentElement.setAttribute("data-live", "on");
      // what went by while the socket was down is refetched once "joined" says what the fragments covered
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "joined") {
        if (missed) { missed = false; refetchMissed(message.fragments || {}); }
        return;
      }
      if (message.type === "fragment") {
        var covered = message.patches ? applyPatches(message) : applyFragment(message);
        // data for a page script that draws it itself (the Calcutta board): its watcher says it covers the group
        if (message.data) { document.dispatchEvent(new CustomEvent("live:fragment", { detail: message })); }
        // the group's other watchers (a page script's, a region without a fragment) still refetch
        watchers.forEach(function (w) {
          if (w.groups.indexOf(message.group) >= 0 && !(w.covers && w.covers(message.group, covered))) {
            later(w, message.group);
          }
        });
        return;
      }
      if (message.type !== "changed") { return; }
      watchers.forEach(function (w) { if (w.groups.indexOf(message.group) >= 0) { later(w, message.group); } });
    };
    socket.onclose = function () {
      connected = false;
      socket = null;
      document.documentElement.setAttribute("data-live", "off");
      missed = true;
      startPolling();
      var ceiling = Math.min(RETRY_CAP, RETRY_BASE * Math.pow(2, failures));
      failures = Math.min(failures + 1, 10);
      window.setTimeout(connect, 100 + Math.random() * ceiling);
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
      interval: options.interval || 5000, timer: null, covers: options.covers || null
    };
    if (!watcher.groups.length) { return watcher; }
    watchers.push(watcher);
    if (started && socket) { socket.close(); }  // reconnects with the new group list
    return watcher;
  }

  function typingIn(element) {
    // Someone typing in a field of this region (a dispute's reason, a score) would lose it to the swap.
    var active = document.activeElement;
    return !!active && element.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) &&
      !/^(submit|button|hidden)$/.test(active.type || "");
  }

  function swapRegions(url, ids, retry) {
    // One GET for every region of the page at this URL (the header's bell and the page's own region both
    // watch the user's group: one fetch swaps both).
    return window.fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) { return; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        ids.forEach(function (id) {
          var current = document.getElementById(id);
          var fresh = doc.getElementById(id);
          if (!current || !fresh) { return; }
          if (typingIn(current)) {  // swapped once the field is left
            current.addEventListener("focusout", function () { window.setTimeout(retry, 0); }, { once: true });
            return;
          }
          swapRegion(current, document.importNode(fresh, true));
          document.dispatchEvent(new CustomEvent("live:swapped", { detail: { id: id } }));
        });
      })
      .catch(function () { /* offline for a moment: the next change or poll tries again */ });
  }

  function watchRegions() {
    // The regions are watched by the URL they are refetched from: a change of any of their groups costs one GET.
    var byUrl = {};
    var urls = [];
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-groups][id]"), function (element) {
      var url = element.getAttribute("data-live-url") || "";
      var groups = element.getAttribute("data-live-groups").split(/[\s,]+/);
      if (!byUrl[url]) { byUrl[url] = { ids: [], groups: [], poll: false, of: {} }; urls.push(url); }
      byUrl[url].ids.push(element.id);
      byUrl[url].of[element.id] = groups;
      byUrl[url].poll = byUrl[url].poll || element.getAttribute("data-live-poll") !== "off";
      byUrl[url].groups = byUrl[url].groups.concat(groups);
    });
    urls.forEach(function (url) {
      var regions = byUrl[url];
      // Only the regions of the groups that changed are swapped (an open "Dispute" form elsewhere stays open);
      // all of them when that is not known (a poll, a reconnect).
      var refresh = function (changed) {
        var ids = regions.ids.filter(function (id) {
          return !changed || regions.of[id].some(function (g) { return changed[g]; });
        });
        swapRegions(url || window.location.href, ids, function () { refresh(changed); });
      };
      var poll = function () { refresh(null); };
      // a fragment message covers this URL's regions of its group when it carried every one of them
      var covers = function (group, covered) {
        return regions.ids.every(function (id) { return regions.of[id].indexOf(group) < 0 || covered[id] === true; });
      };
      watch(regions.groups, refresh, { poll: regions.poll ? poll : null, interval: 10000, covers: covers });
    });
  }

  window.bgLive = { watch: watch, swap: swap, announce: announce, isConnected: function () { return connected; } };
  if (!window.fetch) { return; }
  function ready() { watchRegions(); start(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", ready); } else { window.setTimeout(ready, 0); }
})();
