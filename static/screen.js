// The big screen's full-screen button: the room sees the table and nothing of the browser around it. Loaded with
// the big screen's page; a page swapped in by htmx loads it again, so it sets itself up once.
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
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", label);
  else label();
})();
