// Polls running jobs and updates their progress bars; reloads the page when one ends.
// Without JavaScript the page refreshes itself every two seconds instead (a <noscript> meta refresh).
(function () {
  "use strict";
  var bars = Array.prototype.slice.call(document.querySelectorAll("progress[data-poll]"));
  if (!bars.length) return;
  async function poll() {
    for (var i = 0; i < bars.length; i++) {
      try {
        var response = await fetch(bars[i].dataset.poll, { credentials: "same-origin" });
        var status = await response.json();
        bars[i].value = status.done;
        var text = bars[i].parentNode.querySelector(".job-text");
        var running = "running: " + status.done.toLocaleString("en") + " of " + status.games.toLocaleString("en") + " games";
        if (text) text.textContent = status.status === "queued" ? (status.waiting || "queued: waiting for a worker")
          : (status.waiting ? running + " \u2014 " + status.waiting : running);
        if (status.status !== "queued" && status.status !== "running") { window.location.reload(); return; }
      } catch (e) { /* try again on the next tick */ }
    }
    setTimeout(poll, 1000);
  }
  setTimeout(poll, 500);
})();
