// The live chouette table without WiFi (docs/chouette.md, "Offline at the table").
//
// Every game entered on this page goes into a queue kept in the phone's storage (localStorage, per user and
// table: a few small entries the page alone reads and writes), and is sent from there, in order, each with the
// idempotency key its form was given: a game sent twice (the answer was lost) is entered once. While a game
// waits, the form moves on to the next game with the seating this phone works out from the game entered (the
// core's rotation, docs/chouette.md "Rotation"); where the phone cannot be sure of it (Dave stakes, one team
// cube, the box keeping the box only on a net win, no winner given) the next game waits for the connection.
//
// The server's answer decides: 200 the game is in (removed from the queue); a refusal (409: another phone entered
// that number first; 400: the game as entered is not possible) is kept with its reason for the player to read
// and discard, and every game queued after it is held, not sent: it was entered at the seating the refused game
// would have left, which is not the table's. No connection, a busy server (503) or a lost sign-in: the queue
// waits and is tried again. After each round of sending, the page shows the server's table (live.js).
//
// The service worker (chouette.views.service_worker) keeps the page's assets and the last copy of the table
// page, so a reload offline still shows the table and this queue.
(function () {
  "use strict";
  var panel = document.getElementById("offline-queue");
  var live = document.getElementById("live");
  if (!panel || !live || !window.fetch || !window.localStorage || !window.FormData) return;

  var LIMIT = 50;              // games one phone keeps unsent, at most
  var SEND_TIMEOUT = 15000;    // a send that has not answered by then is treated as lost (it is retried by key)
  var RETRY = 10000;           // how often a waiting queue is tried while the phone thinks it is online
  var SOON = 1000;             // after a send that failed although the phone said it was online: again after 1 s,
  var soon = SOON;             // then 2, 4, 8 s (the network often answers a moment after the "online" event)
  var user = panel.getAttribute("data-user");
  var table = panel.getAttribute("data-session");
  var addPath = new URL(panel.getAttribute("data-add-url"), location.href).pathname;
  var QUEUE_KEY = "chouette-queue:" + user + ":" + table;
  var BASE_KEY = "chouette-base:" + user + ":" + table;
  var rules = {
    cubes: panel.getAttribute("data-cubes"),
    boxKeeps: panel.getAttribute("data-box-keeps"),
    dave: panel.getAttribute("data-dave") === "1"
  };
  var line = panel.querySelector(".offline-line");
  var list = panel.querySelector(".offline-items");
  var sending = false;
  var problem = "";            // "no-connection" or "sign-in" after the last attempt to send
  var notice = "";             // the server's word on the last game sent ("Game entered.")

  function t(name, values) {
    var text = panel.getAttribute("data-t-" + name) || "";
    Object.keys(values || {}).forEach(function (key) { text = text.split("{" + key + "}").join(values[key]); });
    return text;
  }

  function read(key, fallback) {
    try { return JSON.parse(localStorage.getItem(key)) || fallback; } catch (e) { return fallback; }
  }
  function queue() { return read(QUEUE_KEY, []); }
  function save(items) {
    if (items.length) localStorage.setItem(QUEUE_KEY, JSON.stringify(items));
    else localStorage.removeItem(QUEUE_KEY);
  }
  function waiting(items) { return items.filter(function (item) { return item.state === "waiting"; }); }

  // --- the service worker, and one account's pages never shown to the next -----------------------------------
  var forgetting = Promise.resolve();
  if (window.caches && localStorage.getItem("chouette-user") !== user) {
    forgetting = caches.delete("chouette-pages");
    localStorage.setItem("chouette-user", user);
  }
  if ("serviceWorker" in navigator) {
    var controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(panel.getAttribute("data-worker"), { scope: "/" }).catch(function () {});
    // The first visit came before the worker: keep this page's copy now (later visits pass through the worker).
    if (!controlled && window.caches) {
      navigator.serviceWorker.ready.then(function () { return forgetting; }).then(function () {
        return fetch(location.pathname, { credentials: "same-origin" });
      }).then(function (response) {
        if (response.status !== 200 || response.redirected) return null;
        return caches.open("chouette-pages").then(function (cache) {
          return cache.put(location.origin + location.pathname, response);
        });
      }).catch(function () {});
    }
  }

  // --- the table as the server last told this phone (the seating the first waiting game was entered at) -------
  function base() { return read(BASE_KEY, null); }
  // The seating the server rendered this form for (data-seating): known the moment the form is shown, so a
  // phone that goes offline right after another phone's game still works out the seating from it.
  function seatingOf(form) {
    try { return JSON.parse(form.getAttribute("data-seating") || "null"); } catch (e) { return null; }
  }
  function learn() {
    return fetch(live.getAttribute("data-state-url"), { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        if (!state) return;
        var names = {};
        state.order.forEach(function (seat) { names[String(seat.player)] = seat.name; });
        localStorage.setItem(BASE_KEY, JSON.stringify({
          games_played: state.games_played,
          order: state.order.map(function (seat) { return String(seat.player); }),
          names: names
        }));
      })
      .catch(function () {});
  }

  // --- the game form -------------------------------------------------------------------------------------------
  function gameForm() {
    var forms = live.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) {
      if (new URL(forms[i].action, location.href).pathname === addPath) return forms[i];
    }
    return null;
  }
  function field(form, name) { return form.querySelector('[name="' + name + '"]'); }
  function rows(form) { return Array.prototype.slice.call(form.querySelectorAll(".cube-row")); }
  function value(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return "";
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  // The seating the form on screen is for: [box, team…], or null when this phone cannot tell.
  function seatingOfForm(form, items) {
    if (items.length) return items[items.length - 1].next;
    var known = seatingOf(form);
    var team = rows(form).map(function (row) { return row.getAttribute("data-player"); });
    var number = parseInt((field(form, "expected_number") || {}).value, 10);
    // The game before went in while this one was being filled: the form is still the one this phone seated.
    if (reseated && reseated.form === form && reseated.number === number) return reseated.order;
    function fits(seating) {
      return seating && seating.games_played + 1 === number && seating.order.slice(1).join() === team.join();
    }
    if (!fits(known)) known = base();
    return fits(known) ? known.order : null;
  }

  // After the game: who sits where (chouette/core/rotation.py next_order, scoring.py for the decisive player).
  function predict(order, fields) {
    if (!order || rules.dave || rules.cubes !== "multi" || value(fields, "partner")) return null;
    // a deal takes members out of the game (a captain's deal hands the captaincy on): the server decides
    if (fields.some(function (field) { return /^deal_/.test(field[0]) && String(field[1]).trim() !== ""; })) return null;
    var box = order[0], captain = order[1];
    var team = order.slice(1);
    function last(pid) {
      var steps = value(fields, "cube_" + pid).split(/[\s,]+/).filter(Boolean);
      return steps.length ? steps[steps.length - 1] : "";
    }
    var decisive = captain;
    if (last(captain) === "box:drop") {  // the captain dropped: the (chosen or highest-ranked) taker plays on
      var stillIn = team.filter(function (pid) { return last(pid) !== "box:drop"; });
      decisive = stillIn.length ? (value(fields, "acting_captain") || stillIn[0]) : null;
    }
    var boxBeat;
    if (decisive === null) boxBeat = true;  // everyone dropped: the box stays
    else if (last(decisive) === "team:drop") boxBeat = false;
    else {
      var own = value(fields, "result_" + decisive);
      var winner = own ? own.split(":")[0] : value(fields, "winner");
      if (winner !== "box" && winner !== "team") return null;
      boxBeat = winner === "box";
    }
    if (boxBeat && rules.boxKeeps !== "beats_captain") return null;  // the box's net decides: the server knows
    var rest = order.slice(2);
    if (boxBeat) return [box].concat(rest, [captain]);
    if (decisive === captain) return [captain].concat(rest, [box]);
    rest = rest.filter(function (pid) { return pid !== decisive; });
    return [decisive].concat(rest, [captain, box]);
  }

  function summary(form) {
    var parts = [];
    form.querySelectorAll("input[type=radio]:checked").forEach(function (input) {
      var label = input.closest("label");
      if (label) parts.push(label.textContent.trim());
    });
    rows(form).forEach(function (row) {
      if (row.hidden) return;
      var steps = Array.prototype.map.call(row.querySelectorAll(".cube-steps li"), function (li) { return li.textContent; });
      if (steps.length) parts.push(row.getAttribute("data-name") + ": " + steps.join(", "));
    });
    return parts.join(" · ");
  }

  // A member's row (and their own-result line) handed to another player: the box of the game before joins the
  // team in the place of the new box.
  function rename(root, from, to, fromName, toName) {
    root.querySelectorAll("[name],[id],[for],[data-player],[data-name],[data-chip]").forEach(function (el) {
      ["name", "id", "for"].forEach(function (attr) {
        var v = el.getAttribute(attr);
        if (v && v.slice(-(from.length + 1)) === "_" + from) el.setAttribute(attr, v.slice(0, -from.length) + to);
      });
      if (el.getAttribute("data-player") === from) el.setAttribute("data-player", to);
      if (el.hasAttribute("data-name")) el.setAttribute("data-name", toName);
      if (el.hasAttribute("data-chip")) el.setAttribute("data-chip", el.getAttribute("data-chip").split(fromName).join(toName));
    });
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.nodeValue.indexOf(fromName) >= 0) node.nodeValue = node.nodeValue.split(fromName).join(toName);
    }
  }

  // The form made ready for game `number` at `order`; false when its layout is not one this can redo.
  function reseat(form, order, names, number) {
    var cubeRows = form.querySelector(".cube-rows");
    if (!cubeRows || field(form, "partner")) return false;
    var team = order.slice(1);
    var byPlayer = {};
    rows(form).forEach(function (row) { byPlayer[row.getAttribute("data-player")] = row; });
    var spare = Object.keys(byPlayer).filter(function (pid) { return team.indexOf(pid) < 0; });
    var missing = team.filter(function (pid) { return !byPlayer[pid]; });
    if (spare.length !== missing.length) return false;
    var results = form.querySelector(".own-results");
    spare.forEach(function (from, i) {
      var to = missing[i], row = byPlayer[from], fromName = row.getAttribute("data-name");
      rename(row, from, to, fromName, names[to] || to);
      row.setAttribute("data-name", names[to] || to);
      var own = results && field(results, "result_" + from);
      if (own && own.parentNode) rename(own.parentNode, from, to, fromName, names[to] || to);
      byPlayer[to] = row;
      delete byPlayer[from];
    });
    var badge = cubeRows.querySelector("legend .badge");
    team.forEach(function (pid, i) {
      cubeRows.appendChild(byPlayer[pid]);
      if (i === 0 && badge) byPlayer[pid].querySelector("legend .who").after(badge);
      var own = results && field(results, "result_" + pid);
      if (own && own.parentNode) results.appendChild(own.parentNode);
    });
    var acting = field(form, "acting_captain");
    if (acting) {
      Array.prototype.slice.call(acting.options, 1).forEach(function (option) { option.remove(); });
      team.forEach(function (pid) { acting.add(new Option(names[pid] || pid, pid)); });
    }
    form.reset();
    form.setAttribute("data-seated-offline", "1");  // chouette/live.js keeps it over an older server form
    field(form, "expected_number").value = String(number);
    field(form, "idempotency_key").value = newKey();
    var heading = form.querySelector("h2");
    if (heading) heading.textContent = heading.textContent.replace(/\d+/, String(number));
    document.dispatchEvent(new Event("chouette:form-reset"));
    return true;
  }

  // What the page shows of the queue: the form for the game after the waiting ones (or why there is none).
  var shownFor = null;
  var reseated = null;         // the form this phone last seated itself: {form, number, order}
  function showForm() {
    var form = gameForm();
    if (!form) return;
    var items = waiting(queue());
    var section = form.closest("section") || form.parentNode;
    var note = section.querySelector(".offline-seating");
    if (!note) {
      note = document.createElement("p");
      note.className = "offline-seating";
      form.parentNode.insertBefore(note, form);
    }
    var serverParts = section.querySelectorAll(".last-game, .rotation-now, .rotation-next");
    if (!items.length) {
      form.hidden = false;
      var ours = reseated && reseated.form === form;  // sent meanwhile, the server's form not yet swapped in
      note.hidden = !ours;
      if (ours) note.textContent = t("seating", { box: reseated.names[reseated.order[0]] || "", captain: reseated.names[reseated.order[1]] || "" });
      serverParts.forEach(function (el) { el.hidden = ours; });
      shownFor = null;
      return;
    }
    serverParts.forEach(function (el) { el.hidden = true; });
    var last = items[items.length - 1];
    var names = last.names || {};
    note.hidden = false;
    if (!last.next) {
      form.hidden = true;
      note.textContent = t("no-seating", { n: last.number });
      return;
    }
    var number = last.number + 1;
    var current = parseInt(field(form, "expected_number").value, 10);
    if (shownFor !== form || current !== number) {
      if (!reseat(form, last.next, names, number)) {
        form.hidden = true;
        note.textContent = t("no-seating", { n: last.number });
        return;
      }
      shownFor = form;
      reseated = { form: form, number: number, order: last.next, names: names };
    }
    form.hidden = false;
    note.textContent = t("seating", { box: names[last.next[0]] || "", captain: names[last.next[1]] || "" });
  }

  function render() {
    var items = queue();
    var count = waiting(items).length;
    var text = [];
    if (!navigator.onLine) text.push(t("offline"));
    else if (problem === "sign-in") text.push(t("sign-in"));
    else if (problem === "no-connection" && count) text.push(t("no-connection"));
    else if (sending && count) text.push(t("sending"));
    if (count) text.push(t(count === 1 ? "waiting-one" : "waiting-other", { n: count }) + ".");
    else if (notice && navigator.onLine) text.push(notice);
    line.textContent = text.join(" ");
    list.textContent = "";
    items.forEach(function (item, index) {
      var li = document.createElement("li");
      li.className = "offline-item " + item.state;
      li.setAttribute("data-number", String(item.number));
      var what = document.createElement("span");
      if (item.state === "refused") what.textContent = t("item-refused", { n: item.number, reason: item.reason });
      else if (item.state === "held") what.textContent = t("item-held", { n: item.number, m: item.after });
      else what.textContent = t("item-waiting", { n: item.number });
      li.appendChild(what);
      if (item.summary) {
        var detail = document.createElement("span");
        detail.className = "muted";
        detail.textContent = " — " + item.summary;
        li.appendChild(detail);
      }
      if (item.state !== "waiting") {
        var discard = document.createElement("button");
        discard.type = "button";
        discard.className = "link";
        discard.textContent = t("discard");
        discard.setAttribute("data-discard", String(index));
        li.appendChild(document.createTextNode(" "));
        li.appendChild(discard);
      }
      list.appendChild(li);
    });
    showForm();
  }

  // --- sending -------------------------------------------------------------------------------------------------
  function csrf(form) {
    var input = (form && field(form, "csrfmiddlewaretoken")) || document.querySelector('[name="csrfmiddlewaretoken"]');
    return input ? input.value : "";
  }

  function send(item) {
    var body = new FormData();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.append("csrfmiddlewaretoken", csrf(gameForm()));
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, SEND_TIMEOUT) : null;
    return fetch(panel.getAttribute("data-add-url"), {
      method: "POST", body: body, credentials: "same-origin",
      headers: { Accept: "application/json" }, signal: controller ? controller.signal : undefined
    }).then(function (response) {
      clearTimeout(timer);
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      if (!json) return { outcome: "sign-in" };  // the sign-in page (session gone) or the CSRF refusal page
      return response.json().then(function (data) {
        if (response.ok) return { outcome: "entered", data: data };
        if (response.status >= 500) return { outcome: "later" };
        return { outcome: "refused", reason: data.detail || String(response.status) };
      });
    }, function () { clearTimeout(timer); return { outcome: "later" }; });
  }

  function sync() {
    if (sending || !waiting(queue()).length) return Promise.resolve();
    sending = true;
    problem = "";
    render();
    var changed = false;
    function next() {
      var items = queue();
      var index = -1;
      for (var i = 0; i < items.length; i++) if (items[i].state === "waiting") { index = i; break; }
      if (index < 0) return null;
      var item = items[index];
      return send(item).then(function (answer) {
        items = queue();  // read again: a discard may have happened meanwhile
        var at = -1;
        items.forEach(function (each, i) { if (each.key === item.key) at = i; });
        if (answer.outcome === "later" || answer.outcome === "sign-in") {
          problem = answer.outcome === "later" ? "no-connection" : "sign-in";
          return null;
        }
        changed = true;
        if (at < 0) return next();
        if (answer.outcome === "entered") {
          items.splice(at, 1);
          notice = (answer.data && answer.data.message) || "";
        } else {
          items[at].state = "refused";
          items[at].reason = answer.reason;
          items.slice(at + 1).forEach(function (later) {
            if (later.state === "waiting") { later.state = "held"; later.after = item.number; }
          });
        }
        save(items);
        render();
        return next();
      });
    }
    return Promise.resolve(next()).then(function () {
      sending = false;
      if (problem === "no-connection" && navigator.onLine && soon < RETRY) {
        setTimeout(sync, soon);
        soon *= 2;
      } else if (!problem) {
        soon = SOON;
      }
      if (changed) {
        return learn().then(function () {
          render();
          document.dispatchEvent(new Event("chouette:refresh"));
        });
      }
      render();
    }, function () { sending = false; render(); });
  }

  // --- entering a game -----------------------------------------------------------------------------------------
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var items = queue();
    if (form !== gameForm()) {
      // Take-backs, seats, the end: not offline, and not before the waiting games went in (they come first).
      if (live.contains(form) && (!navigator.onLine || waiting(items).length)) {
        event.preventDefault();
        line.textContent = t("needs-connection");
      }
      return;
    }
    if (event.defaultPrevented) return;
    if (items.length >= LIMIT) {
      event.preventDefault();
      line.textContent = t("full", { n: items.length });
      return;
    }
    notice = "";
    var fields = [];
    new FormData(form).forEach(function (v, name) {
      if (name !== "csrfmiddlewaretoken" && typeof v === "string") fields.push([name, v]);
    });
    var order = seatingOfForm(form, waiting(items));
    var known = seatingOf(form) || base();
    var names = (items.length && items[items.length - 1].names) || (known && known.names) || {};
    if (!value(fields, "idempotency_key")) fields.push(["idempotency_key", newKey()]);
    items.push({
      key: value(fields, "idempotency_key"),
      number: parseInt(value(fields, "expected_number"), 10),
      fields: fields,
      summary: summary(form),
      state: "waiting",
      order: order,
      next: predict(order, fields),
      names: names
    });
    try {
      save(items);
    } catch (e) {
      return;  // the phone's storage refused it (full, private mode): the form goes the ordinary way
    }
    event.preventDefault();
    render();
    sync();
  });

  list.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-discard]");
    if (!button) return;
    var items = queue();
    var item = items[parseInt(button.getAttribute("data-discard"), 10)];
    if (!item || item.state === "waiting") return;
    if (!window.confirm(t("discard-question", { n: item.number }))) return;
    save(items.filter(function (each) { return each !== item; }));
    render();
  });

  // The live page swapped in a fresh form (another phone, or our own sync): keep showing the next queued game.
  new MutationObserver(function () {
    if (gameForm() !== shownFor) { shownFor = null; render(); }
  }).observe(live, { childList: true });

  // Another phone's game went in (the live table swapped): the seating this phone would enter offline at moved on.
  document.addEventListener("chouette:swapped", function () {
    if (navigator.onLine && !waiting(queue()).length) learn();
  });
  window.addEventListener("online", function () { problem = ""; render(); sync(); });
  window.addEventListener("offline", render);
  setInterval(function () { if (navigator.onLine && waiting(queue()).length) sync(); }, RETRY);

  var startup = navigator.onLine ? learn() : Promise.resolve();
  startup.then(function () { render(); sync(); });
  render();
})();
