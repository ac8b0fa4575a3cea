// A tap is never lost: every write carries an id made here, which the server applies once however often it arrives.
// A write that got no answer of the app's (no connection, the answer lost on the way, none in time, a proxy's error
// page) waits, shown above the page and kept in the browser's storage by game (it survives a reload and a closed
// tab), and goes again with the same id once the phone is back: when the live stream opens again, the browser says
// it is online, or every few seconds. A page that lost the table says so. An htmx extension (`hx-ext="taps"` on the page's body).
(() => {
  "use strict";
  let waiting = [];  // in the order tapped: {tap, verb, path, values, keepOpen, label, sending, tries, after}
  let keptGames = [], lostTimer = null;
  const paragraph = (text) => Object.assign(document.createElement("p"), { textContent: text });
  // randomUUID needs HTTPS, and a laptop at the table serves plain HTTP.
  const newTapId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  const tapOf = (config) => config?.verb !== "get" && config?.headers["X-Tap"];
  const findWaiting = (tap) => waiting.findIndex((entry) => entry.tap === tap);
  // The app's own answer, which says so in a header of its own: a proxy's page (a 502 while the app restarts), a
  // 5xx or an answer cut short is none, and the tap waits for one.
  const fromTheApp = (xhr) => xhr.status > 0 && xhr.status < 500 && xhr.getResponseHeader("X-Scorekeeper-Answer") === "1";
  const gameOf = (path) => {
    const found = /^\/games\/[^/?#]+/.exec(new URL(path, location.href).pathname);
    return found && "taps:" + found[0];
  };
  // A file is not sent again (the page asks for it anew); the form's token is the page's of then, the header's is
  // that of the page shown when it goes.
  function valuesOf(formData) {
    const values = {};
    formData.forEach((value, key) => {
      if (typeof value === "string" && key !== "csrf_token") values[key] = key in values ? [].concat(values[key], value) : value;
    });
    return values;
  }
  function labelOf(detail) {
    const trigger = detail.requestConfig.triggeringEvent;
    const source = trigger?.submitter || trigger?.target || detail.elt;
    if (source?.labels?.length) return sk.textOf(source.labels[0]);
    return source ? (source.getAttribute("aria-label") || sk.textOf(source)).slice(0, 60) : "";
  }

  function showWaiting() {
    // Kept by game, so a reload or another tab of the same game finds them.
    const byGame = {};
    waiting.forEach((entry) => { const game = gameOf(entry.path); if (game) (byGame[game] ||= []).push(entry); });
    keptGames.forEach((game) => byGame[game] || sk.stored(game, null));
    Object.entries(byGame).forEach(([game, entries]) => sk.stored(game, JSON.stringify(entries)));
    keptGames = Object.keys(byGame);
    const box = sk.byId("waiting-taps");
    const lines = waiting.filter((entry) => !entry.keepOpen || !entry.sending).map((entry) =>
      (entry.label ? "“" + entry.label + "” " : "") +
      (entry.sending ? box.dataset.sending : entry.tries ? box.dataset.unanswered : box.dataset.waiting));
    if (Array.from(box.children, sk.textOf).join("|") !== lines.join("|")) box.replaceChildren(...lines.map(paragraph));
  }
  // The taps kept for this page's game go from it when it opens (a browser plays one seat of a game).
  function restoreWaiting() {
    const game = gameOf(location.href);
    let kept = [];
    try { kept = JSON.parse(sk.stored(game) || "[]"); } catch (e) { /* not ours: nothing kept */ }
    kept.forEach((entry) => findWaiting(entry.tap) < 0 && waiting.push({ ...entry, sending: false }));
    if (!kept.length) return;
    showWaiting();
    sendWaiting();
  }
  // An answer that is not swapped in (a 403, a 404, a 409: the seat went to another phone, the game is gone) is
  // said in words: what the app says of it.
  function refusedWith(html) {
    const box = sk.byId("waiting-taps"), message = sk.textOf(sk.parse(html).querySelector(".message, .problems, main p"));
    if (!message) return;
    const item = box.appendChild(paragraph(box.dataset.refused + " " + message));
    item.className = "refused";
    item.setAttribute("role", "alert");
    sk.feel("refused");
    setTimeout(() => item.remove(), 15000);
  }

  // No answer: it may or may not have arrived; sent again with the same id, it is applied once. `unanswered`: what
  // came back was not the app's answer: tried again later, a little later each time (½ s, 1 s, 2 s … 30 s, or when
  // the answer says to come back), and at once when the live stream is back.
  function keepWaiting(detail, unanswered) {
    const config = detail.requestConfig, tap = tapOf(config);
    if (!tap) return;
    if (findWaiting(tap) < 0) {
      const keepOpen = Boolean(config.headers["X-Keep-Open"]);
      // A newer autosave of the same form holds everything the older one had.
      if (keepOpen) waiting = waiting.filter((entry) => !(entry.keepOpen && entry.path === config.path));
      waiting.push({ tap, verb: config.verb, path: config.path, values: valuesOf(config.formData), keepOpen,
                     label: keepOpen ? "" : labelOf(detail), sending: false, tries: 0, after: 0 });
    }
    const entry = waiting[findWaiting(tap)];
    if (!entry) return;  // a newer autosave of the same form holds it
    entry.sending = false;
    if (unanswered) {
      const retry = parseFloat(detail.xhr.getResponseHeader("Retry-After"));
      const delay = retry >= 0 ? retry * 1000 : Math.min(30000, 500 * 2 ** entry.tries);
      entry.tries += 1;
      entry.after = Date.now() + delay;
      setTimeout(sendWaiting, delay);
    }
    showWaiting();
  }
  // One at a time, in the order tapped: the first goes, the next once it is answered.
  function sendWaiting() {
    const entry = waiting[0];
    if (!entry || entry.sending || entry.after > Date.now()) return;
    entry.sending = true;
    showWaiting();
    const headers = { "X-Tap": entry.tap, ...entry.keepOpen && { "X-Keep-Open": "1" } };
    // No answer again is no error: htmx:sendError keeps it waiting (its promise's rejection says nothing more).
    htmx.ajax(entry.verb.toUpperCase(), entry.path, { source: document.body, target: "#main", values: entry.values, headers })
      .catch(() => {});
  }
  function answered(detail) {
    const tap = tapOf(detail.requestConfig), status = detail.xhr?.status;
    if (!tap || !status) return;
    if (!fromTheApp(detail.xhr)) return keepWaiting(detail, true);
    const at = findWaiting(tap);
    if (at >= 0) waiting.splice(at, 1);
    showWaiting();
    if (status >= 400 && status !== 422) refusedWith(detail.xhr.responseText);
    sendWaiting();
  }

  // The live stream down for two seconds shows the bar, until it is back (and pushes whatever changed meanwhile).
  function streamDown() {
    const bar = sk.byId("lost-table");
    lostTimer ??= setTimeout(() => { bar.textContent = bar.dataset.lost; }, 2000);
  }
  function streamBack() {
    const bar = sk.byId("lost-table");
    if (bar.textContent) sk.byId("announce-polite").textContent = bar.dataset.back;
    bar.textContent = "";
    clearTimeout(lostTimer);
    lostTimer = null;
    waiting.forEach((entry) => { entry.after = 0; });
    sendWaiting();
  }

  htmx.defineExtension("taps", {
    init() {
      document.addEventListener("DOMContentLoaded", restoreWaiting);
      addEventListener("online", sendWaiting);
      setInterval(sendWaiting, 4000);
    },
    onEvent(name, { detail }) {
      if (name === "htmx:configRequest" && detail.verb !== "get" && !detail.headers["X-Tap"]) detail.headers["X-Tap"] = newTapId();
      else if (name === "htmx:sendError" || name === "htmx:timeout") keepWaiting(detail);
      else if (name === "htmx:afterRequest") answered(detail);
      // What is not the app's answer is never drawn into the page.
      else if (name === "htmx:beforeSwap" && tapOf(detail.requestConfig) && !fromTheApp(detail.xhr)) detail.shouldSwap = false;
      else if (name === "htmx:sseError") streamDown();
      else if (name === "htmx:sseOpen") streamBack();
      else if (name === "htmx:afterSettle" && detail.target?.id === "main" && gameOf(location.href)) restoreWaiting();
    },
  });
})();
