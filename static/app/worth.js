// What a bid is worth: each bid key carries its words (`data-worth`, from the game's own scoring); the key pointed
// at, focused or tapped shows them at once beside its keys, without a request, and the bid chosen once the pointer or
// focus leaves. An htmx extension, set up once.
(() => {
  "use strict";
  function shown(key) {
    return key?.closest("form")?.querySelector(".worth");
  }
  function point({ target }) {
    const key = target.closest?.("button[data-worth]"), place = shown(key);
    if (place) place.textContent = key.dataset.worth;
  }
  function leave({ target }) {
    const key = target.closest?.("button[data-worth]"), place = shown(key);
    if (!place) return;
    const chosen = key.closest("fieldset").querySelector("button[data-worth][aria-pressed=true]");
    place.textContent = chosen ? chosen.dataset.worth : place.dataset.none;
  }
  htmx.defineExtension("worth", {
    init() {
      for (const name of ["pointerover", "focusin", "click"]) document.addEventListener(name, point);
      for (const name of ["pointerout", "focusout"]) document.addEventListener(name, leave);
    },
  });
})();
