// The keypad of a count: a stepper adds or takes one within the input's bounds, a setter puts its value; either
// changes the input as typing would, so its form saves it. An htmx extension, set up once.
(function () {
  "use strict";
  function pressed(event) {
    var step = event.target.closest("button.step");
    var setter = event.target.closest("button[data-set]");
    var input = document.getElementById(step ? step.getAttribute("aria-controls") : setter ? setter.dataset.set : "");
    if (!input) return;
    if (step) {
      var next = (parseInt(input.value || "0", 10) || 0) + parseInt(step.dataset.step, 10);
      var low = input.min === "" ? -Infinity : parseInt(input.min, 10);
      var high = input.max === "" ? Infinity : parseInt(input.max, 10);
      input.value = String(Math.min(high, Math.max(low, next)));
      var face = input.closest(".count-face");
      if (face) face.classList.toggle("counted", input.value !== "0");
    } else {
      input.value = setter.dataset.value;
    }
    sk.changed(input);
  }
  htmx.defineExtension("keypad", { init: function () { document.addEventListener("click", pressed); } });
})();
