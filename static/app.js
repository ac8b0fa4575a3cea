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
