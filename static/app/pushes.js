// What the live stream pushes (htmx's SSE extension keeps each page's stream, see the `live` macro): the shared
// table, the same for everyone at the table, and, only when it changed, this browser's own card, each morphed into
// the page. A push never takes the page back in time, and waits while this browser's own request is on its way:
// its answer redraws the page anyway, and a push in between would redraw it twice under the player's fingers.
// An htmx extension (`hx-ext="pushes"` on the page's body).
(() => {
  "use strict";
  let ownRequests = 0;
  const held = {};
  // Whether a pushed part is news to this page: a shared table of a newer edition, a card whose key differs from the
  // one shown (its own answer may have shown it already), never an older card.
  function wanted({ type, data, edition }) {
    const shown = sk.editionOf(sk.byId(type));
    if (type === "table") return shown === null || edition > shown;
    const incoming = sk.parse(data).firstElementChild;
    return Boolean(incoming && shown !== null && sk.byId("card").dataset.key !== incoming.dataset.key && sk.editionOf(incoming) >= shown);
  }
  function showHeld() {
    if (ownRequests > 0) return;
    for (const type of ["table", "card"]) {
      const message = held[type];
      delete held[type];
      if (!message || !wanted(message) || !document.body.contains(message.stream)) continue;
      sk.before("push");
      htmx.swap(message.stream, message.data, { swapStyle: "none" });
      sk.redrawn("push");
    }
  }

  htmx.defineExtension("pushes", {
    onEvent(name, event) {
      if (name === "htmx:beforeRequest") ownRequests += 1;
      else if (name === "htmx:afterRequest") {
        ownRequests = Math.max(0, ownRequests - 1);
        // After an answer that swaps nothing (a 204, an error), what was held is shown now; after one that does,
        // once it is in.
        setTimeout(showHeld);
      } else if (name === "htmx:sseBeforeMessage") {
        const { type, data, lastEventId } = event.detail;
        const message = { type, data, edition: parseInt(lastEventId, 10), stream: event.target };
        if (ownRequests > 0) held[type] = message;
        if (ownRequests > 0 || !wanted(message)) return false;
        sk.before("push");
      } else if (name === "htmx:sseMessage") sk.redrawn("push");
    },
  });
})();
