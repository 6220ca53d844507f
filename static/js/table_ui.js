/* Baloot Online, the card table's look: the finished trick held in the middle
   and swept toward its winner, and the countdown rings at the seats. It only
   reads what the server rendered; whatever brought the table in (a page load,
   an answer, a push), it catches up on the next change of the page. */
(function () {
  "use strict";

  var HOLD_MS = 1000;
  var SWEEP_MS = 1000;
  var URGENT_SECONDS = 5;

  var reduceMotion = window.matchMedia
    ? window.matchMedia("(prefers-reduced-motion: reduce)")
    : { matches: false };

  // --- The finished trick: held, then swept toward the winner ---------------

  // Tricks by their data-trick key: being shown, and already swept away. A
  // re-render of the same picture never plays the sweep twice.
  var started = new Set();
  var gone = new Set();

  function holdCopy(trick) {
    var box = trick.getBoundingClientRect();
    var copy = trick.cloneNode(true);
    copy.classList.add("trick-held");
    copy.setAttribute("aria-hidden", "true");
    copy.style.left = box.left + window.scrollX + "px";
    copy.style.top = box.top + window.scrollY + "px";
    copy.style.width = box.width + "px";
    copy.style.height = box.height + "px";
    document.body.appendChild(copy);
    return copy;
  }

  function sweepToward(copy, winner) {
    var seat = document.querySelector("#table .seat-" + winner);
    if (!seat || reduceMotion.matches) {
      copy.classList.add("trick-fading");
      return;
    }
    var from = copy.getBoundingClientRect();
    var to = seat.getBoundingClientRect();
    var dx = to.left + to.width / 2 - (from.left + from.width / 2);
    var dy = to.top + to.height / 2 - (from.top + from.height / 2);
    copy.style.transform = "translate(" + dx + "px, " + dy + "px) scale(0.35)";
    copy.classList.add("trick-sweeping");
  }

  // Only an element without the class gets it: adding a class it already has
  // still counts as a change to the page's observer below, which would call
  // back here again and again without ever letting the page draw.
  function markGone(trick) {
    if (!trick.classList.contains("trick-gone")) {
      trick.classList.add("trick-gone");
    }
  }

  function hideShown(key) {
    var shown = document.querySelectorAll('#table .trick-complete[data-trick="' + key + '"]');
    for (var i = 0; i < shown.length; i++) {
      markGone(shown[i]);
    }
  }

  function hold(trick) {
    var key = trick.getAttribute("data-trick");
    if (!key) {
      return;
    }
    if (gone.has(key)) {
      // Swept already: a re-rendered picture keeps it out of the middle.
      markGone(trick);
      return;
    }
    if (started.has(key)) {
      return;
    }
    started.add(key);
    var copy = holdCopy(trick);
    held.add(copy);
    var winner = trick.getAttribute("data-winner");
    window.setTimeout(function () {
      gone.add(key);
      hideShown(key);
      if (!copy.isConnected) {
        return;
      }
      sweepToward(copy, winner);
      window.setTimeout(function () {
        held.delete(copy);
        copy.remove();
      }, SWEEP_MS + 50);
    }, HOLD_MS);
  }

  // A held copy is placed where the trick was drawn: once the page is laid
  // out again (a turned phone, a resized window) that place is wrong and the
  // copy could hang past the page's edge, so it goes at once.
  var held = new Set();

  function dropHeld() {
    held.forEach(function (copy) {
      copy.remove();
    });
    held.clear();
  }

  function lookForTricks() {
    var done = document.querySelectorAll("#table .trick-complete[data-trick]");
    for (var i = 0; i < done.length; i++) {
      hold(done[i]);
    }
  }

  // --- Countdown rings at the seat to act --------------------------------------

  // Each ring carries the milliseconds left when it was rendered and the whole
  // turn's length, so a wrong clock on this device does not matter.
  var rings = new WeakMap();

  function tickRings() {
    var all = document.querySelectorAll("[data-ring-ms]");
    var now = Date.now();
    for (var i = 0; i < all.length; i++) {
      var ring = all[i];
      var ms = ring.getAttribute("data-ring-ms");
      var known = rings.get(ring);
      if (!known || known.ms !== ms) {
        known = { ms: ms, end: now + parseInt(ms, 10) };
        rings.set(ring, known);
      }
      var total = parseInt(ring.getAttribute("data-ring-total"), 10) || 1;
      var left = Math.max(0, known.end - now);
      var seconds = Math.ceil(left / 1000);
      ring.style.setProperty("--ring-left", String(Math.min(1, left / total)));
      ring.classList.toggle("urgent", seconds <= URGENT_SECONDS);
      var label = ring.querySelector(".ring-seconds");
      if (label && label.textContent !== String(seconds)) {
        label.textContent = String(seconds);
      }
    }
  }

  // --- Watching the page ---------------------------------------------------------

  function changed() {
    lookForTricks();
    tickRings();
  }

  // Panels that start open where there is room for them beside the table.
  function openWhereWide() {
    if (!window.matchMedia || !window.matchMedia("(min-width: 960px)").matches) {
      return;
    }
    var panels = document.querySelectorAll("details[data-open-wide]");
    for (var i = 0; i < panels.length; i++) {
      panels[i].open = true;
    }
  }

  // On a narrow screen the side panels and the chat share one bottom sheet:
  // opening one shuts the others. (A "toggle" event does not bubble, so it
  // is caught on its way down.)
  function oneSheetAtATime(event) {
    var opened = event.target;
    if (!opened || opened.tagName !== "DETAILS" || !opened.open ||
        !opened.matches(".table-side > details, .chat-sheet") ||
        !window.matchMedia || window.matchMedia("(min-width: 960px)").matches) {
      return;
    }
    var sheets = document.querySelectorAll(".table-side > details[open], .chat-sheet[open]");
    for (var i = 0; i < sheets.length; i++) {
      if (sheets[i] !== opened) {
        sheets[i].open = false;
      }
    }
  }

  function start() {
    openWhereWide();
    document.addEventListener("toggle", oneSheetAtATime, true);
    window.addEventListener("resize", dropHeld);
    changed();
    var table = document.querySelector(".table-page") || document.body;
    // Attributes too: a morphed picture changes classes in place.
    new MutationObserver(changed).observe(table, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ["class", "data-trick"],
    });
    window.setInterval(tickRings, 200);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
