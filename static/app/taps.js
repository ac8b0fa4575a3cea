// A tap is never lost: every write carries an id made here, which the server applies once however often it arrives.
// A write that got no answer (no connection, the answer lost on the way, none in time) waits, shown above the page
// and kept in the browser's storage by game (it survives a reload and a closed tab), and goes again with the same
// id once the phone is back: when the live stream opens again, the browser says it is online, or every few
// seconds. A page that lost the table says so. An htmx extension (`hx-ext="taps"` on the page's body).
(function () {
  "use strict";
  var waiting = [];  // in the order tapped: {tap, verb, path, values, keepOpen, label, sending}
  var keptGames = [];
  var lostSince = null;

  function newTapId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);  // randomUUID needs HTTPS, a laptop at the table serves plain HTTP
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function tapOf(config) { return config && config.verb !== "get" ? config.headers["X-Tap"] : null; }
  function findWaiting(tap) {
    for (var i = 0; i < waiting.length; i++) if (waiting[i].tap === tap) return i;
    return -1;
  }
  // A file is not sent again (the page asks for it anew); the form's token is the page's of then, the header's is
  // that of the page shown when it goes.
  function valuesOf(formData) {
    var values = {};
    formData.forEach(function (value, key) {
      if (typeof value !== "string" || key === "csrf_token") return;
      values[key] = key in values ? [].concat(values[key], value) : value;
    });
    return values;
  }
  function labelOf(detail) {
    var trigger = detail.requestConfig.triggeringEvent;
    var source = (trigger && trigger.submitter) || (trigger && trigger.target) || detail.elt;
    if (source && source.labels && source.labels.length) return sk.textOf(source.labels[0]);
    return source ? (source.getAttribute("aria-label") || sk.textOf(source)).slice(0, 60) : "";
  }
  function gameOf(path) {
    var found = /^\/games\/[^/?#]+/.exec(new URL(path, location.href).pathname);
    return found ? "taps:" + found[0] : null;
  }

  function storeWaiting() {
    var byGame = {};
    waiting.forEach(function (entry) {
      var game = gameOf(entry.path);
      if (game) (byGame[game] = byGame[game] || []).push(entry);
    });
    try {
      keptGames.forEach(function (game) { if (!byGame[game]) localStorage.removeItem(game); });
      Object.keys(byGame).forEach(function (game) { localStorage.setItem(game, JSON.stringify(byGame[game])); });
    } catch (e) { /* storage may be off or full: the taps still wait in the page */ }
    keptGames = Object.keys(byGame);
  }
  // The taps kept for this page's game go from it when it opens (a browser plays one seat of a game).
  function restoreWaiting() {
    var game = gameOf(location.href), kept = [];
    try { kept = JSON.parse(localStorage.getItem(game) || "[]"); } catch (e) { /* see above */ }
    kept.forEach(function (entry) {
      if (findWaiting(entry.tap) >= 0) return;
      entry.sending = false;
      waiting.push(entry);
    });
    if (!kept.length) return;
    if (keptGames.indexOf(game) < 0) keptGames.push(game);
    showWaiting();
    sendWaiting();
  }

  function showWaiting() {
    storeWaiting();
    var box = document.getElementById("waiting-taps");
    if (!box) return;
    var lines = waiting.filter(function (entry) { return !entry.keepOpen || !entry.sending; }).map(function (entry) {
      return (entry.label ? "“" + entry.label + "” " : "") + (entry.sending ? box.dataset.sending : box.dataset.waiting);
    });
    if (Array.prototype.map.call(box.children, sk.textOf).join("|") === lines.join("|")) return;
    box.textContent = "";
    lines.forEach(function (line) { box.appendChild(document.createElement("p")).textContent = line; });
  }
  // An answer that is not swapped in (a 403, a 404, a 409: the seat went to another phone, the game is gone) is
  // said in words: what the app says of it.
  function refusedWith(html) {
    var box = document.getElementById("waiting-taps");
    var message = sk.textOf(sk.parse(html).querySelector(".message, .problems, main p"));
    if (!box || !message) return;
    var item = box.appendChild(document.createElement("p"));
    item.className = "refused";
    item.setAttribute("role", "alert");
    item.textContent = box.dataset.refused + " " + message;
    sk.feel("refused");
    setTimeout(function () { item.remove(); }, 15000);
  }

  // No answer: it may or may not have arrived; sent again with the same id, it is applied once.
  function keepWaiting(detail) {
    var config = detail.requestConfig, tap = tapOf(config);
    if (!tap) return;
    var at = findWaiting(tap);
    if (at >= 0) {
      waiting[at].sending = false;
    } else {
      var keepOpen = Boolean(config.headers["X-Keep-Open"]);
      // A newer autosave of the same form holds everything the older one had.
      if (keepOpen) waiting = waiting.filter(function (entry) { return !(entry.keepOpen && entry.path === config.path); });
      waiting.push({ tap: tap, verb: config.verb, path: config.path, values: valuesOf(config.formData),
                     keepOpen: keepOpen, label: keepOpen ? "" : labelOf(detail), sending: false });
    }
    showWaiting();
  }
  // One at a time, in the order tapped: the first goes, the next once it is answered.
  function sendWaiting() {
    if (!waiting.length || waiting[0].sending) return;
    var entry = waiting[0];
    entry.sending = true;
    showWaiting();
    var headers = { "X-Tap": entry.tap };
    if (entry.keepOpen) headers["X-Keep-Open"] = "1";
    // No answer again is no error: htmx:sendError keeps it waiting (its promise's rejection says nothing more).
    htmx.ajax(entry.verb.toUpperCase(), entry.path, { source: document.body, target: "#main", values: entry.values,
                                                      headers: headers }).catch(function () {});
  }
  function answered(detail) {
    var tap = tapOf(detail.requestConfig);
    if (!tap || !detail.xhr || detail.xhr.status === 0) return;
    var at = findWaiting(tap);
    if (at >= 0) waiting.splice(at, 1);
    showWaiting();
    if (detail.xhr.status >= 400 && detail.xhr.status !== 422) refusedWith(detail.xhr.responseText);
    sendWaiting();
  }

  // The live stream down for two seconds shows the bar, until it is back (and pushes whatever changed meanwhile).
  function streamDown() {
    if (lostSince !== null) return;
    lostSince = Date.now();
    setTimeout(function () {
      var bar = document.getElementById("lost-table");
      if (bar && lostSince !== null && !bar.textContent) bar.textContent = bar.dataset.lost;
    }, 2000);
  }
  function streamBack() {
    var bar = document.getElementById("lost-table");
    var polite = document.getElementById("announce-polite");
    if (bar && bar.textContent && polite) polite.textContent = bar.dataset.back;
    if (bar) bar.textContent = "";
    lostSince = null;
    sendWaiting();
  }

  htmx.defineExtension("taps", {
    init: function () {
      document.addEventListener("DOMContentLoaded", restoreWaiting);
      window.addEventListener("online", sendWaiting);
      setInterval(sendWaiting, 4000);
    },
    onEvent: function (name, event) {
      var detail = event.detail;
      if (name === "htmx:configRequest" && detail.verb !== "get" && !detail.headers["X-Tap"]) detail.headers["X-Tap"] = newTapId();
      else if (name === "htmx:sendError" || name === "htmx:timeout") keepWaiting(detail);
      else if (name === "htmx:afterRequest") answered(detail);
      else if (name === "htmx:sseError") streamDown();
      else if (name === "htmx:sseOpen") streamBack();
      else if (name === "htmx:afterSettle" && detail.target && detail.target.id === "main" && gameOf(location.href)) restoreWaiting();
    },
  });
})();
