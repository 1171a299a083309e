// The set editor's keyboard, as in a spreadsheet: Enter goes down a column (Shift+Enter up), arrows
// move between cells, Tab stays within the row being edited (the other rows leave the tab order, so
// the source and Send are a few Tabs away), Ctrl+Up/Down jump to the column's first/last card,
// Ctrl+Enter or Ctrl+S saves, choice cells complete as you type, a pasted column fills the cells
// below, and the *Go to number* box jumps without reloading. Without this script the grid is a
// plain form that works the same. Every key costs the same however large the set: a handler looks
// at the cell it is in and its neighbours, never at the whole grid (a 234-card set has ~4,000 cells).
(function () {
  "use strict";
  var grid = document.getElementById("se-grid");
  if (!grid) return;
  var form = grid.closest("form");
  var status = document.getElementById("se-changed");
  var CELLS = "input, textarea";

  function field(cell) { return cell ? cell.querySelector(CELLS) : null; }
  function rowFields(tr) { return tr ? tr.querySelectorAll(CELLS) : []; }

  // The next (or previous) row of the grid, across its two bodies (the set's cards, then new cards).
  function nextRow(tr, dr) {
    var next = dr > 0 ? tr.nextElementSibling : tr.previousElementSibling;
    if (next) return next;
    var body = dr > 0 ? tr.parentElement.nextElementSibling : tr.parentElement.previousElementSibling;
    while (body && body.tagName !== "TBODY") body = dr > 0 ? body.nextElementSibling : body.previousElementSibling;
    return body ? (dr > 0 ? body.firstElementChild : body.lastElementChild) : null;
  }
  function edgeRow(dr) {
    var bodies = grid.tBodies;
    for (var i = 0; i < bodies.length; i++) {
      var body = bodies[dr > 0 ? bodies.length - 1 - i : i];
      var tr = dr > 0 ? body.lastElementChild : body.firstElementChild;
      if (tr) return tr;
    }
    return null;
  }
  function column(el) { var td = el.closest("td, th"); return Array.prototype.indexOf.call(td.parentElement.children, td); }

  function focusCell(next) {
    if (!next) return false;
    next.focus();
    if (next.select && next.type !== "file") next.select();
    return true;
  }
  // The field `dr` rows away in the same column (rows without one there are skipped).
  function below(el, dr) {
    var c = column(el), tr = el.closest("tr");
    for (tr = nextRow(tr, dr); tr; tr = nextRow(tr, dr)) {
      var f = field(tr.children[c]);
      if (f) return f;
    }
    return null;
  }
  function beside(el, dc) {
    var tr = el.closest("tr");
    for (var c = column(el) + dc; c >= 0 && c < tr.children.length; c += dc) {
      var f = field(tr.children[c]);
      if (f) return f;
    }
    return null;
  }
  function edge(el, dr) {
    var c = column(el);
    for (var tr = edgeRow(dr); tr; tr = nextRow(tr, -dr)) {
      var f = field(tr.children[c]);
      if (f) return f;
    }
    return null;
  }

  // Roving tab order: only the row being edited is in it.
  var active = null;
  function enterRow(tr) {
    if (tr === active) return;
    var i, fields = rowFields(active);
    for (i = 0; i < fields.length; i++) fields[i].tabIndex = -1;
    fields = rowFields(tr);
    for (i = 0; i < fields.length; i++) fields[i].removeAttribute("tabindex");
    active = tr;
  }
  var all = grid.querySelectorAll("tbody " + CELLS);
  for (var i = 0; i < all.length; i++) all[i].tabIndex = -1;
  enterRow(grid.tBodies[0] && grid.tBodies[0].firstElementChild);
  grid.addEventListener("focusin", function (e) { var tr = e.target.closest("tbody tr"); if (tr) enterRow(tr); });

  function atEdge(el, side) {
    if (el.type === "file" || el.selectionStart === null) return true;
    if (el.selectionStart !== el.selectionEnd) return false;
    return side < 0 ? el.selectionStart === 0 : el.selectionEnd === el.value.length;
  }

  function save() {
    var source = form.querySelector("input[name=source_kind]:checked");
    if (!source) {
      var first = form.querySelector("input[name=source_kind]");
      if (status) status.textContent = "Choose where these facts come from, then save again.";
      if (first) first.focus();
      return;
    }
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }
  form.addEventListener("keydown", function (e) {
    var key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && !e.altKey && (key === "s" || key === "enter")) { e.preventDefault(); save(); }
  });

  grid.addEventListener("keydown", function (e) {
    var el = e.target;
    if (!el.matches(CELLS) || e.altKey || e.metaKey) return;
    var multi = el.tagName === "TEXTAREA", next = null, handled = true;
    if (e.ctrlKey) {
      if (e.key === "ArrowUp") next = edge(el, -1);
      else if (e.key === "ArrowDown") next = edge(el, 1);
      else return;
    } else if (e.key === "Enter" && !(multi && e.shiftKey)) next = below(el, e.shiftKey ? -1 : 1);
    else if (e.key === "ArrowDown" && !(multi && el.value.slice(el.selectionEnd).indexOf("\n") >= 0)) next = below(el, 1);
    else if (e.key === "ArrowUp" && !(multi && el.value.slice(0, el.selectionStart).indexOf("\n") >= 0)) next = below(el, -1);
    else if (e.key === "ArrowLeft" && atEdge(el, -1)) next = beside(el, -1);
    else if (e.key === "ArrowRight" && atEdge(el, 1)) next = beside(el, 1);
    else handled = false;
    // Enter never submits from the grid, even on the last row
    if (handled && (focusCell(next) || e.key === "Enter")) e.preventDefault();
  });

  // Changed cells are counted as they change: one cell's comparison a key, not the whole grid's.
  var changedCells = new Set();
  function changed(el) { return el.type !== "file" && el.value.trim() !== el.defaultValue.trim(); }
  function note(el) {
    var before = changedCells.size;
    if (changed(el)) changedCells.add(el); else changedCells.delete(el);
    var n = changedCells.size;
    if (status && n !== before) status.textContent = n ? n + " cell" + (n === 1 ? "" : "s") + " changed." : "";
  }

  // Choice cells: typing a prefix fills in the first choice it starts, the rest selected.
  var choices = {};
  function options(id) {
    if (!choices[id]) {
      choices[id] = Array.prototype.map.call(document.getElementById(id).options, function (o) { return o.value; });
    }
    return choices[id];
  }
  grid.addEventListener("input", function (e) {
    var el = e.target, id = el.getAttribute("list");
    if (id && e.inputType === "insertText") {
      var typed = el.value, low = typed.toLowerCase(), list = options(id);
      for (var i = 0; i < list.length; i++) {
        if (low && list[i].toLowerCase().indexOf(low) === 0 && list[i].length > typed.length) {
          el.value = list[i];  // in the choice's own spelling; the rest stays selected to type over
          el.setSelectionRange(typed.length, list[i].length);
          break;
        }
      }
    }
    note(el);
  });
  grid.addEventListener("change", function (e) {
    var el = e.target, td = el.closest("td, th");
    if (td) td.classList.toggle("se-changed", changed(el) || (el.type === "file" && el.files.length > 0));
    note(el);
  });

  // A paste of several lines (a column copied from a spreadsheet) fills this cell and the ones
  // below it; tab-separated values on a line fill the cells to the right.
  grid.addEventListener("paste", function (e) {
    var el = e.target, text = e.clipboardData && e.clipboardData.getData("text/plain");
    if (!el.matches(CELLS) || el.type === "file" || !text) return;
    var lines = text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
    if (lines.length < 2 && text.indexOf("\t") < 0) return;
    e.preventDefault();
    var start = el, last = el;
    for (var r = 0; r < lines.length && start; r++) {
      var cell = start, values = lines[r].split("\t");
      for (var c = 0; c < values.length && cell; c++) {
        if (cell.type !== "file") {
          cell.value = values[c].trim();
          cell.closest("td, th").classList.toggle("se-changed", changed(cell));
          note(cell);
          last = cell;
        }
        if (c + 1 < values.length) cell = beside(cell, 1);
      }
      if (r + 1 < lines.length) start = below(start, 1);
    }
    focusCell(last);
  });

  // Go to number: focus that card's row in the column being edited, without a page load.
  var goto = document.getElementById("se-goto");
  var lastCell = null;
  grid.addEventListener("focusin", function (e) { if (e.target.matches(CELLS)) lastCell = e.target; });
  function anchor(number) {
    var text = number.trim().toLowerCase();
    if (/^[0-9]+$/.test(text)) text = text.replace(/^0+/, "") || text;
    return "no-" + text.replace(/[^a-z0-9_-]/g, "-");
  }
  if (goto) goto.form.addEventListener("submit", function (e) {
    var tr = goto.value.trim() && document.getElementById(anchor(goto.value));
    if (!tr) return;  // the server says no such number
    e.preventDefault();
    var c = lastCell && lastCell.closest("#se-grid") ? column(lastCell) : -1;
    var target = (c >= 0 && field(tr.children[c])) || tr.querySelector(CELLS);
    tr.scrollIntoView({ block: "center" });
    focusCell(target);
  });

  // Send only the cells that changed (the server compares them anyway; this keeps the request small).
  form.addEventListener("submit", function () {
    Array.prototype.forEach.call(grid.querySelectorAll("tbody:first-of-type input:not([type=file]), tbody:first-of-type textarea"),
      function (el) { if (!changed(el)) el.disabled = true; });
  });
  window.addEventListener("pageshow", function () {
    Array.prototype.forEach.call(grid.querySelectorAll("[disabled]"), function (el) { el.disabled = false; });
  });
})();
