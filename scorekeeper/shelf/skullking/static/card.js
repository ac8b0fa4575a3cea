// Skull King's own script, loaded with its pages after the table's: a phone whose result card opens (the bids
// shown, the page opened on it) shows it from its heading, once per hand: with ten cards and every bonus the card
// fills a phone, and Done is then on the screen. Run after each redraw (the table's "sk:redrawn") and once as it
// loads (a page opened by htmx brings it after it is drawn). A page swapped in loads it again: set up once.
(function () {
  "use strict";
  if (window.skullKingCard) return;
  window.skullKingCard = true;

  let resultShown = null;
  function showResultCard() {
    const form = document.querySelector("#card form.thumb");
    if (!form || innerWidth > 600 || resultShown === form.action) return;
    resultShown = form.action;
    // After whatever else places the page now (htmx's scroll to the top of a page it opens, the browser's own);
    // then a little more, if that brings Done on the screen and keeps every tricks key there.
    setTimeout(() => {
      form.parentNode.scrollIntoView();
      const below = form.querySelector(".done-button").getBoundingClientRect().bottom - innerHeight;
      if (below > 0 && form.querySelector(".tricks-pad").getBoundingClientRect().top >= below) scrollBy(0, below);
    });
  }
  document.addEventListener("sk:redrawn", showResultCard);
  if (document.readyState !== "loading") showResultCard();
})();
