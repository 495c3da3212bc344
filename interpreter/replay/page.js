// The replay page: shows one step of the battle at a time. Everything it draws was made by
// interpreter/replay/draw.py; this script only moves the units' groups, swaps their
// footprints and tooltips, shows the step's arrows and the log up to it.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var steps = data.steps;
  var groups = {};
  document.querySelectorAll("#units g.unit").forEach(function (g) {
    groups[g.getAttribute("data-unit")] = g;
  });
  var marks = document.getElementById("marks");
  var slider = document.getElementById("slider");
  var log = document.getElementById("log");
  var current = 0;
  // the narrated log, one block of lines per step, shown up to the current step
  var chunks = steps.map(function (step) {
    var chunk = document.createElement("div");
    chunk.className = "chunk";
    step.lines.forEach(function (line, i) {
      var div = document.createElement("div");
      div.textContent = line;
      if (i === step.lines.length - 1) {
        div.className = "line-of-step";
      }
      chunk.appendChild(div);
    });
    log.appendChild(chunk);
    return chunk;
  });

  function show(k) {
    k = Math.max(0, Math.min(steps.length - 1, k));
    var step = steps[k];
    var seen = {};
    step.units.forEach(function (u) {
      // [id, x, y on the page, facing, footprint, tooltip]
      var g = groups[u[0]];
      var body = g.querySelector(".body");
      seen[u[0]] = true;
      g.style.display = "";
      g.setAttribute("transform", "translate(" + u[1] + " " + u[2] + ")");
      body.setAttribute("transform", "rotate(" + u[3] + ")");
      if (body.getAttribute("data-footprint") !== String(u[4])) {
        body.innerHTML = data.footprints[u[4]];
        body.setAttribute("data-footprint", String(u[4]));
      }
      g.querySelector("title").textContent = data.tooltips[u[5]];
    });
    Object.keys(groups).forEach(function (id) {
      if (!seen[id]) {
        groups[id].style.display = "none";
      }
    });
    marks.innerHTML = step.marks;
    slider.value = String(k);
    document.getElementById("counter").textContent = "step " + k + " of " + (steps.length - 1);
    document.getElementById("title").textContent = step.title;
    chunks.forEach(function (chunk, i) {
      chunk.style.display = i > k ? "none" : "";
      chunk.classList.toggle("current", i === k);
    });
    log.scrollTop = log.scrollHeight;
    document.body.setAttribute("data-step", String(k));
    document.body.setAttribute("data-seq", String(step.seq));
    current = k;
  }

  function roundStart(k, direction) {
    // the first step of the next (or this, or the previous) battle round
    var r = steps[k].round;
    var i = k;
    if (direction > 0) {
      while (i < steps.length - 1 && steps[i].round === r) { i += 1; }
      return i;
    }
    while (i > 0 && steps[i - 1].round === r) { i -= 1; }
    if (i === k && i > 0) {
      return roundStart(i - 1, -1);
    }
    return i;
  }

  var keys = {
    ArrowRight: function () { return current + 1; },
    ArrowLeft: function () { return current - 1; },
    Home: function () { return 0; },
    End: function () { return steps.length - 1; },
    PageDown: function () { return roundStart(current, 1); },
    PageUp: function () { return roundStart(current, -1); }
  };
  document.addEventListener("keydown", function (event) {
    var go = keys[event.key];
    if (go && event.target !== slider) {
      event.preventDefault();
      show(go());
    }
  });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  [["first", "Home"], ["back", "PageUp"], ["prev", "ArrowLeft"], ["next", "ArrowRight"],
   ["forward", "PageDown"], ["last", "End"]].forEach(function (pair) {
    document.getElementById(pair[0]).addEventListener("click", function () {
      show(keys[pair[1]]());
    });
  });
  var hover = document.getElementById("hover");
  Object.keys(groups).forEach(function (id) {
    groups[id].addEventListener("mouseenter", function () {
      hover.textContent = groups[id].querySelector("title").textContent;
    });
  });
  // page.html#120 opens at step 120
  var asked = /^#(\d+)$/.exec(window.location.hash);
  show(asked ? Number(asked[1]) : data.start);
}());
