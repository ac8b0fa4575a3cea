// What the live stream pushes (htmx's SSE extension keeps each page's stream, see the `live` macro): the shared
// table, the same for everyone at the table, and, only when it changed, this browser's own card, each morphed into
// the page. A push never takes the page back in time, and waits while this browser's own request is on its way:
// its answer redraws the page anyway, and a push in between would redraw it twice under the player's fingers.
// An htmx extension (`hx-ext="pushes"` on the page's body).
(function () {
  "use strict";
  var ownRequests = 0;
  var held = {};

  // Whether a pushed part is news to this page: a shared table of a newer edition, a card whose key differs from the
  // one shown (its own answer may have shown it already), never an older card.
  function wanted(message) {
    if (message.type === "table") {
      var shown = sk.editionOf(document.getElementById("table"));
      return shown === null || message.edition > shown;
    }
    var incoming = sk.parse(message.data).firstElementChild;
    var card = document.getElementById("card");
    return Boolean(incoming && card && card.dataset.key !== incoming.dataset.key &&
                   sk.editionOf(incoming) >= sk.editionOf(card));
  }
  function messageOf(event) {
    var message = event.detail;
    return { type: message.type, data: message.data, edition: parseInt(message.lastEventId, 10), stream: event.target };
  }
  function showHeld() {
    if (ownRequests > 0) return;
    ["table", "card"].forEach(function (type) {
      var message = held[type];
      delete held[type];
      if (!message || !wanted(message) || !document.body.contains(message.stream)) return;
      sk.before("push");
      htmx.swap(message.stream, message.data, { swapStyle: "none" });
      sk.redrawn("push");
    });
  }

  htmx.defineExtension("pushes", {
    onEvent: function (name, event) {
      if (name === "htmx:beforeRequest") {
        ownRequests += 1;
      } else if (name === "htmx:afterRequest") {
        ownRequests = Math.max(0, ownRequests - 1);
        // After an answer that swaps nothing (a 204, an error), what was held is shown now; after one that does,
        // once it is in.
        setTimeout(showHeld, 0);
      } else if (name === "htmx:sseBeforeMessage") {
        var message = messageOf(event);
        if (ownRequests > 0) held[message.type] = message;
        if (ownRequests > 0 || !wanted(message)) return false;
        sk.before("push");
      } else if (name === "htmx:sseMessage") {
        sk.redrawn("push");
      }
    },
  });
})();
