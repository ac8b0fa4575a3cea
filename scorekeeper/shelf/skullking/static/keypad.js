// The trick judge's keypad of groups: each group one stop for Tab, the arrow keys (and Home, End) move within it,
// and typing a card's first letters or its number goes to its key in any group. Loaded with the judge's page; a
// page swapped in by htmx loads it again, so it sets itself up once.
(function () {
  "use strict";
  if (window.trickKeypad) return;
  window.trickKeypad = true;

  function textOf(element) {
    return element.textContent.replace(/\s+/g, " ").trim();
  }
  function keysOf(group) {
    return Array.prototype.filter.call(group.querySelectorAll(".key"), function (key) { return !key.disabled; });
  }
  function rovingKeys() {
    document.querySelectorAll("[data-keypad] [role=group]").forEach(function (group) {
      var keys = keysOf(group);
      var current = keys.filter(function (key) { return key.hasAttribute("data-focus-here") || key.getAttribute("aria-current") === "true"; })[0] || keys[0];
      keys.forEach(function (key) { key.setAttribute("tabindex", key === current ? "0" : "-1"); });
    });
  }
  function moveTo(key) {
    var group = key.closest("[role=group]");
    keysOf(group).forEach(function (other) { other.setAttribute("tabindex", other === key ? "0" : "-1"); });
    key.focus();
  }
  var typed = "", typedAt = 0;
  function folded(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  document.addEventListener("keydown", function (event) {
    var key = event.target.closest && event.target.closest("[data-keypad] .key");
    if (!key || event.altKey || event.ctrlKey || event.metaKey) return;
    var keys = keysOf(key.closest("[role=group]"));
    var at = keys.indexOf(key);
    var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step) {
      moveTo(keys[(at + step + keys.length) % keys.length]);
    } else if (event.key === "Home" || event.key === "End") {
      moveTo(keys[event.key === "Home" ? 0 : keys.length - 1]);
    } else if (event.key.length === 1 && event.key !== " ") {
      var letter = folded(event.key);
      // Letters name a card, digits its number: a change from one to the other starts a new search.
      var goesOn = Date.now() - typedAt < 800 && /\d/.test(typed.slice(-1)) === /\d/.test(letter);
      typed = (goesOn ? typed : "") + letter;
      typedAt = Date.now();
      var all = keysOf(key.closest("[data-keypad]"));
      var found = all.filter(function (candidate) {
        // A number key goes by its number; the others by their name.
        return folded(/^\d+$/.test(typed) ? textOf(candidate) : candidate.getAttribute("aria-label") || textOf(candidate)).indexOf(typed) === 0;
      })[0];
      if (found) moveTo(found);
    } else {
      return;
    }
    event.preventDefault();
  });
  // Loaded in the frame, before the page's keys when the page is opened; with the answer when htmx opens it.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", rovingKeys);
  else rovingKeys();
  document.addEventListener("htmx:afterSettle", function () {
    typed = "";  // a new page: what was typed on the last one searched there
    rovingKeys();
  });
})();
