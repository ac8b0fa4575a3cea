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
  });

  // The header stays while htmx swaps pages under it: send the page being shown now.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.classList && form.classList.contains("language") && form.elements.next) {
      form.elements.next.value = window.location.pathname + window.location.search;
    }
  });

  // Live updates: htmx's SSE extension keeps each page's stream (see the `live` macro) and swaps in
  // what it pushes: the shared table (the same for everyone at the table) and, only when it changed,
  // this browser's own card. What the extension cannot know is done here: a push never takes the page
  // back in time, waits while this browser's own request is on its way, and leaves what the player
  // has open or typed as it was.
  var openPanels = null;
  var keepSwap = false;
  var clockOffset = 0;  // server time minus this device's time, for the count

  function editionOf(element) {
    return element ? parseInt(element.dataset.edition || element.dataset.version, 10) : null;
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
    var found = /id="(?:table|live)"[^>]*data-(?:edition|version)="(\d+)"/.exec(html || "");
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
    announce(keepSwap ? "redraw" : "reply");
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
    // The game ended, the next one started, this phone was let in: the page goes on by itself.
    var follow = document.querySelector("#main [data-follow]");
    if (follow) htmx.ajax("GET", follow.getAttribute("href"), { target: "#main", swap: "innerHTML" })
      .then(function () { history.pushState({}, "", follow.getAttribute("href")); });
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
    var words = count.dataset.words.split("|");
    var revealAt = parseInt(count.dataset.revealAt, 10) - clockOffset;  // on this device's clock
    var total = Math.max(revealAt - Date.now(), 250);
    var start = Date.now();
    var step = total / words.length;
    function tick() {
      if (!document.body.contains(count)) return;
      var elapsed = Date.now() - start;
      var shown = Math.min(words.length, Math.floor(elapsed / step) + 1);
      var text = words.slice(0, shown).join(" ");
      if (count.textContent !== text) count.textContent = text;
      // The bids come with the stream: one that was down sends them when it is back.
      if (elapsed < total) setTimeout(tick, 100);
    }
    tick();
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

  function pageReady() {
    rememberedPanels();
    readClock();
    runCount();
  }
  document.addEventListener("DOMContentLoaded", pageReady);
  document.addEventListener("htmx:afterSettle", pageReady);

  // A screen reader hears what changed under it: the page marks its news with data-announce,
  // and a live region that stays put (new live regions are often not read) says what is new.
  // Problems are said when they change, and again after the player's own tap.
  var announced = {};
  function textOf(element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function announce(when) {
    var news = [];
    document.querySelectorAll("#main [data-announce]").forEach(function (item) {
      var text = textOf(item);
      if (announced[item.dataset.announce] !== text) news.push(text);
      announced[item.dataset.announce] = text;
    });
    var alert = textOf(document.querySelector("#main .problems"));
    var urgent = document.getElementById("announce-urgent");
    var polite = document.getElementById("announce-polite");
    if (when !== "load") {
      if (urgent && alert && (when === "reply" || alert !== announced.problems)) urgent.textContent = alert;
      if (polite && news.length) polite.textContent = news.join(" ");
    }
    announced.problems = alert;
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
      if (typeof value !== "string") return;  // a file is not sent again: the page asks for it anew
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

  function showWaiting() {
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
    htmx.ajax(entry.verb.toUpperCase(), entry.path, { source: document.body, target: "#main", values: entry.values,
                                                      headers: headers, swap: "innerHTML" });
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

  // After htmx swaps the main area, move focus there so keyboards and screen readers follow.
  document.addEventListener("htmx:afterSettle", function (event) {
    var main = document.getElementById("main");
    if (event.detail.target !== main) return;
    var active = document.activeElement;
    if (active && active !== document.body && main.contains(active)) return;
    var alert = main.querySelector(".problems:not(:empty)");
    var heading = main.querySelector("h1");
    var target = alert || heading || main;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: false });
  });
})();
