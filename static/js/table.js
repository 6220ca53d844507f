/* Baloot Online, the live table: keyboard play, the turn countdown, and keeping
   the picture current. The server renders everything; this file only helps. */
(function () {
  "use strict";

  var SEQ = /data-seq="(\d+)"/;
  var socket = null;

  function region() {
    return document.getElementById("table");
  }

  function shownSeq() {
    var table = region();
    return table ? parseInt(table.getAttribute("data-seq") || "0", 10) : 0;
  }

  function seqOf(html) {
    var match = SEQ.exec(html || "");
    return match ? parseInt(match[1], 10) : null;
  }

  // An action's answer and a push can cross on the way: never let an older
  // table replace a newer one.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var seq = seqOf(event.detail.serverResponse);
    if (seq !== null && seq < shownSeq()) {
      event.detail.shouldSwap = false;
      return;
    }
    remember();
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var seq = seqOf(event.detail.message);
    if (seq !== null && seq < shownSeq()) {
      event.preventDefault();
      return;
    }
    remember();
  });

  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("htmx:wsAfterMessage", restore);

  // --- Keeping keyboard focus across swaps ---------------------------------

  var focusKey = null;
  // Focus on the region itself (after one's own move) stays on the new region.
  var REGION = "#table";

  function keyOf(element) {
    return element.getAttribute("data-card") || element.value || element.textContent.trim();
  }

  function remember() {
    var table = region();
    var active = document.activeElement;
    if (!table || !active || !table.contains(active)) {
      focusKey = null;
    } else {
      focusKey = active === table ? REGION : keyOf(active);
    }
  }

  function restore() {
    var table = region();
    if (focusKey === null || !table) {
      return;
    }
    var wanted = focusKey;
    focusKey = null;
    if (wanted === REGION) {
      table.focus();
      return;
    }
    var controls = table.querySelectorAll("button:not([disabled]), input, a[href]");
    for (var i = 0; i < controls.length; i++) {
      if (keyOf(controls[i]) === wanted) {
        controls[i].focus();
        return;
      }
    }
    var next = table.querySelector(".controls button, .hand button:not([disabled])");
    (next || table).focus();
  }

  // --- Number keys play the n-th playable card -------------------------------

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !/^[1-8]$/.test(event.key)) {
      return;
    }
    var target = event.target;
    if (target && (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName) ||
        (target.tagName === "INPUT" && target.type !== "checkbox"))) {
      return;
    }
    var card = document.querySelector('#table .hand button[data-key="' + event.key + '"]');
    if (card && !card.disabled) {
      event.preventDefault();
      card.click();
    }
  });

  // --- The countdown of the seat to act --------------------------------------

  // Each countdown carries the milliseconds left when it was rendered, so a
  // wrong clock on this device does not matter.
  var ends = new WeakMap();

  function tick() {
    var clocks = document.querySelectorAll(".countdown[data-ms]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      if (!ends.has(clock)) {
        ends.set(clock, Date.now() + parseInt(clock.getAttribute("data-ms"), 10));
      }
      var left = Math.max(0, Math.ceil((ends.get(clock) - Date.now()) / 1000));
      if (clock.textContent !== String(left)) {
        clock.textContent = String(left);
      }
      clock.classList.toggle("urgent", left <= 3);
    }
  }

  setInterval(tick, 250);

  // --- The socket: connection state and resynchronisation --------------------

  // While the server is away, try again about every second, never less often:
  // the extension's own backoff grows to a minute, so a page could stay stale
  // long after its server is back. The jitter spreads a restarted server's
  // reconnecting pages over a second. On connecting, the server sends the
  // table as it is now.
  if (window.htmx) {
    window.htmx.config.wsReconnectDelay = function (retries) {
      return retries === 0 ? 250 * Math.random() : 500 + 1000 * Math.random();
    };
  }

  function report() {
    if (socket && region()) {
      socket.send(JSON.stringify({ seq: shownSeq() }));
    }
  }

  function connection(lost) {
    var note = document.querySelector("[data-connection]");
    if (note) {
      note.hidden = !lost;
    }
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    connection(false);
  });

  document.addEventListener("htmx:wsClose", function () {
    socket = null;
    connection(true);
  });

  // A push lost on the way would leave this page behind until the next move:
  // tell the server now and then which move is shown; it answers a stale
  // number with a fresh table.
  setInterval(report, 15000);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      report();
    }
  });

  // --- Copying the invite link ------------------------------------------------

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("[data-invite]");
    if (!link || !navigator.clipboard) {
      return;
    }
    event.preventDefault();
    navigator.clipboard.writeText(link.href).then(function () {
      link.textContent = link.getAttribute("data-copied") || link.textContent;
    });
  });
})();
