// Progressive enhancement for the goldfish board: actions post in the background and the board is
// redrawn in place (no page jump); "u" undoes, "e" takes the main action (end the phase), "?" shows
// the shortcuts (a <details> list that also opens by a click without this script).
// Without this script every button is a plain form post, and the page works the same.
(function () {
  "use strict";
  function flashes(doc) {
    var fresh = doc.querySelector(".flashes"), old = document.querySelector(".flashes");
    if (old) old.remove();
    if (fresh) document.querySelector("main").prepend(fresh);
  }
  async function submit(form) {
    var board = document.getElementById("board");
    board.setAttribute("aria-busy", "true");
    try {
      // form.action would be the <input name="action"> of an action form: read the attribute
      var response = await fetch(form.getAttribute("action"), { method: "POST", body: new FormData(form), credentials: "same-origin" });
      var html = await response.text();
      var doc = new DOMParser().parseFromString(html, "text/html");
      var next = doc.getElementById("board");
      if (!next) { window.location = response.url; return; }
      board.replaceWith(next);
      flashes(doc);
      if (response.url && response.url !== window.location.href.split("#")[0]) {
        history.replaceState(null, "", response.url.split("#")[0]);
      }
    } catch (e) {
      form.submit();
    }
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.closest("#board") || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
    event.preventDefault();
    submit(form);
  });
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea" || event.ctrlKey || event.metaKey || event.altKey) return;
    var help = document.getElementById("shortcuts");
    if (help && (event.key === "?" || (event.key === "Escape" && help.open))) {
      event.preventDefault();
      help.open = event.key === "?" ? !help.open : false;
      return;
    }
    var button = null;
    if (event.key === "u") button = document.querySelector('#board button[data-key="u"]:not([disabled])');
    if (event.key === "e") button = document.querySelector("#board .general-actions button.primary");
    if (button) { event.preventDefault(); button.click(); }
  });
  // a tile's text closes on a click or tap (it covered the next card and the phase buttons) and on
  // Escape, and may open again once the pointer has left the tile
  function tileOf(node) { return node && node.closest ? node.closest("#board .tile") : null; }
  document.addEventListener("click", function (event) {
    var tile = tileOf(event.target);
    if (tile) tile.classList.add("quiet");
  }, true);
  document.addEventListener("pointerout", function (event) {
    var tile = tileOf(event.target);
    if (tile && !tile.contains(event.relatedTarget)) tile.classList.remove("quiet");
  });
  document.addEventListener("keydown", function (event) {
    var tile = event.key === "Escape" ? tileOf(document.activeElement) : null;
    if (tile) tile.classList.add("quiet");
  });
})();
