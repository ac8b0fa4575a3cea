// Small helpers for the scorekeeper pages; everything works without them, only slower.
(function () {
  "use strict";

  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    var step = event.target.closest("button.step");
    if (step) {
      var input = document.getElementById(step.getAttribute("aria-controls"));
      if (!input) return;
      var value = parseInt(input.value || "0", 10) || 0;
      var next = value + parseInt(step.dataset.step, 10);
      var low = input.min === "" ? -Infinity : parseInt(input.min, 10);
      var high = input.max === "" ? Infinity : parseInt(input.max, 10);
      input.value = String(Math.min(high, Math.max(low, next)));
      var face = input.closest(".count-face");
      if (face) face.classList.toggle("counted", input.value !== "0");
      changed(input);
      return;
    }
    var setter = event.target.closest("button[data-set]");
    if (setter) {
      var target = document.getElementById(setter.dataset.set);
      if (target) {
        target.value = setter.dataset.value;
        changed(target);
      }
      return;
    }
    if (event.target.closest("[data-print]")) {
      window.print();
    }
    if (event.target.closest("#feel")) {
      try { localStorage.setItem("feel", feelOn() ? "0" : "1"); } catch (e) { /* storage off: it stays off */ }
      feelReady();
    }
    var share = event.target.closest("[data-share]");
    if (share) load(share.dataset.script, function () { window.shareResult(share); });
  });

  // A script one control alone needs, loaded the first time it is: `then` runs once it is there.
  function load(src, then) {
    var script = document.querySelector('script[src="' + src + '"]');
    if (script && script.dataset.loaded) return then && then();
    if (!script) {
      script = document.createElement("script");
      script.src = src;
      script.onload = function () { script.dataset.loaded = "1"; };
      document.head.appendChild(script);
    }
    if (then) script.addEventListener("load", then);
  }

  // The count felt and heard, where this device's player asked for it (off until then): the toggle at the foot of a
  // game's screen says which, remembered; feel.js, loaded once it is on, vibrates and plays the app's sounds.
  function feelOn() {
    try { return localStorage.getItem("feel") === "1"; } catch (e) { return false; }
  }
  function feelReady() {
    var toggle = document.getElementById("feel");
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", String(feelOn()));
    if (feelOn()) load(toggle.dataset.script);
  }
  function feel(what) {
    if (window.feelIt && feelOn()) window.feelIt(what);
  }

  // The header stays while htmx swaps pages under it: send the page being shown now.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.classList && form.classList.contains("language") && form.elements.next) {
      form.elements.next.value = location.pathname + location.search;
    }
  });

  // A page opened by htmx brings its game's and its own styles and scripts (out of band): those the frame has
  // already stay as they are, neither fetched nor run again.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail, next = detail.fragment.firstElementChild;
    if (detail.target.id === "game-assets" && next && next.innerHTML === detail.target.innerHTML) detail.shouldSwap = false;
  });

  // Live updates: htmx's SSE extension keeps each page's stream (see the `live` macro) and swaps in
  // what it pushes: the shared table (the same for everyone at the table) and, only when it changed,
  // this browser's own card. What the extension cannot know is done here: a push never takes the page
  // back in time, waits while this browser's own request is on its way, and leaves what the player
  // has open or typed as it was.
  var openPanels = null;
  var keepSwap = false;
  var visiting = false;  // the swap under way opens a page (a link, a redirect), not the answer to a change
  var clockOffset = 0;  // server time minus this device's time, for the count

  function editionOf(element) {
    return element ? parseInt(element.dataset.edition, 10) : null;
  }

  // Values the player changed that no page from the server has shown yet. A redraw under
  // the player (autosave, their own card pushed again) must not take them back, nor the save they wait for.
  var unsaved = {};

  function valueOf(input) {
    return input.type === "checkbox" || input.type === "radio" ? input.checked : input.value;
  }

  function remember(event) {
    var input = event.target;
    if (!input.id || !input.form || input.type === "hidden" || !input.closest("#main")) return;
    unsaved[input.id] = valueOf(input);
  }
  document.addEventListener("input", remember, true);
  document.addEventListener("change", remember, true);

  function restoreUnsaved() {
    Object.keys(unsaved).forEach(function (id) {
      var wanted = unsaved[id];
      var input = document.getElementById(id);
      delete unsaved[id];
      if (!input || !input.form || typeof valueOf(input) !== typeof wanted || valueOf(input) === wanted) return;
      if (typeof wanted === "boolean") input.checked = wanted;
      else input.value = wanted;
      changed(input);  // schedules the save again, from the new form
    });
  }

  function editionIn(html) {
    var found = /id="(?:table|live)"[^>]*data-edition="(\d+)"/.exec(html || "");
    return found ? parseInt(found[1], 10) : null;
  }

  // Panels the player has open stay open when the page is redrawn under them: by an autosave
  // (X-Keep-Open) or a pushed card, not after the player's own tap.
  // A panel opened while the player's own request was on its way stays open too.
  var openedAt = {};
  var requestStarted = 0;
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.tagName === "DETAILS" && details.id) openedAt[details.id] = details.open ? Date.now() : 0;
  }, true);
  document.addEventListener("htmx:beforeRequest", function () { requestStarted = Date.now(); });

  function openPanelIds(root) {
    return Array.prototype.map.call(root.querySelectorAll("details[open][id]"), function (d) { return d.id; });
  }
  function reopen(ids) {
    (ids || []).forEach(function (id) {
      var details = document.getElementById(id);
      if (details) details.open = true;
    });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "main") return;
    var config = event.detail.requestConfig || {};
    keepSwap = Boolean(config.headers && config.headers["X-Keep-Open"]);
    // Another page, not the same one again with other values (the trick judge's next card): its news is not said.
    visiting = config.verb === "get" && new URL(config.path || "", location.href).pathname !== location.pathname;
    // An answer overtaken by what the stream pushed meanwhile never takes the page back in time.
    var incoming = editionIn(event.detail.serverResponse);
    var shown = editionOf(document.getElementById("table")) || editionOf(document.getElementById("live"));
    if (incoming !== null && shown !== null && incoming < shown && keepSwap) {
      event.detail.shouldSwap = false;
      return;
    }
    if (!keepSwap) {
      openPanels = Object.keys(openedAt).filter(function (id) { return openedAt[id] > requestStarted; });
      return;
    }
    openPanels = openPanelIds(document.getElementById("main"));
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "main") return;
    reopen(openPanels);
    openPanels = null;
    if (!keepSwap) unsaved = {};
  });
  // After the settle, when htmx listens on the new form, so that a restored value is saved.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.target || event.detail.target.id !== "main") return;
    if (keepSwap) restoreUnsaved();
    announce(keepSwap ? "redraw" : visiting ? "load" : "reply");
    keepSwap = false;
    showHeld();
  });

  function parse(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  // While this browser's own request is on its way, pushes wait: its answer redraws the page
  // anyway, and a push in between would redraw it twice under the player's fingers.
  var ownRequests = 0;
  var held = {};
  document.addEventListener("htmx:beforeRequest", function () { ownRequests += 1; });
  document.addEventListener("htmx:afterRequest", function () {
    ownRequests = Math.max(0, ownRequests - 1);
    // After an answer that swaps nothing (a 204, an error), what was held is shown now.
    setTimeout(showHeld, 0);
  });
  function showHeld() {
    if (ownRequests > 0) return;
    ["table", "card"].forEach(function (type) {
      var message = held[type];
      delete held[type];
      if (!message || !wanted(message) || !document.body.contains(message.stream)) return;
      before(message);
      htmx.swap(message.stream, message.data, { swapStyle: "none" });
      after(message);
    });
  }

  // Whether a pushed part is news to this page: a shared table of a newer edition, a card whose
  // key differs from the one shown (its own answer may have shown it already), never an older card.
  function wanted(message) {
    if (message.type === "table") {
      var shown = editionOf(document.getElementById("table"));
      return shown === null || message.edition > shown;
    }
    var incoming = parse(message.data).firstElementChild;
    var card = document.getElementById("card");
    return Boolean(incoming && card && card.dataset.key !== incoming.dataset.key &&
                   editionOf(incoming) >= editionOf(card));
  }

  // The player's own card, redrawn because its own data changed, keeps the panels open on it.
  function before(message) {
    rememberFocus();
    var card = document.getElementById("card");
    openPanels = message.type === "card" && card ? openPanelIds(card) : null;
  }
  function after(message) {
    if (message.type === "card") {
      reopen(openPanels);
      openPanels = null;
      rememberedPanels();
      restoreUnsaved();
    } else {
      runCount();
    }
    announce("redraw");
    yourTurn();
    restoreFocus("push");
    showResultCard();
    // The game ended, the next one started, this phone was let in: the page goes on by itself.
    var follow = document.querySelector("#main [data-follow]");
    if (follow) htmx.ajax("GET", follow.getAttribute("href"), { target: "#main", swap: "innerHTML" })
      .then(function () { history.pushState({}, "", follow.getAttribute("href")); }, function () {});
  }

  function messageOf(event) {
    var message = event.detail;
    return { type: message.type, data: message.data, edition: parseInt(message.lastEventId, 10),
             stream: event.target };
  }
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var message = messageOf(event);
    if (ownRequests > 0) {
      held[message.type] = message;
      event.preventDefault();
    } else if (!wanted(message)) {
      event.preventDefault();
    } else {
      before(message);
    }
  });
  document.addEventListener("htmx:sseMessage", function (event) { after(messageOf(event)); });

  function readClock() {
    var live = document.getElementById("live");
    // Once per page drawn: the clock on it is that of the moment it was sent.
    if (!live || !live.dataset.now || live.dataset.clockRead) return;
    clockOffset = parseInt(live.dataset.now, 10) - Date.now();
    live.dataset.clockRead = "1";
  }

  // "YO… HO… HO!" until the moment the bids show; the stream pushes them then.
  function runCount() {
    var count = document.querySelector("[data-reveal-at]");
    if (!count || count.dataset.running) return;
    count.dataset.running = "1";
    // A count that names no words of its own (a game's own screen may not) counts in its text.
    var words = (count.dataset.words || count.textContent).split("|");
    var revealAt = parseInt(count.dataset.revealAt, 10) - clockOffset;  // on this device's clock
    var total = Math.max(revealAt - Date.now(), 250);
    var start = Date.now();
    var step = total / words.length;
    // Each word felt once and in order, even when a busy phone's tick comes late and shows two at once.
    var felt = 0;
    function feelWords(shown) {
      for (; felt < shown; felt++) feel(felt === 0 ? "yo" : felt < words.length - 1 ? "ho" : "ho2");
    }
    function tick() {
      if (!document.body.contains(count)) return;
      var elapsed = Date.now() - start;
      var shown = Math.min(words.length, Math.floor(elapsed / step) + 1);
      var text = words.slice(0, shown).join(" ");
      if (count.textContent !== text) count.textContent = text;
      feelWords(shown);
      // The bids come with the stream: one that was down sends them when it is back.
      if (elapsed < total) setTimeout(tick, 100);
    }
    tick();
    // The reveal is felt at its moment, unless the count started again meanwhile (a bid changed).
    setTimeout(function () {
      if (!document.body.contains(count) && document.querySelector("[data-reveal-at]")) return;
      feelWords(words.length);
      feel("reveal");
    }, total);
  }

  // A panel the player opened for the rare cases (Harry, wager, Loot) stays open on the next hands.
  function rememberedPanels() {
    document.querySelectorAll("details[data-remember]").forEach(function (details) {
      try {
        if (localStorage.getItem("open:" + details.dataset.remember) === "1") details.open = true;
      } catch (e) { /* storage may be off: the panel just starts closed */ }
    });
  }
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.tagName !== "DETAILS" || !details.dataset.remember) return;
    try { localStorage.setItem("open:" + details.dataset.remember, details.open ? "1" : "0"); } catch (e) { /* see above */ }
  }, true);

  // A phone whose result card opens (the bids shown, the page opened on it) shows it from its heading, once per
  // hand: with ten cards and every bonus the card fills a phone, and Done is then on the screen.
  var resultShown = null;
  function showResultCard() {
    var form = document.querySelector("#card form.thumb");
    if (!form || innerWidth > 600 || resultShown === form.action) return;
    resultShown = form.action;
    // After whatever else places the page now (htmx's scroll to the top of a page it opens, the browser's own);
    // then a little more, if that brings Done on the screen and keeps every tricks key there.
    setTimeout(function () {
      form.parentNode.scrollIntoView();
      var below = form.querySelector(".done-button").getBoundingClientRect().bottom - innerHeight;
      if (below > 0 && form.querySelector(".tricks-pad").getBoundingClientRect().top >= below) scrollBy(0, below);
    });
  }

  // "Your turn" (a game whose bids go in turn) is felt once for each time it comes.
  var turnFelt = null;
  function yourTurn() {
    var turn = document.querySelector("#main [data-your-turn]");
    var now = turn && location.pathname + turn.dataset.yourTurn;
    if (now && now !== turnFelt) feel("turn");
    turnFelt = now;
  }

  function pageReady() {
    feelReady();
    yourTurn();
    restoreWaiting();
    rememberedPanels();
    readClock();
    runCount();
  }
  document.addEventListener("DOMContentLoaded", pageReady);
  // The service worker keeps the app's files and its offline page (only over HTTPS or on this computer).
  if (navigator.serviceWorker) navigator.serviceWorker.register(document.body.dataset.sw).catch(function () {});
  window.addEventListener("load", showResultCard);
  document.addEventListener("htmx:afterSettle", pageReady);

  // A screen reader hears what changed under it: the page marks its news with data-announce,
  // and a live region that stays put (new live regions are often not read) says what is new.
  // Problems are said when they change, and again after the player's own tap.
  var announced = {};
  var problemsSaid = [];
  function textOf(element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }
  // `when`: "load" (a page opened: what it shows is read by the reader, nothing is said), "reply" (the answer
  // to this browser's own request), "redraw" (a push, an autosave). What changed is said once: a news item
  // whose text changed, a new item of a list, a problem not said yet (after the player's own request, its
  // problems again).
  function announce(when) {
    var news = [];
    document.querySelectorAll("#main [data-announce]").forEach(function (item) {
      if (item.hasAttribute("data-each")) {
        // A list whose new items are news, each on its own ("Ben is ready: 2 of 3."), the others not again.
        var key = "each:" + item.dataset.announce, before = announced[key] || {}, now = {};
        item.querySelectorAll("[data-item]").forEach(function (part) {
          now[part.dataset.item] = true;
          if (!before[part.dataset.item] && announced[key] && when !== "load") news.push(textOf(part));
        });
        announced[key] = now;
        return;
      }
      var text = textOf(item), name = item.dataset.announce;
      if (when !== "load" && name in announced && announced[name] !== text) news.push(text);
      announced[name] = text;
    });
    // Every problem shown (a page has an empty one standing by), each once.
    var problems = [];
    document.querySelectorAll("#main .problems").forEach(function (element) {
      var text = textOf(element);
      if (text && problems.indexOf(text) < 0) problems.push(text);
    });
    var fresh = when === "reply" ? problems : problems.filter(function (text) { return problemsSaid.indexOf(text) < 0; });
    problemsSaid = problems;
    if (when === "load") return;
    var urgent = document.getElementById("announce-urgent");
    var polite = document.getElementById("announce-polite");
    if (fresh.length) feel("refused");
    if (urgent && fresh.length) say(urgent, fresh.join(" "));
    if (polite && news.length) say(polite, news.join(" "));
  }
  // A standing live region says `text`: emptied first when it holds it already, so it is said again.
  function say(region, text) {
    if (region.textContent !== text) {
      region.textContent = text;
      return;
    }
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 50);
  }
  document.addEventListener("DOMContentLoaded", function () { announce("load"); });

  // --- A tap is never lost: every write carries an id made here, which the server applies once however often
  // it arrives. A write that got no answer (no connection, the answer lost on the way, no answer in time)
  // waits, shown above the page, and goes again with the same id once the phone is back: when the live
  // stream opens again, the browser says it is online, or every few seconds. Its answer then shows as any.
  function newTapId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);  // randomUUID needs HTTPS, a laptop at the table serves plain HTTP
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail.verb !== "get" && !detail.headers["X-Tap"]) detail.headers["X-Tap"] = newTapId();
  });

  var waiting = [];  // in the order tapped: {tap, verb, path, values, keepOpen, label, sending}
  function tapOf(config) { return config && config.verb !== "get" ? config.headers["X-Tap"] : null; }
  function findWaiting(tap) {
    for (var i = 0; i < waiting.length; i++) if (waiting[i].tap === tap) return i;
    return -1;
  }
  function valuesOf(formData) {
    var values = {};
    formData.forEach(function (value, key) {
      // A file is not sent again (the page asks for it anew); the form's token is the page's of then, the
      // header's is that of the page shown when it goes.
      if (typeof value !== "string" || key === "csrf_token") return;
      if (!(key in values)) values[key] = value;
      else values[key] = [].concat(values[key], value);
    });
    return values;
  }
  function labelOf(detail) {
    var config = detail.requestConfig, trigger = config.triggeringEvent;
    var source = (trigger && trigger.submitter) || (trigger && trigger.target) || detail.elt;
    if (source && source.labels && source.labels.length) return textOf(source.labels[0]);
    return source ? (source.getAttribute("aria-label") || textOf(source)).slice(0, 60) : "";
  }

  // The taps still waiting are kept in the browser's storage by game until answered: they survive a reload and a
  // closed or discarded tab, and go from the game's page when it opens again (a browser plays one seat a game).
  var keptGames = [];
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
  function restoreWaiting() {
    var game = gameOf(location.href), kept = [];
    try { kept = JSON.parse(localStorage.getItem(game) || "[]"); } catch (e) { /* see above */ }
    kept.forEach(function (entry) {
      if (findWaiting(entry.tap) >= 0) return;
      entry.sending = false;
      waiting.push(entry);
    });
    if (kept.length) {
      if (keptGames.indexOf(game) < 0) keptGames.push(game);
      showWaiting();
      sendWaiting();
    }
  }

  function showWaiting() {
    storeWaiting();
    var box = document.getElementById("waiting-taps");
    if (!box) return;
    var shown = waiting.filter(function (entry) { return !entry.keepOpen || !entry.sending; });
    var text = shown.map(function (entry) {
      var state = entry.sending ? box.dataset.sending : box.dataset.waiting;
      return (entry.label ? "“" + entry.label + "” " : "") + state;
    });
    var current = Array.prototype.map.call(box.children, textOf).join("|");
    if (current === text.join("|")) return;
    box.textContent = "";
    text.forEach(function (line) {
      var item = document.createElement("p");
      item.textContent = line;
      box.appendChild(item);
    });
  }
  function refusedWith(message) {
    var box = document.getElementById("waiting-taps");
    if (!box || !message) return;
    var item = document.createElement("p");
    item.className = "refused";
    item.setAttribute("role", "alert");
    item.textContent = box.dataset.refused + " " + message;
    feel("refused");
    box.appendChild(item);
    setTimeout(function () { if (item.parentNode) item.parentNode.removeChild(item); }, 15000);
  }
  // The words of an error page that was not swapped in (a 403, a 404, a 409): what the app says of it.
  function messageIn(html) {
    var found = parse(html || "").querySelector(".message, .problems, main p");
    return textOf(found);
  }

  // No answer (htmx:sendError: no connection, or the answer lost on its way; htmx:timeout: none in time). It may
  // or may not have arrived: sent again with the same id, it is applied once.
  function keepWaiting(event) {
    var detail = event.detail, config = detail.requestConfig;
    var tap = tapOf(config);
    if (!tap) return;
    var at = findWaiting(tap);
    if (at >= 0) {
      waiting[at].sending = false;
    } else {
      var keepOpen = Boolean(config.headers["X-Keep-Open"]);
      if (keepOpen) {
        // A newer autosave of the same form holds everything the older one had.
        waiting = waiting.filter(function (entry) { return !(entry.keepOpen && entry.path === config.path); });
      }
      waiting.push({ tap: tap, verb: config.verb, path: config.path, values: valuesOf(config.formData),
                     keepOpen: keepOpen, label: keepOpen ? "" : labelOf(detail), sending: false });
    }
    showWaiting();
  }
  document.addEventListener("htmx:sendError", keepWaiting);
  document.addEventListener("htmx:timeout", keepWaiting);

  // Answered: it no longer waits, and the next one goes.
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    var tap = tapOf(detail.requestConfig);
    if (!tap || !detail.xhr || detail.xhr.status === 0) return;
    var at = findWaiting(tap);
    if (at >= 0) waiting.splice(at, 1);
    showWaiting();
    // An answer that is not swapped in (the seat went to another phone, the game is gone) is said in words.
    if (detail.xhr.status >= 400 && detail.xhr.status !== 422) refusedWith(messageIn(detail.xhr.responseText));
    sendWaiting();
  });

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
                                                      headers: headers, swap: "innerHTML" }).catch(function () {});
  }
  window.addEventListener("online", sendWaiting);
  document.addEventListener("htmx:sseOpen", sendWaiting);
  setInterval(sendWaiting, 4000);

  // --- A page that lost the table says so: the live stream down for two seconds shows the bar, until it is back
  // (and pushes whatever changed meanwhile).
  var lostSince = null;
  function lostTable() {
    var bar = document.getElementById("lost-table");
    if (!bar || lostSince === null || bar.textContent) return;
    bar.textContent = bar.dataset.lost;
  }
  document.addEventListener("htmx:sseError", function () {
    if (lostSince !== null) return;
    lostSince = Date.now();
    setTimeout(lostTable, 2000);
  });
  document.addEventListener("htmx:sseOpen", function () {
    var bar = document.getElementById("lost-table");
    var polite = document.getElementById("announce-polite");
    if (bar && bar.textContent && polite) polite.textContent = bar.dataset.back;
    if (bar) bar.textContent = "";
    lostSince = null;
  });

  // Keep the screen awake while a game is open, where the browser allows it.
  var wakeLock = null;
  function keepAwake() {
    var inGame = Boolean(document.getElementById("live"));
    if (!inGame && wakeLock) {
      wakeLock.release().catch(function () {});
      wakeLock = null;
    } else if (inGame && !wakeLock && navigator.wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { if (wakeLock === lock) wakeLock = null; });
      }).catch(function () {});
    }
  }
  document.addEventListener("DOMContentLoaded", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake);
  // The browser lets go of the lock when the page is hidden; take it again on return.
  document.addEventListener("visibilitychange", keepAwake);

  // --- Focus survives every redraw, the player's own answer and a push alike: it goes back to the control with
  // the same identity (its id, else its form, name and value, or its link), else to a problem that concerns
  // this player, else to the page's heading; never to the page's body. A new problem for this player takes
  // the focus wherever it was, so it is heard and can be acted on at once.
  var focusBefore = null;
  var problemBefore = "";
  function identityOf(element) {
    var main = document.getElementById("main");
    if (!element || element === document.body || !main || !main.contains(element)) return null;
    if (element.id) return { selector: "#" + CSS.escape(element.id), index: 0 };
    var selector = element.tagName.toLowerCase();
    if (element.name) selector += '[name="' + CSS.escape(element.name) + '"]';
    if (element.value && /^(BUTTON|INPUT)$/.test(element.tagName)) selector += '[value="' + CSS.escape(element.value) + '"]';
    if (element.tagName === "A") selector += '[href="' + CSS.escape(element.getAttribute("href") || "") + '"]';
    var form = element.closest("form");
    if (form && form.getAttribute("action")) selector = 'form[action="' + CSS.escape(form.getAttribute("action")) + '"] ' + selector;
    // Which of the controls alike it is, in page order.
    return { selector: selector, index: Array.prototype.indexOf.call(document.querySelectorAll(selector), element) };
  }
  function elementOf(identity) {
    return identity ? document.querySelectorAll(identity.selector)[identity.index] || null : null;
  }
  // The problem that concerns this browser: on its own card (a game page), or on the page.
  function myProblem() {
    var within = document.getElementById("card") || document.getElementById("main");
    var found = within ? within.querySelectorAll(".problems") : [];
    for (var i = 0; i < found.length; i++) if (textOf(found[i])) return found[i];
    return null;
  }
  function rememberFocus() {
    focusBefore = identityOf(document.activeElement);
    problemBefore = textOf(myProblem());
  }
  // Focus the first of `candidates` that takes it (one hidden in a closed panel does not).
  function focusOn(candidates, scroll) {
    for (var i = 0; i < candidates.length; i++) {
      var target = candidates[i];
      if (!target || target.disabled) continue;
      if (!target.matches("a[href], button, input, select, textarea, summary, [tabindex]")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: !scroll });
      if (document.activeElement === target) return;
    }
  }
  // `how`: "reply" (this browser's own request answered), "visit" (another page opened), "push" (the stream).
  function restoreFocus(how) {
    var main = document.getElementById("main");
    if (!main) return;
    var problem = myProblem();
    if (problem && (how === "reply" || textOf(problem) !== problemBefore)) {
      focusOn([problem], true);
      return;
    }
    var active = document.activeElement;
    if (active && active !== document.body && document.body.contains(active)) return;
    var same = how !== "visit" ? elementOf(focusBefore) : null;
    focusOn([main.querySelector("[data-focus-here]"), same, problem, main.querySelector("h1"), main], how === "visit");
  }
  var requestVerb = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "main") return;
    rememberFocus();
    var config = event.detail.requestConfig || {};
    // An autosave redraws the page under the player as a push does: focus stays unless a problem is new.
    requestVerb = config.headers && config.headers["X-Keep-Open"] ? "autosave" : config.verb || null;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target !== document.getElementById("main")) return;
    restoreFocus({ get: "visit", autosave: "push" }[requestVerb] || "reply");
    requestVerb = null;
    showResultCard();
  });
})();
