// The set editor's keyboard: arrows and Enter move between cells, choice cells complete as you
// type, changed cells are counted. Without this script the grid is a plain form that works the same.
(function () {
  "use strict";
  var grid = document.getElementById("se-grid");
  if (!grid) return;
  var status = document.getElementById("se-changed");

  function field(cell) { return cell && cell.querySelector("input, textarea"); }
  function rows() { return Array.prototype.slice.call(grid.querySelectorAll("tbody tr")); }
  function at(rowList, r, c) { var row = rowList[r]; return row ? field(row.children[c]) : null; }
  function place(el) { var td = el.closest("td, th"); var tr = td.parentElement;
    return { r: rows().indexOf(tr), c: Array.prototype.indexOf.call(tr.children, td) }; }

  function move(el, dr, dc) {
    var list = rows(), p = place(el), r = p.r, c = p.c, next = null;
    if (dr) {
      for (r = p.r + dr; r >= 0 && r < list.length && !next; r += dr) next = at(list, r, c);
    } else {
      var row = list[r];
      for (c = p.c + dc; c >= 0 && c < row.children.length && !next; c += dc) next = field(row.children[c]);
    }
    if (next) { next.focus(); if (next.select && next.type !== "file") next.select(); }
    return !!next;
  }

  function atEdge(el, side) {
    if (el.type === "file" || el.selectionStart === null) return true;
    if (el.selectionStart !== el.selectionEnd) return false;
    return side < 0 ? el.selectionStart === 0 : el.selectionEnd === el.value.length;
  }

  grid.addEventListener("keydown", function (e) {
    var el = e.target;
    if (!el.matches("input, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
    var multi = el.tagName === "TEXTAREA";
    var moved = false;
    if (e.key === "Enter" && !(multi && e.shiftKey)) moved = move(el, e.shiftKey ? -1 : 1, 0) || true;
    else if (e.key === "ArrowDown" && !(multi && el.value.slice(el.selectionEnd).indexOf("\n") >= 0)) moved = move(el, 1, 0);
    else if (e.key === "ArrowUp" && !(multi && el.value.slice(0, el.selectionStart).indexOf("\n") >= 0)) moved = move(el, -1, 0);
    else if (e.key === "ArrowLeft" && atEdge(el, -1)) moved = move(el, 0, -1);
    else if (e.key === "ArrowRight" && atEdge(el, 1)) moved = move(el, 0, 1);
    if (moved) e.preventDefault();
  });

  // Choice cells: typing a prefix fills in the first choice it starts, the rest selected.
  grid.addEventListener("input", function (e) {
    var el = e.target, id = el.getAttribute("list");
    if (id && e.inputType === "insertText") {
      var typed = el.value, low = typed.toLowerCase();
      var options = document.getElementById(id).options;
      for (var i = 0; i < options.length; i++) {
        var choice = options[i].value;
        if (low && choice.toLowerCase().indexOf(low) === 0 && choice.length > typed.length) {
          el.value = choice;  // in the choice's own spelling; the rest stays selected to type over
          el.setSelectionRange(typed.length, choice.length);
          break;
        }
      }
    }
    count();
  });

  function changed(el) { return el.type !== "file" && el.value.trim() !== el.defaultValue.trim(); }
  function count() {
    var n = Array.prototype.filter.call(grid.querySelectorAll("input, textarea"), changed).length;
    if (status) status.textContent = n ? n + " cell" + (n === 1 ? "" : "s") + " changed." : "";
  }
  grid.addEventListener("change", function (e) {
    var td = e.target.closest("td, th");
    if (td) td.classList.toggle("se-changed", changed(e.target) || (e.target.type === "file" && e.target.files.length > 0));
    count();
  });

  // Send only the cells that changed (the server compares them anyway; this keeps the request small).
  grid.closest("form").addEventListener("submit", function () {
    Array.prototype.forEach.call(grid.querySelectorAll("tbody:first-of-type input:not([type=file]), tbody:first-of-type textarea"),
      function (el) { if (!changed(el)) el.disabled = true; });
  });
  window.addEventListener("pageshow", function () {
    Array.prototype.forEach.call(grid.querySelectorAll("[disabled]"), function (el) { el.disabled = false; });
  });
})();
