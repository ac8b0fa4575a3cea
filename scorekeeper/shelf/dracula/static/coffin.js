// Dracula's coffin: a rank, then a suit, fills the marked place and moves the mark to the next
// empty one (the centre first); tapping a place marks it. Typing works as well. Loaded by the
// round's page; a page swapped in by htmx loads it again, so it sets itself up once.
(function () {
  "use strict";
  if (window.draculaCoffin) return;
  window.draculaCoffin = true;

  var pendingRank = null;
  function coffinCells() {
    var coffin = document.querySelector(".coffin[data-order]");
    if (!coffin) return [];
    return coffin.dataset.order.split(",").map(function (i) { return document.getElementById("cell-" + i); });
  }
  function markedCell() {
    var marked = document.querySelector(".coffin .cell.marked input");
    if (marked && !marked.value) return marked;
    var empty = coffinCells().filter(function (cell) { return cell && !cell.value; });
    return empty.length ? empty[0] : marked;
  }
  function mark(input) {
    document.querySelectorAll(".coffin .cell.marked").forEach(function (cell) { cell.classList.remove("marked"); });
    if (input) input.closest(".cell").classList.add("marked");
  }
  function place(code) {
    var cell = markedCell();
    if (!cell) return;
    cell.value = code;
    mark(null);
    mark(markedCell());
  }
  function pickCard(event) {
    var cell = event.target.closest(".coffin .cell");
    if (cell) { mark(cell.querySelector("input")); return; }
    var rank = event.target.closest("[data-rank]");
    if (rank) {
      pendingRank = rank.dataset.rank;
      document.querySelectorAll("[data-rank]").forEach(function (b) { b.setAttribute("aria-pressed", b === rank ? "true" : "false"); });
      return;
    }
    var suit = event.target.closest("[data-suit]");
    if (suit && pendingRank) {
      place(pendingRank + suit.dataset.suit);
      pendingRank = null;
      document.querySelectorAll("[data-rank]").forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
      return;
    }
    var whole = event.target.closest("[data-card]");
    if (whole) { place(whole.dataset.card); return; }
    if (event.target.closest("[data-clear]")) {
      var marked = document.querySelector(".coffin .cell.marked input") || markedCell();
      if (marked) marked.value = "";
    }
  }
  function markFirstCell() {
    if (!document.querySelector(".coffin .cell.marked")) mark(markedCell());
  }

  document.addEventListener("click", pickCard);
  document.addEventListener("htmx:afterSettle", markFirstCell);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markFirstCell);
  else markFirstCell();
})();
