/* Baloot Online, the live table: keyboard play, the turn countdown, and keeping
   the picture current. The server renders everything; this file only helps.

   Every picture of the table carries a marker, <input id="table-seq">, with
   the event number it shows (data-seq) and a digest of the whole picture
   (data-view). The server's pushes are either the whole table region, or
   only the parts that changed since the picture named by data-base, each
   morphed in place (idiomorph), so open panels, focus and scrolling stay as
   they are. */
(function () {
  "use strict";

  var socket = null;

  // A push never opens or shuts a panel the reader opened or shut: a panel
  // keeps its state while its data-key stays the same (the result panel's
  // key is its deal, so the next deal's result opens as the server says).
  if (window.Idiomorph) {
    window.Idiomorph.defaults.callbacks.beforeNodeMorphed = function (oldNode, newNode) {
      if (oldNode.nodeType === 1 && oldNode.tagName === "DETAILS" && newNode.tagName === "DETAILS" &&
          oldNode.getAttribute("data-key") === newNode.getAttribute("data-key")) {
        if (oldNode.open) {
          newNode.setAttribute("open", "");
        } else {
          newNode.removeAttribute("open");
        }
      }
      return true;
    };
  }

  function region() {
    return document.getElementById("table");
  }

  function marker() {
    return document.getElementById("table-seq");
  }

  function shown() {
    var mark = marker();
    if (!mark) {
      return { seq: -1, view: "" };
    }
    return {
      seq: parseInt(mark.getAttribute("data-seq") || "0", 10),
      view: mark.getAttribute("data-view") || "",
    };
  }

  var MARKER = /<input\b[^>]*\bid="table-seq"[^>]*>/;

  function attribute(tag, name) {
    var found = new RegExp("\\s" + name + '="([^"]*)"').exec(tag);
    return found ? found[1] : null;
  }

  // The marker of a picture as sent: its event number, digest and, for a
  // push of changed parts only, the digest of the picture it applies to.
  function headOf(html) {
    var found = MARKER.exec(html || "");
    if (!found) {
      return null;
    }
    return {
      seq: parseInt(attribute(found[0], "data-seq") || "0", 10),
      view: attribute(found[0], "data-view"),
      base: attribute(found[0], "data-base"),
    };
  }

  // "swap", "skip" (nothing new: the same picture is never swapped twice,
  // and an older one never replaces a newer one) or "resync" (changed parts
  // meant for a picture this page does not show).
  function verdict(head) {
    var now = shown();
    if (head.view === now.view || head.seq < now.seq) {
      return "skip";
    }
    if (head.base !== null && head.base !== now.view) {
      return "resync";
    }
    return "swap";
  }

  // The answer to one's own action, or a refusal with its message.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var head = headOf(event.detail.serverResponse);
    if (!head) {
      return;
    }
    var refused = event.detail.xhr && event.detail.xhr.status >= 400;
    if (verdict(head) !== "swap" && !(refused && head.seq >= shown().seq)) {
      event.detail.shouldSwap = false;
    }
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var head = headOf(event.detail.message);
    if (!head) {
      return;
    }
    var decision = verdict(head);
    if (decision === "swap") {
      return;
    }
    event.preventDefault();
    if (decision === "resync") {
      report();
    }
  });

  // Changed parts leave the region's own attributes alone: copy them from
  // the marker. A refusal's message belongs to the picture it came with.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var table = region();
    var mark = marker();
    if (!table || !mark) {
      return;
    }
    table.setAttribute("data-seq", mark.getAttribute("data-seq") || "0");
    var classes = mark.getAttribute("data-class");
    if (classes && table.className !== classes) {
      table.className = classes;
    }
    var errors = table.querySelectorAll(".table-error");
    for (var i = 0; i < errors.length; i++) {
      errors[i].remove();
    }
  });

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
  // wrong clock on this device does not matter. A morphed countdown keeps its
  // element, so the end is worked out again whenever data-ms changes.
  var ends = new WeakMap();

  function tick() {
    var clocks = document.querySelectorAll(".countdown[data-ms]");
    for (var i = 0; i < clocks.length; i++) {
      var clock = clocks[i];
      var ms = clock.getAttribute("data-ms");
      var known = ends.get(clock);
      if (!known || known.ms !== ms) {
        known = { ms: ms, end: Date.now() + parseInt(ms, 10) };
        ends.set(clock, known);
      }
      var left = Math.max(0, Math.ceil((known.end - Date.now()) / 1000));
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

  // Tells the server which picture is shown; it answers with the whole
  // region when that is not the picture it last sent.
  function report() {
    if (socket && marker()) {
      var now = shown();
      socket.send(JSON.stringify({ seq: now.seq, view: now.view }));
    }
  }

  // The note the page shows about its socket: "lost" (reconnecting), "busy"
  // (refused for now, trying again), "ended" (the table no longer updates),
  // or none.
  function connection(state) {
    var notes = { lost: "[data-connection]", busy: "[data-connection-busy]",
                  ended: "[data-connection-ended]" };
    Object.keys(notes).forEach(function (name) {
      var note = document.querySelector(notes[name]);
      if (note) {
        note.hidden = name !== state;
      }
    });
  }

  // The server refuses a socket with 4429 when this person, or the server,
  // holds too many: try again later, waiting longer after each refusal
  // (about 2 s, 4 s, 8 s... up to a minute, at random within the second
  // half of each wait, so that refused pages do not all come back at once).
  // A socket that delivers the table ends the refusals. After 4410 the match
  // ended a while ago and the server no longer sends its table.
  var refusals = 0;

  function retryDelay() {
    var longest = Math.min(60000, 2000 * Math.pow(2, refusals));
    return longest / 2 + Math.random() * longest / 2;
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    if (refusals === 0) {
      connection(null);
    }
  });

  document.addEventListener("htmx:wsAfterMessage", function () {
    if (refusals > 0) {
      refusals = 0;
      connection(null);
    }
  });

  document.addEventListener("htmx:wsClose", function (event) {
    socket = null;
    var code = event.detail.event ? event.detail.event.code : 0;
    if (code === 4429) {
      var wrapper = event.detail.socketWrapper;
      var delay = retryDelay();
      refusals += 1;
      connection("busy");
      setTimeout(function () {
        wrapper.reconnect();
      }, delay);
      return;
    }
    connection(code === 4410 ? "ended" : "lost");
  });

  // A push lost on the way would leave this page behind until the next move:
  // tell the server now and then which picture is shown.
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
