// The page script; everything works without it, only slower. htmx swaps what the server sends; idiomorph's morph
// (the `morph` swap) keeps what the player has there: the focused control, the panels they opened, the values they
// typed. The other files of static/app/ are small htmx extensions, each with its own state: the taps (never lost),
// the pushes (held while this browser's own tap is on its way, never older than the page), the announcements, the
// keypad. What is done after a page is redrawn, and in which order, is written here once: `redrawn`. The frame
// loads them all, after htmx and its extensions, as one file (`app.js`, see `views.labels.FRAME_SCRIPTS`).
(function () {
  "use strict";
  var sk = window.sk = {};

  sk.textOf = function (element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  };
  sk.editionOf = function (element) {
    return element ? parseInt(element.dataset.edition, 10) : null;
  };
  sk.parse = function (html) {
    var template = document.createElement("template");
    template.innerHTML = html || "";
    return template.content;
  };
  sk.changed = function (input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  };
  // A script one control alone needs, loaded the first time it is: `then` runs once it is there.
  sk.load = function (src, then) {
    var script = document.querySelector('script[src="' + src + '"]');
    if (script && script.dataset.loaded) return then && then();
    if (!script) {
      script = document.createElement("script");
      script.src = src;
      script.onload = function () { script.dataset.loaded = "1"; };
      document.head.appendChild(script);
    }
    if (then) script.addEventListener("load", then);
  };

  // The count felt and heard, where this device's player asked for it (off until then): the toggle at the foot of a
  // game's screen says which, remembered; feel.js, loaded once it is on, vibrates and plays the app's sounds.
  function feelOn() {
    try { return localStorage.getItem("feel") === "1"; } catch (e) { return false; }
  }
  function feelReady() {
    var toggle = document.getElementById("feel");
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", String(feelOn()));
    if (feelOn()) sk.load(toggle.dataset.script);
  }
  sk.feel = function (what) {
    if (window.feelIt && feelOn()) window.feelIt(what);
  };

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
    if (event.target.closest("#feel")) {
      try { localStorage.setItem("feel", feelOn() ? "0" : "1"); } catch (e) { /* storage off: it stays off */ }
      feelReady();
    }
    var share = event.target.closest("[data-share]");
    if (share) sk.load(share.dataset.script, function () { window.shareResult(share); });
  });
  // The header stays while htmx swaps pages under it: send the page being shown now.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.classList.contains("language") && form.elements.next) form.elements.next.value = location.pathname + location.search;
  });

  // --- What the morph keeps. `keeping`: the redraw under way is not the answer to the player's own tap (a push, an
  // autosave's answer): the panels they opened and the values they typed stay. After their own tap, the page is the
  // server's, but for a panel they toggled while it was on its way.
  var keeping = false;
  var requestStarted = 0;
  var toggledAt = {};
  var unsaved = {};  // controls changed that no page from the server has shown yet, by id (radios by name)
  var kept = [];
  function keyOf(control) {
    return control.type === "radio" ? "radio:" + control.name : control.id;
  }
  // The control a key names: for a radio group, its radio of `value`, else its checked one.
  function controlOf(key, value) {
    var radio = /^radio:(.*)/.exec(key);
    if (!radio) return document.getElementById(key);
    return document.querySelector('#main input[type=radio][name="' + CSS.escape(radio[1]) + '"]' +
                                  (value === undefined ? ":checked" : '[value="' + CSS.escape(value) + '"]'));
  }
  function valueOf(control) {
    return control.type === "checkbox" ? control.checked : control.value;
  }
  function remember(event) {
    var input = event.target;
    if (input.form && input.type !== "hidden" && keyOf(input) && input.closest("#main")) unsaved[keyOf(input)] = true;
  }
  document.addEventListener("input", remember, true);
  document.addEventListener("change", remember, true);
  // What the player typed, before a redraw that keeps it; after it, what the server showed otherwise is theirs again,
  // and goes again from the form as it is now.
  function keepTyped() {
    kept = [];
    Object.keys(unsaved).forEach(function (key) {
      var control = controlOf(key);
      if (control) kept.push({ key: key, value: valueOf(control) });
    });
  }
  function restoreTyped() {
    kept.splice(0).forEach(function (typed) {
      var control = controlOf(typed.key, typed.value);
      if (!control || (control.type === "radio" ? control.checked : valueOf(control) === typed.value)) return;
      if (control.type === "radio") control.checked = true;
      else if (control.type === "checkbox") control.checked = typed.value;
      else control.value = typed.value;
      sk.changed(control);
    });
  }
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (details.tagName !== "DETAILS") return;
    toggledAt[details.id] = Date.now();
    // A panel opened for the rare cases (Harry, wager, Loot) stays open on the next hands.
    if (details.dataset.remember) {
      try { localStorage.setItem("open:" + details.dataset.remember, details.open ? "1" : "0"); } catch (e) { /* off */ }
    }
  }, true);
  Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, element, how) {
    // What the page script gave an element stays: the count's mark, the tabindex that lets a heading hold focus.
    if ((name === "data-running" || name === "tabindex") && how === "remove") return false;
    if (name === "open" && element.tagName === "DETAILS") return !(keeping || toggledAt[element.id] > requestStarted);
  };
  function rememberedPanels() {
    document.querySelectorAll("details[data-remember]").forEach(function (details) {
      try {
        if (localStorage.getItem("open:" + details.dataset.remember) === "1") details.open = true;
      } catch (e) { /* storage may be off: the panel just starts closed */ }
    });
  }

  // --- Before and after a redraw. `how`: "load" (the page loaded), "visit" (htmx opened another page), "again" (the
  // same page asked for again: the trick judge's next card), "reply" (the answer to this browser's own tap),
  // "redraw" (an autosave's answer), "push" (the live stream).
  var problemBefore = "";
  sk.before = function (how) {
    keeping = how === "redraw" || how === "push";
    // The control the player is typing in is left alone by a redraw that keeps what they typed (only a control:
    // the morph would leave a focused heading's or region's whole content as it was).
    Idiomorph.defaults.ignoreActiveValue = keeping && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    if (keeping) keepTyped();
    problemBefore = sk.textOf(myProblem());
  };
  sk.redrawn = function (how) {
    keeping = false;
    if (how !== "redraw" && how !== "push") unsaved = {};
    restoreTyped();
    rememberedPanels();
    readClock();
    runCount();
    if (sk.announce) sk.announce({ load: "load", visit: "load", again: "reply", reply: "reply" }[how] || "redraw");
    if (how !== "load") focus(how);
    yourTurn();
    feelReady();
    keepAwake();
    showResultCard();
    // The game ended, the next one started, this phone was let in: the page goes on by itself.
    var follow = how === "push" && document.querySelector("#main [data-follow]");
    if (follow) htmx.ajax("GET", follow.getAttribute("href"), { target: "#main", swap: "innerHTML" })
      .then(function () { history.pushState({}, "", follow.getAttribute("href")); }, function () {});
  };

  var redraw = null;
  document.addEventListener("htmx:beforeRequest", function () { requestStarted = Date.now(); });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.target || detail.target.id !== "main" || !detail.shouldSwap) return;
    var config = detail.requestConfig || {};
    var path = new URL(config.path || "", location.href).pathname;
    redraw = config.headers && config.headers["X-Keep-Open"] ? "redraw"
      : config.verb !== "get" ? "reply" : path !== location.pathname ? "visit" : "again";
    // An autosave's answer overtaken by what the stream pushed meanwhile never takes the page back in time.
    var incoming = /id="(?:table|live)"[^>]*data-edition="(\d+)"/.exec(detail.serverResponse || "");
    var shown = sk.editionOf(document.getElementById("table")) || sk.editionOf(document.getElementById("live"));
    if (redraw === "redraw" && incoming && shown !== null && parseInt(incoming[1], 10) < shown) {
      detail.shouldSwap = false;
      redraw = null;
      return;
    }
    // A page asked for is drawn anew; the answer to a tap is morphed into the page the player has.
    if (config.verb === "get") detail.swapOverride = "innerHTML show:window:top";
    sk.before(redraw);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail.target !== document.getElementById("main") || !redraw) return;
    var how = redraw;
    redraw = null;
    sk.redrawn(how);
  });
  document.addEventListener("DOMContentLoaded", function () { sk.redrawn("load"); });
  window.addEventListener("load", showResultCard);
  // The service worker keeps the app's files and its offline page (only over HTTPS or on this computer).
  if (navigator.serviceWorker) navigator.serviceWorker.register(document.body.dataset.sw).catch(function () {});

  // --- Focus is never on the page's body: a control the redraw took away gives it to the page's own choice
  // (`data-focus-here`), else to a problem that concerns this player, else to the heading. A new problem for this
  // player takes the focus wherever it was, so it is heard and can be acted on at once.
  function myProblem() {
    var within = document.getElementById("card") || document.getElementById("main");
    var found = within ? within.querySelectorAll(".problems") : [];
    for (var i = 0; i < found.length; i++) if (sk.textOf(found[i])) return found[i];
    return null;
  }
  function focusOn(candidates, scroll) {
    for (var i = 0; i < candidates.length; i++) {
      var target = candidates[i];
      if (!target || target.disabled) continue;
      if (!target.matches("a[href], button, input, select, textarea, summary, [tabindex]")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: !scroll });
      if (document.activeElement === target) return;
    }
  }
  function focus(how) {
    var main = document.getElementById("main");
    if (!main) return;
    var problem = myProblem();
    if (problem && (how === "reply" || sk.textOf(problem) !== problemBefore)) return focusOn([problem], true);
    var active = document.activeElement;
    var opened = how === "visit" || how === "again";
    if (!opened && active && active !== document.body && document.body.contains(active)) return;
    focusOn([main.querySelector("[data-focus-here]"), problem, main.querySelector("h1"), main], opened);
  }

  // --- "YO… HO… HO!" until the moment the bids show, on the server's clock; the stream pushes them then.
  var clockOffset = 0;  // server time minus this device's time
  var clockRead = null;
  function readClock() {
    var live = document.getElementById("live");
    // Once per page the server drew: its clock is that of the moment it was sent (a push leaves it as it was).
    if (!live || !live.dataset.now || live.dataset.now === clockRead) return;
    clockRead = live.dataset.now;
    clockOffset = parseInt(clockRead, 10) - Date.now();
  }
  function runCount() {
    var count = document.querySelector("[data-reveal-at]");
    // A count the morph kept runs on; one for another moment (a bid changed) starts again.
    if (!count || count.dataset.running === count.dataset.revealAt) return;
    var mine = count.dataset.running = count.dataset.revealAt;
    // A count that names no words of its own (a game's own screen may not) counts in its text.
    var words = (count.dataset.words || count.textContent).split("|");
    var total = Math.max(parseInt(mine, 10) - clockOffset - Date.now(), 250);
    var start = Date.now(), step = total / words.length, felt = 0;
    function current() { return document.body.contains(count) && count.dataset.running === mine; }
    // Each word felt once and in order, even when a busy phone's tick comes late and shows two at once.
    function feelWords(shown) {
      for (; felt < shown; felt++) sk.feel(felt === 0 ? "yo" : felt < words.length - 1 ? "ho" : "ho2");
    }
    (function tick() {
      if (!current()) return;
      var elapsed = Date.now() - start;
      var shown = Math.min(words.length, Math.floor(elapsed / step) + 1);
      var text = words.slice(0, shown).join(" ");
      if (count.textContent !== text) count.textContent = text;
      feelWords(shown);
      // The bids come with the stream: one that was down sends them when it is back.
      if (elapsed < total) setTimeout(tick, 100);
    })();
    // The reveal is felt at its moment, unless the count started again meanwhile (a bid changed).
    setTimeout(function () {
      if (!current() && document.querySelector("[data-reveal-at]")) return;
      feelWords(words.length);
      sk.feel("reveal");
    }, total);
  }

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
    if (now && now !== turnFelt) sk.feel("turn");
    turnFelt = now;
  }

  // Keep the screen awake while a game is open, where the browser allows it; the browser lets go of the lock when
  // the page is hidden: taken again on return.
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
  document.addEventListener("visibilitychange", keepAwake);

  // A page opened by htmx brings its game's and its own styles and scripts (out of band): those the frame has
  // already stay as they are, neither fetched nor run again.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var detail = event.detail, next = detail.fragment.firstElementChild;
    if (detail.target.id === "game-assets" && next && next.innerHTML === detail.target.innerHTML) detail.shouldSwap = false;
  });
})();
