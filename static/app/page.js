// The page script; everything works without it, only slower. htmx swaps what the server sends; idiomorph's morph
// keeps what the player has there: the focused control, the panels they opened, the values they typed. The other
// files of static/app/ are small htmx extensions, each with its own state: the taps (never lost), the pushes (held
// while this browser's own tap is on its way), the announcements, the keypad. What is done after a page is redrawn,
// and in which order, is written here once: `redrawn`. The frame loads them all, after htmx and its extensions, as
// one file (`app.js`, see `views.labels.FRAME_SCRIPTS`).
(() => {
  "use strict";
  const sk = window.sk = {};
  // htmx's settings, set before it starts (kept here, not in every page): a refused form (422) is drawn as a page,
  // another refusal is said in words by the taps; a tap with no answer in 20 s waits; no eval, no inline style.
  // What a swap brings is set up at once (no settle delay: the app has no transitions to wait for): a form the morph
  // turned into the next hand's must send there from its first tap, not to the hand before until htmx settles.
  Object.assign(htmx.config, {
    responseHandling: [{ code: "204", swap: false }, { code: "[23]..", swap: true }, { code: "422", swap: true },
                       { code: "[45]..", swap: false, error: true }],
    scrollIntoViewOnBoost: false, timeout: 20000, includeIndicatorStyles: false, allowEval: false, defaultSettleDelay: 0,
    // No page is kept in the browser's storage for Back: one may hold a secret (a bid) of a seat this phone has lost since.
    historyCacheSize: 0,
  });
  const byId = sk.byId = (id) => document.getElementById(id);
  const main = (selector) => document.querySelector("#main " + selector);
  sk.textOf = (element) => element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  sk.editionOf = (element) => element ? parseInt(element.dataset.edition, 10) : null;
  sk.parse = (html) => Object.assign(document.createElement("template"), { innerHTML: html || "" }).content;
  sk.changed = (input) => input.dispatchEvent(new Event("change", { bubbles: true }));
  // The browser's storage (`value`: undefined reads, null forgets), where it allows it: a private window may not.
  sk.stored = (key, value) => {
    try {
      return value === undefined ? localStorage.getItem(key) : value === null ? localStorage.removeItem(key) : localStorage.setItem(key, value);
    } catch (e) { return null; }
  };
  // A script one control alone needs, loaded the first time it is asked for.
  const loading = {};
  sk.load = (src) => loading[src] ||= new Promise((loaded) =>
    document.head.appendChild(Object.assign(document.createElement("script"), { src, onload: loaded })));

  // The count felt and heard, where this device's player asked for it (off until then): the toggle at the foot of a
  // game's screen says which, remembered; feel.js, loaded once it is on, vibrates and plays the app's sounds.
  const feelOn = () => sk.stored("feel") === "1";
  function feelReady() {
    const toggle = byId("feel");
    toggle?.setAttribute("aria-pressed", feelOn());
    if (toggle && feelOn()) sk.load(toggle.dataset.script);
  }
  sk.feel = (what) => feelOn() && window.feelIt?.(what);

  document.addEventListener("click", ({ target }) => {
    if (target.closest("[data-print]")) print();
    if (target.closest("#feel")) {
      sk.stored("feel", feelOn() ? "0" : "1");
      feelReady();
    }
    const share = target.closest("[data-share]");
    if (share) sk.load(share.dataset.script).then(() => shareResult(share));
  });

  // --- What the morph keeps. `keeping`: the redraw under way is not the answer to the player's own tap (a push, an
  // autosave's answer): the panels they opened and the values they typed stay. After their own tap, the page is the
  // server's, but for a panel they toggled while it was on its way.
  let keeping = false, requestStarted = 0;
  const toggledAt = {};
  const unsaved = new Set();  // controls changed that no page from the server has shown yet, by id (radios by name)
  const resend = [];
  const keyOf = (control) => control.type === "radio" ? "radio:" + control.name : control.id;
  const valueOf = (control) => /^(checkbox|radio)$/.test(control.type) ? control.checked : control.value;
  function remember({ target: input }) {
    if (input.form && input.type !== "hidden" && keyOf(input) && input.closest("#main")) unsaved.add(keyOf(input));
  }
  document.addEventListener("input", remember, true);
  document.addEventListener("change", remember, true);
  document.addEventListener("toggle", ({ target: details }) => {
    if (details.tagName !== "DETAILS") return;
    toggledAt[details.id] = Date.now();
    // A panel opened for the rare cases (Harry, wager, Loot) stays open through the redraws of the play it was opened
    // in (`data-remember-for`): the next one starts closed.
    if (details.dataset.remember) sk.stored("open:" + details.dataset.remember, details.open ? details.dataset.rememberFor || "1" : "0");
  }, true);
  Object.assign(Idiomorph.defaults.callbacks, {
    // A control the player changed stays as they left it; where the server showed otherwise, it goes again from the
    // form as it is now (the one being typed in goes when the player leaves it, as typing does).
    beforeNodeMorphed(old, next) {
      if (!keeping || !old.form || !unsaved.has(keyOf(old))) return true;
      if (valueOf(old) !== valueOf(next) && old !== document.activeElement && (old.type !== "radio" || old.checked)) resend.push(old);
      return false;
    },
    beforeAttributeUpdated(name, element, how) {
      // What the page script gave an element stays: the count's mark, the tabindex that lets a heading hold focus.
      if ((name === "data-running" || name === "tabindex") && how === "remove") return false;
      if (name === "open" && element.tagName === "DETAILS") return !(keeping || toggledAt[element.id] > requestStarted);
    },
  });

  // --- Before and after a redraw. `how`: "load" (the page loaded), "visit" (htmx opened another page), "again" (the
  // same page asked for again: the trick judge's next card), "reply" (the answer to this browser's own tap),
  // "redraw" (an autosave's answer), "push" (the live stream).
  let problemBefore = "";
  sk.before = (how) => {
    keeping = how === "redraw" || how === "push";
    // The control being typed in keeps its value (only a control: the morph would keep a focused heading whole).
    Idiomorph.defaults.ignoreActiveValue = keeping && /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    problemBefore = sk.textOf(myProblem());
  };
  sk.redrawn = (how) => {
    keeping = false;
    if (how !== "redraw" && how !== "push") unsaved.clear();
    resend.splice(0).forEach((control) => document.body.contains(control) && sk.changed(control));
    document.querySelectorAll("details[data-remember]").forEach((details) => {
      if (sk.stored("open:" + details.dataset.remember) === (details.dataset.rememberFor || "1")) details.open = true;
    });
    runCount();
    sk.announce?.({ load: "load", visit: "load", again: "reply", reply: "reply" }[how] || "redraw");
    if (how !== "load") focus(how);
    yourTurn();
    feelReady();
    keepAwake();
    // A game's own script does what its pages need after each redraw (`how` as here).
    document.dispatchEvent(new CustomEvent("sk:redrawn", { detail: { how } }));
    // The game ended, the next one started, this phone was let in: the page goes on by itself.
    const follow = how === "push" && main("[data-follow]")?.getAttribute("href");
    if (follow) htmx.ajax("GET", follow, { target: "#main", swap: "innerHTML" }).then(() => history.pushState({}, "", follow), () => {});
  };

  let redraw = null;
  document.addEventListener("htmx:beforeRequest", () => { requestStarted = Date.now(); });
  document.addEventListener("htmx:beforeSwap", ({ detail }) => {
    if (detail.target?.id !== "main" || !detail.shouldSwap) return;
    const config = detail.requestConfig || {};
    const path = new URL(config.path || "", location.href).pathname;
    redraw = config.headers?.["X-Keep-Open"] ? "redraw" : config.verb !== "get" ? "reply" : path !== location.pathname ? "visit" : "again";
    // An autosave's answer overtaken by what the stream pushed meanwhile never takes the page back in time.
    const incoming = /id="(?:table|live)"[^>]*data-edition="(\d+)"/.exec(detail.serverResponse || "");
    const shown = sk.editionOf(byId("table") || byId("live"));
    if (redraw === "redraw" && incoming && shown !== null && parseInt(incoming[1], 10) < shown) {
      detail.shouldSwap = false;
      redraw = null;
      return;
    }
    // A page asked for is drawn anew; the answer to a tap is morphed into the page the player has.
    if (config.verb === "get") detail.swapOverride = "innerHTML show:window:top";
    // An autosave keeps the page where the player is: the tap was theirs, the place on the card too.
    else if (redraw === "redraw") detail.swapOverride = "morph:innerHTML";
    sk.before(redraw);
  });
  document.addEventListener("htmx:afterSettle", ({ detail }) => {
    const how = redraw;
    if (detail.target !== byId("main") || !how) return;
    redraw = null;
    sk.redrawn(how);
  });
  document.addEventListener("DOMContentLoaded", () => sk.redrawn("load"));
  // The service worker keeps the app's files and its offline page (only over HTTPS or on this computer).
  navigator.serviceWorker?.register(document.body.dataset.sw).catch(() => {});

  // --- Focus is never on the page's body: a control the redraw took away gives it to the page's own choice
  // (`data-focus-here`), else to a problem that concerns this player, else to the heading. A new problem for this
  // player takes the focus wherever it was, so it is heard and can be acted on at once.
  function myProblem() {
    return [...(byId("card") || byId("main")).querySelectorAll(".problems")].find(sk.textOf) || null;
  }
  function focusOn(candidates, scroll) {
    for (const target of candidates) {
      if (!target || target.disabled) continue;
      if (!target.matches("a[href], button, input, select, textarea, summary, [tabindex]")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: !scroll });
      if (document.activeElement === target) return;
    }
  }
  function focus(how) {
    // The room's screen is looked at, not used: nothing on it takes the focus, nor scrolls it there.
    if (main(".big-screen")) return;
    const problem = myProblem(), active = document.activeElement, opened = how === "visit" || how === "again";
    if (problem && (how === "reply" || sk.textOf(problem) !== problemBefore)) return focusOn([problem], true);
    if (!opened && active && active !== document.body && document.body.contains(active)) return;
    focusOn([main("[data-focus-here]"), problem, main("h1"), byId("main")], opened);
  }

  // --- "YO… HO… HO!" until the moment the bids show, on the server's clock; the stream pushes them then.
  let clockOffset = 0;  // server time minus this device's time
  function runCount() {
    // Once per page the server drew: its clock is that of the moment it was sent, read once (a push brings none).
    const live = byId("live"), count = document.querySelector("[data-reveal-at]");
    if (live?.dataset.now) clockOffset = parseInt(live.dataset.now, 10) - Date.now();
    delete live?.dataset.now;
    // A count the morph kept runs on; one for another moment (a bid changed) starts again.
    if (!count || count.dataset.running === count.dataset.revealAt) return;
    const mine = count.dataset.running = count.dataset.revealAt;
    // A count that names no words of its own (a game's own screen may not) counts in its text.
    const words = (count.dataset.words || count.textContent).split("|");
    const total = Math.max(parseInt(mine, 10) - clockOffset - Date.now(), 250);
    const start = Date.now(), step = total / words.length;
    let felt = 0;
    (function tick() {
      const elapsed = Date.now() - start, shown = Math.min(words.length, Math.floor(elapsed / step) + 1);
      if (document.body.contains(count) && count.dataset.running === mine) {
        const text = words.slice(0, shown).join(" ");
        if (count.textContent !== text) count.textContent = text;
      } else if (document.querySelector("[data-reveal-at]")) return;  // counting again, to another moment
      // Each word felt once and in order, even when a busy phone's tick comes late and shows two at once; the reveal
      // at its moment, also when the bids the stream pushed have taken the count's place.
      for (; felt < shown; felt++) sk.feel(felt === 0 ? "yo" : felt < words.length - 1 ? "ho" : "ho2");
      if (elapsed < total) setTimeout(tick, Math.min(100, total - elapsed));
      else sk.feel("reveal");
    })();
  }

  // "Your turn" (a game whose bids go in turn) is felt once for each time it comes.
  let turnFelt = null;
  function yourTurn() {
    const turn = main("[data-your-turn]"), now = turn && location.pathname + turn.dataset.yourTurn;
    if (now && now !== turnFelt) sk.feel("turn");
    turnFelt = now;
  }

  // Keep the screen awake while a game is open, where the browser allows it; the browser lets go of the lock when
  // the page is hidden: taken again on return.
  let wakeLock = null, asking = false;
  function keepAwake() {
    if (!byId("live")) wakeLock?.release();
    else if (!asking && (!wakeLock || wakeLock.released) && navigator.wakeLock && document.visibilityState === "visible") {
      asking = true;
      // One lock at a time; one granted after the player left the game is let go at once.
      navigator.wakeLock.request("screen").then((lock) => { asking = false; wakeLock = lock; keepAwake(); },
                                                () => { asking = false; });
    }
  }
  document.addEventListener("visibilitychange", keepAwake);
})();
