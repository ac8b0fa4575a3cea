// The count felt and heard, on a device whose player asked for it (the header's toggle; off until then): a short
// vibration and a short sound for YO, HO and HO, the reveal, "your turn" and a refusal. The page script loads this
// once the toggle is on and calls feelIt at each of those moments; its sounds are the app's own
// (static/sounds, made by tools/make_sounds.py).
(function () {
  "use strict";
  if (window.feelIt) return;
  // The sounds beside this script, in static/sounds.
  var here = document.currentScript.src;
  // How long each buzzes, in milliseconds: the last HO longer, the reveal a ripple, a refusal one long one.
  var buzz = { yo: 60, ho: 60, ho2: 140, reveal: [40, 60, 40, 60, 120], turn: [80, 80, 80], refused: 250 };
  window.feelIt = function (what) {
    if (navigator.vibrate) navigator.vibrate(buzz[what] || 60);
    // A browser that plays nothing before the first touch says so through the promise: the vibration is enough.
    new Audio(new URL("sounds/" + (what === "ho2" ? "ho" : what) + ".wav", here)).play().catch(function () {});
  };
})();
