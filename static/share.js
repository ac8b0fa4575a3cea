// "Share" on a game's end: a picture of the final standings (a PNG 1080 px wide, drawn here from the page's own
// leaderboard) with the game's name and date, handed to the phone's share sheet where the browser takes files, else
// downloaded. Loaded by the page script on the first tap of Share; it sets itself up once.
(function () {
  "use strict";
  if (window.shareResult) return;
  var WIDTH = 1080, ROW = 96, TOP = 330;
  var INK = "#1f2633", PAPER = "#f6efdf", BRASS = "#8a6417", LINE = "#d9ccb0";

  function textOf(cell) {
    var copy = cell.cloneNode(true);
    copy.querySelectorAll("[aria-hidden], .sr-only, .provisional").forEach(function (part) { part.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  // The final standings as the page shows them: rank, name, total.
  function standings() {
    return Array.prototype.map.call(document.querySelectorAll("#main .leaderboard tbody tr"), function (row) {
      return [textOf(row.querySelector(".rank")), textOf(row.querySelector("th")), textOf(row.querySelector(".total"))];
    });
  }
  function fitted(context, text, width) {
    while (text.length > 1 && context.measureText(text).width > width) text = text.slice(0, -2) + "…";
    return text;
  }
  function draw(button, rows) {
    var canvas = document.createElement("canvas");
    canvas.width = WIDTH;
    canvas.height = TOP + rows.length * ROW + 90;
    var c = canvas.getContext("2d");
    c.fillStyle = PAPER;
    c.fillRect(0, 0, canvas.width, canvas.height);
    c.fillStyle = INK;
    c.fillRect(0, 0, WIDTH, 150);
    c.fillStyle = PAPER;
    c.font = "bold 64px system-ui, sans-serif";
    c.fillText(fitted(c, button.dataset.title, WIDTH - 120), 60, 98);
    c.fillStyle = BRASS;
    c.font = "36px system-ui, sans-serif";
    c.fillText(button.dataset.date, 60, 215);
    c.fillStyle = INK;
    c.font = "bold 46px system-ui, sans-serif";
    c.fillText(button.dataset.heading, 60, 285);
    rows.forEach(function (row, i) {
      var y = TOP + i * ROW;
      c.fillStyle = i === 0 ? "#efe1bd" : i % 2 ? "#fbf6ea" : PAPER;
      c.fillRect(40, y, WIDTH - 80, ROW - 8);
      c.fillStyle = INK;
      c.font = (row[0] === "1" ? "bold " : "") + "48px system-ui, sans-serif";
      c.textAlign = "left";
      c.fillText(row[0], 70, y + 62);
      c.fillText(fitted(c, row[1], WIDTH - 460), 160, y + 62);
      c.textAlign = "right";
      c.font = "bold 52px system-ui, sans-serif";
      c.fillText(row[2], WIDTH - 70, y + 64);
    });
    c.textAlign = "left";
    c.strokeStyle = LINE;
    c.strokeRect(40, TOP - 8, WIDTH - 80, rows.length * ROW + 8);
    return canvas;
  }
  window.shareResult = function (button) {
    draw(button, standings()).toBlob(function (blob) {
      var file = new File([blob], button.dataset.file, { type: "image/png" });
      if (navigator.canShare && navigator.canShare({ files: [file] })) {
        // Put away without sharing, or refused: nothing more to do.
        navigator.share({ files: [file], title: button.dataset.title }).catch(function () {});
        return;
      }
      var link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = button.dataset.file;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
    }, "image/png");
  };
})();
