// The keypad of a count: a stepper adds or takes one within the input's bounds, a setter puts its value; either
// changes the input as typing would, so its form saves it. An htmx extension, set up once.
(() => {
  "use strict";
  function pressed({ target }) {
    const step = target.closest("button.step"), setter = target.closest("button[data-set]");
    const input = sk.byId(step ? step.getAttribute("aria-controls") : setter?.dataset.set);
    if (!input) return;
    if (step) {
      if (step.dataset.step < 0) input.stepDown(); else input.stepUp();
      // What shows the count as taken (a game's face of a card, marked `data-count-mark`) follows it at once.
      input.closest("[data-count-mark]")?.classList.toggle("counted", input.value !== "0");
    } else input.value = setter.dataset.value;
    sk.changed(input);
  }
  htmx.defineExtension("keypad", { init() { document.addEventListener("click", pressed); } });
})();
