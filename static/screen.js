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

  // A room's screen (as wide as its layout for one, screen.css) shows all of itself, in the largest type that fits:
  // the pad's last rounds (five, then as many earlier ones as there is room for; the leaderboard has the totals),
  // the type as large as they and everything else allow, found by halving. Done again whenever what it shows
  // changes (a push, before the browser paints it) or the window does.
  var root = document.documentElement, KEPT_ROUNDS = 5;
  function overflows(screen) {
    if (root.scrollHeight > innerHeight || root.scrollWidth > innerWidth) return true;
    return Array.prototype.some.call(screen.querySelectorAll("table"), function (table) {
      return table.scrollWidth > table.parentElement.clientWidth + 1;
    });
  }
  // What it sets holds for a room's screen alone (screen.css): a window narrowed to a phone's shows all of it at once.
  function fit() {
    watcher.disconnect();
    var screen = document.querySelector(".big-screen");
    var rows = screen ? screen.querySelectorAll("[data-gives-way] tbody tr") : [];
    if (screen) screen.style.removeProperty("--fitted");
    rows.forEach(function (row) { row.classList.remove("gives-way"); });
    if (screen && matchMedia("(min-width: 900px)").matches) {
      var last = rows.length - KEPT_ROUNDS;
      rows.forEach(function (row, index) { row.classList.toggle("gives-way", index < last); });
      var low = 8, high = parseFloat(getComputedStyle(screen).fontSize);
      if (overflows(screen)) {
        while (high - low > 0.5) {
          var size = (low + high) / 2;
          screen.style.setProperty("--fitted", size + "px");
          if (overflows(screen)) high = size; else low = size;
        }
        screen.style.setProperty("--fitted", low + "px");
      }
      for (var first = Math.max(0, last); first < rows.length - 1 && overflows(screen); first++) {
        rows[first].classList.add("gives-way");
      }
      for (var earlier = last - 1; earlier >= 0; earlier--) {
        rows[earlier].classList.remove("gives-way");
        if (overflows(screen)) { rows[earlier].classList.add("gives-way"); break; }
      }
    }
    watcher.observe(document.body, { childList: true, subtree: true, characterData: true, attributeFilter: ["class"] });
  }
  // The count's words change every tick and take no more room: they are no reason to fit the screen again.
  var watcher = new MutationObserver(function (records) {
    var inCount = function (record) {
      var element = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      return element && element.closest("[data-reveal-at]");
    };
    if (!records.every(inCount)) fit();
  });
  addEventListener("resize", fit);
  document.fonts?.ready.then(fit);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { label(); fit(); });
  else { label(); fit(); }
})();
