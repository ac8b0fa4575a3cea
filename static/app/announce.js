// A screen reader hears what changed under it: the page marks its news with data-announce, and a live region that
// stays put (new live regions are often not read) says what is new, once. Problems are said when they change, and
// again after the player's own tap. An htmx extension; the page script calls `sk.announce` after every redraw.
(() => {
  "use strict";
  const announced = {};
  let problemsSaid = [];
  // A standing live region says `text`: emptied first, so that it is said again when it holds it already.
  function say(region, text) {
    if (!text) return;
    region.textContent = "";
    setTimeout(() => { region.textContent = text; }, 50);
  }
  // `when`: "load" (a page opened: what it shows is read by the reader, nothing is said), "reply" (the answer to
  // this browser's own request), "redraw" (a push, an autosave). What changed is said once: a news item whose text
  // changed, a new item of a list, a problem not said yet (after the player's own request, its problems again).
  function announce(when) {
    const news = [], all = (selector, within = document) => [...within.querySelectorAll(selector)];
    for (const item of all("#main [data-announce]")) {
      const name = item.dataset.announce;
      if (item.hasAttribute("data-each")) {
        // A list whose new items are news, each on its own ("Ben is ready: 2 of 3."), the others not again.
        const before = announced["each:" + name], now = announced["each:" + name] = {};
        for (const part of all("[data-item]", item)) {
          now[part.dataset.item] = true;
          if (before && !before[part.dataset.item] && when !== "load") news.push(sk.textOf(part));
        }
        continue;
      }
      const text = sk.textOf(item);
      if (when !== "load" && name in announced && announced[name] !== text) news.push(text);
      announced[name] = text;
    }
    // Every problem shown (a page has an empty one standing by), each once.
    const problems = [...new Set(all("#main .problems").map(sk.textOf).filter(Boolean))];
    const fresh = when === "reply" ? problems : problems.filter((text) => !problemsSaid.includes(text));
    problemsSaid = problems;
    if (when === "load") return;
    if (fresh.length) sk.feel("refused");
    say(sk.byId("announce-urgent"), fresh.join(" "));
    say(sk.byId("announce-polite"), news.join(" "));
  }
  htmx.defineExtension("announce", { init() { sk.announce = announce; } });
})();
