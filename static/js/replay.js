// Keyboard steps for the replay viewer: the arrow keys go back and forward
// (mirrored on right-to-left pages, where "forward" points left), Home and End
// go to the first and last step, N and P to the next and previous mistake of
// the deal's analysis. Each key follows the matching link of the
// page, so without this file the same links still work by click or Tab.
(() => {
  "use strict";

  const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  // The analysis: N and P go to the next and previous mistake or blunder,
  // read by key position so that they work whatever the keyboard's language.
  const CODES = { KeyN: "next-mistake", KeyP: "prev-mistake" };
  const MIRRORED = { prev: "next", next: "prev" };

  function typingIn(target) {
    return (
      target instanceof Element &&
      target.closest("input, textarea, select, [contenteditable]:not([contenteditable='false'])") !== null
    );
  }

  // Keep the current action in sight in the scrolling list of actions.
  function showCurrentAction() {
    const list = document.querySelector("#replay .replay-actions");
    const current = list && list.querySelector(".current");
    if (current) {
      list.scrollTop = current.offsetTop - list.clientHeight / 2;
    }
  }

  // When a step control had the focus before htmx swapped the replay in,
  // give it back to the same control, so Tab and Enter keep stepping.
  let focusedKey = null;

  document.addEventListener("htmx:beforeSwap", () => {
    const active = document.activeElement;
    focusedKey = active instanceof HTMLElement ? active.dataset.replayKey || null : null;
  });

  document.addEventListener("htmx:afterSettle", () => {
    showCurrentAction();
    if (focusedKey) {
      const control =
        document.querySelector(`#replay a[data-replay-key="${focusedKey}"]`) ||
        document.querySelector("#replay .replay-position");
      if (control) {
        control.focus();
      }
      focusedKey = null;
    }
  });

  document.addEventListener("DOMContentLoaded", showCurrentAction);

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) {
      return;
    }
    if (typingIn(event.target)) {
      return;
    }
    let name = KEYS[event.key] || CODES[event.code];
    if (!name) {
      return;
    }
    if (document.documentElement.dir === "rtl" && MIRRORED[name]) {
      name = MIRRORED[name];
    }
    // At the first or last step the link is absent: the key does nothing.
    const link = document.querySelector(`#replay a[data-replay-key="${name}"]`);
    if (!link) {
      return;
    }
    event.preventDefault();
    // A click, so that htmx swaps the replay in place when it is loaded.
    link.click();
  });
})();
