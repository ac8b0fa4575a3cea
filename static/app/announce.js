// A screen reader hears what changed under it: the page marks its news with data-announce, and a live region that
// stays put (new live regions are often not read) says what is new, once. Problems are said when they change, and
// again after the player's own tap. An htmx extension; the page script calls `sk.announce` after every redraw.
(function () {
  "use strict";
  var announced = {};
  var problemsSaid = [];

  // A standing live region says `text`: emptied first when it holds it already, so it is said again.
  function say(region, text) {
    if (!region || !text) return;
    if (region.textContent !== text) {
      region.textContent = text;
      return;
    }
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 50);
  }

  // `when`: "load" (a page opened: what it shows is read by the reader, nothing is said), "reply" (the answer to
  // this browser's own request), "redraw" (a push, an autosave). What changed is said once: a news item whose text
  // changed, a new item of a list, a problem not said yet (after the player's own request, its problems again).
  function announce(when) {
    var news = [];
    document.querySelectorAll("#main [data-announce]").forEach(function (item) {
      var name = item.dataset.announce;
      if (item.hasAttribute("data-each")) {
        // A list whose new items are news, each on its own ("Ben is ready: 2 of 3."), the others not again.
        var key = "each:" + name, before = announced[key], now = {};
        item.querySelectorAll("[data-item]").forEach(function (part) {
          now[part.dataset.item] = true;
          if (before && !before[part.dataset.item] && when !== "load") news.push(sk.textOf(part));
        });
        announced[key] = now;
        return;
      }
      var text = sk.textOf(item);
      if (when !== "load" && name in announced && announced[name] !== text) news.push(text);
      announced[name] = text;
    });
    // Every problem shown (a page has an empty one standing by), each once.
    var problems = [];
    document.querySelectorAll("#main .problems").forEach(function (element) {
      var text = sk.textOf(element);
      if (text && problems.indexOf(text) < 0) problems.push(text);
    });
    var fresh = when === "reply" ? problems : problems.filter(function (text) { return problemsSaid.indexOf(text) < 0; });
    problemsSaid = problems;
    if (when === "load") return;
    if (fresh.length) sk.feel("refused");
    say(document.getElementById("announce-urgent"), fresh.join(" "));
    say(document.getElementById("announce-polite"), news.join(" "));
  }
  htmx.defineExtension("announce", { init: function () { sk.announce = announce; } });
})();
