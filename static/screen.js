// The big screen's page: its full-screen button, and a room's screen that never scrolls. Loaded with the big
// screen's page; a page swapped in by htmx loads it again, so it sets itself up once.
(function () {
  "use strict";
  if (window.bigScreen) return;
  window.bigScreen = true;

  // Shown where the browser can (not an iPhone's), saying what it does now.
  function label() {
    var button = document.querySelector("[data-fullscreen]");
    if (!button) return;
    button.hidden = !document.fullscreenEnabled;
    button.textContent = document.fullscreenElement ? button.dataset.leave : button.dataset.enter;
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-fullscreen]")) return;
    var done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    done.catch(function () { /* refused (no gesture, a frame that may not): the page stays as it is */ });
  });
  document.addEventListener("fullscreenchange", label);
  document.addEventListener("htmx:afterSettle", label);

  // A room's screen (as wide as its layout for one, screen.css) shows all of itself: what does not fit gives way,
  // first the pad's earliest rounds (the leaderboard has the totals), then the type, a little at a time. Done again
  // whenever what it shows changes (a push, before the browser paints it) or the window does.
  var root = document.documentElement;
  function overflows(screen) {
    if (root.scrollHeight > innerHeight || root.scrollWidth > innerWidth) return true;
    return Array.prototype.some.call(screen.querySelectorAll("table"), function (table) {
      return table.scrollWidth > table.parentElement.clientWidth + 1;
    });
  }
  function fit() {
    watcher.disconnect();
    var screen = document.querySelector(".big-screen");
    if (screen && matchMedia("(min-width: 900px)").matches) {
      screen.style.fontSize = "";
      var rows = screen.querySelectorAll(":is(.screen-pad, .match-pad) tbody tr");
      rows.forEach(function (row) { row.hidden = false; });
      for (var first = 0; first < rows.length - 1 && overflows(screen); first++) rows[first].hidden = true;
      var size = parseFloat(getComputedStyle(screen).fontSize);
      while (overflows(screen) && size > 8) screen.style.fontSize = (size -= 0.5) + "px";
    }
    watcher.observe(document.body, { childList: true, subtree: true, characterData: true });
  }
  var watcher = new MutationObserver(fit);
  addEventListener("resize", fit);
  document.fonts?.ready.then(fit);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { label(); fit(); });
  else { label(); fit(); }
})();
