// The offline page (shown by the service worker when a page cannot be reached): it asks the table every few seconds
// and opens the page asked for again once the table answers.
(function () {
  "use strict";
  if (window.offlinePage) return;
  window.offlinePage = true;
  function tryAgain() {
    if (!document.querySelector(".offline")) return;
    fetch(location.href, { method: "HEAD", cache: "no-store" }).then(function () { location.reload(); },
                                                                      function () { /* still unreachable */ });
  }
  window.addEventListener("online", tryAgain);
  setInterval(tryAgain, 3000);
})();
