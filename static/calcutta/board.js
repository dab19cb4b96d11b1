/* The live Calcutta board: draws the board's data the server pushes with each step (a fragment, js/live.js; its JSON
   refetched where none comes), and redraws the lot that is up, the bids and the lots table.
   Used on phones, the projector view and the auctioneer's screen. No framework; text only (no HTML from data). */
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board || !window.fetch || !window.bgLive) { return; }
  var url = board.getAttribute("data-url");
  var noBid = board.getAttribute("data-no-bid") || "";
  var interval = parseInt(board.getAttribute("data-interval") || "1500", 10);

  function byId(id) { return document.getElementById(id); }
  function setText(id, text) { var node = byId(id); if (node) { node.textContent = text == null ? "" : String(text); } }

  function cell(row, text, className) {
    var td = document.createElement("td");
    td.textContent = text == null ? "" : String(text);
    if (className) { td.className = className; }
    row.appendChild(td);
  }

  function render(data) {
    // a new step is said on the page's status line (one short line, not the whole board read out again)
    var shown = parseInt(board.getAttribute("data-version") || "-1", 10);
    if (data.version !== shown && window.bgLive.announce) { window.bgLive.announce(); }
    setText("board-status", data.status_label);
    setText("board-total", data.total_display);
    setText("board-sold", data.sold);
    setText("board-count", data.lots_count);
    var current = data.current;
    var box = byId("current");
    var none = byId("no-lot");
    var sale = current ? null : data.last_sale;
    var saleBox = byId("last-sale");
    if (box) { box.hidden = !current; }
    if (none) { none.hidden = !!current || !!sale; }
    if (saleBox) {
      saleBox.hidden = !sale;
      if (sale) {
        setText("last-sale-label", sale.label);
        setText("last-sale-text", (board.getAttribute("data-sold") || "")
          .replace("%buyer%", sale.buyer || "").replace("%price%", sale.price_display || ""));
      }
    }
    var myBid = byId("my-bid");
    if (myBid) { myBid.hidden = !current || data.status !== "open"; }
    if (current) {
      setText("current-label", current.label);
      setText("current-phase", current.phase_label);
      setText("current-entrants", current.entrants.join(", "));
      setText("current-high", current.high_bid_display || noBid);
      setText("current-bidder", current.high_bidder || "");
      setText("current-next", current.minimum_next_bid_display);
      if (box) { box.className = "current phase-" + current.phase; }
      var bids = byId("current-bids");
      if (bids) {
        bids.textContent = "";
        current.bids.forEach(function (bid) {
          var li = document.createElement("li");
          li.textContent = bid.amount_display + " – " + bid.bidder;
          bids.appendChild(li);
        });
      }
      var lot = byId("my-bid-lot");
      if (lot && lot.value !== String(current.number)) {
        lot.value = String(current.number);
        var amount = byId("my-bid-amount");
        if (amount && document.activeElement !== amount) { amount.value = current.minimum_next_bid_display; }
      }
      var bidLot = byId("id_lot");
      if (bidLot) { bidLot.value = String(current.number); }
      var bidAmount = byId("id_amount");
      if (bidAmount && document.activeElement !== bidAmount && bidAmount.getAttribute("data-shown") !== current.minimum_next_bid_display) {
        bidAmount.value = current.minimum_next_bid_display;
        bidAmount.setAttribute("data-shown", current.minimum_next_bid_display);
      }
      // The auctioneer's buttons follow bids that arrive from phones: going once needs a bid, pass needs none.
      if (current.phase === "open") {
        var once = document.querySelector("button[value=going_once]");
        var pass = document.querySelector("button[value=pass_lot]");
        if (once) { once.disabled = current.high_bid === null; }
        if (pass) { pass.disabled = current.high_bid !== null; }
      }
    }
    var body = byId("lots-body");
    if (body) {
      body.textContent = "";
      data.lots.forEach(function (lot) {
        var row = document.createElement("tr");
        row.className = "phase-" + lot.phase;
        cell(row, lot.label);
        cell(row, lot.entrants.join(", "));
        cell(row, lot.phase_label);
        cell(row, lot.price_display, "num");
        cell(row, lot.buyer);
        cell(row, lot.finish, "num");
        body.appendChild(row);
      });
    }
    board.setAttribute("data-version", String(data.version));
    board.setAttribute("data-live-version", String(data.version));
  }

  function refresh() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data) { render(data); }
      })
      .catch(function () { /* offline for a moment: the next change or poll tries again */ });
  }
  // The board's data arrives with each step (a fragment: built once by the server for every open board); a page
  // that cannot be sent it (no fragment) refetches on "changed", and polls every `interval` only while the live
  // socket cannot connect.
  var group = board.getAttribute("data-live-group");
  document.addEventListener("live:fragment", function (event) {
    var message = event.detail || {};
    var shown = parseInt(board.getAttribute("data-live-version") || "-1", 10);
    if (message.group === group && message.data && message.version >= shown) { render(message.data); }  // same step: other changes
  });
  window.bgLive.watch([group], refresh, {
    poll: refresh, interval: interval, covers: function () { return true; }  // every fragment of its group has the data
  });
})();
