/* Baloot Online, around the games: the quick-match clock and bots offer, the
   rematch offer's countdown, the chat log kept at its latest line, and going
   to a table the server says is ready ([data-go]). The server renders and
   pushes everything; this file only counts, scrolls and follows. */
(function () {
  "use strict";

  // Times are counted from when each element was first seen, with the
  // milliseconds the server rendered into it, so this device's clock does not matter.
  var seen = new WeakMap();
  var going = false;

  function since(element) {
    if (!seen.has(element)) {
      seen.set(element, Date.now());
    }
    return Date.now() - seen.get(element);
  }

  function minutes(ms) {
    var seconds = Math.max(0, Math.floor(ms / 1000));
    var rest = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tick() {
    var waited = document.querySelector(".queue-clock[data-waited-ms]");
    if (waited) {
      var text = minutes(parseInt(waited.getAttribute("data-waited-ms"), 10) + since(waited));
      if (waited.textContent !== text) {
        waited.textContent = text;
      }
    }
    var offer = document.querySelector(".queue-bots[data-bots-after-ms]");
    if (offer && offer.hidden &&
        since(offer) >= parseInt(offer.getAttribute("data-bots-after-ms"), 10)) {
      offer.hidden = false;
    }
    var lapse = document.querySelector(".rematch-clock[data-lapse-ms]");
    if (lapse && !lapse.hidden) {
      var left = parseInt(lapse.getAttribute("data-lapse-ms"), 10) - since(lapse);
      if (left <= 0) {
        var panel = lapse.closest(".rematch-panel");
        lapse.hidden = true;
        var note = panel && panel.querySelector(".rematch-lapsed");
        var accept = panel && panel.querySelector(".rematch-accept");
        if (note) { note.hidden = false; }
        if (accept) { accept.hidden = true; }
      }
    }
    var go = document.querySelector("[data-go]");
    if (go && !going) {
      going = true;
      window.location.assign(go.getAttribute("data-go"));
    }
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    toLatest();
  });

  // --- The chat ----------------------------------------------------------------

  function toLatest() {
    var log = document.getElementById("chat-log");
    if (log) {
      log.scrollTop = log.scrollHeight;
    }
  }

  var typing = false;

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    typing = !!(target && target.id === "chat-form" &&
      document.activeElement && document.activeElement.id === "chat-text");
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (typing && target && (target.id === "chat-form" || !document.body.contains(target))) {
      var input = document.getElementById("chat-text");
      if (input) { input.focus(); }
    }
    toLatest();
  });

  document.addEventListener("htmx:wsAfterMessage", toLatest);

  // --- The rematch panel, once the match is over ------------------------------

  // The table's pushes know nothing of rematches: when one shows the match
  // is over, ask for the panel once (the server pushes its changes after that).
  var asked = false;

  function askForRematch() {
    var panel = document.getElementById("rematch");
    if (asked || !panel || panel.querySelector(".rematch-panel") ||
        !document.querySelector("#table .match-over") || !window.htmx) {
      return;
    }
    asked = true;
    window.htmx.trigger(panel, "rematch-check");
  }

  document.addEventListener("htmx:wsAfterMessage", askForRematch);
  document.addEventListener("htmx:afterSettle", askForRematch);

  // --- The quick-match page's socket -------------------------------------------

  // Refused with 4429 (this person holds too many quick-match pages, or the
  // server too many sockets): try again later, each wait longer, as the
  // table page does (static/js/table.js). A socket that delivers the status
  // ends the refusals.
  var queueRefusals = 0;

  function queuePage(event) {
    return event.target && event.target.closest ? event.target.closest(".quick-match") : null;
  }

  document.addEventListener("htmx:wsClose", function (event) {
    var page = queuePage(event);
    var code = event.detail.event ? event.detail.event.code : 0;
    if (!page || code !== 4429) {
      return;
    }
    var longest = Math.min(60000, 2000 * Math.pow(2, queueRefusals));
    queueRefusals += 1;
    var note = page.querySelector("[data-queue-busy]");
    if (note) {
      note.hidden = false;
    }
    var wrapper = event.detail.socketWrapper;
    setTimeout(function () {
      wrapper.reconnect();
    }, longest / 2 + Math.random() * longest / 2);
  });

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var page = queuePage(event);
    if (page && queueRefusals > 0) {
      queueRefusals = 0;
      var note = page.querySelector("[data-queue-busy]");
      if (note) {
        note.hidden = true;
      }
    }
  });
})();
