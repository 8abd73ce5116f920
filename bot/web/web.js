// candybot's web companion: a game's page follows the game, a replay steps without
// reloading. Everything from the server is written as text (textContent), never as HTML.
"use strict";
(() => {
  const body = document.body;
  const $ = (id) => document.getElementById(id);

  const localTimes = () => {
    for (const t of document.querySelectorAll("time[datetime]")) {
      const when = new Date(t.getAttribute("datetime"));
      if (!Number.isNaN(when.getTime())) t.textContent = when.toLocaleString();
    }
  };

  const stamp = (unix) => {
    const t = document.createElement("time");
    t.setAttribute("datetime", new Date(unix * 1000).toISOString());
    t.textContent = new Date(unix * 1000).toLocaleString();
    return t;
  };

  const show = (d) => {
    $("turn").textContent = d.turn;
    const since = $("since");
    if (d.since) {
      since.replaceChildren("Their turn since ", stamp(d.since), ".");
      since.hidden = false;
    } else {
      since.hidden = true;
    }
    const board = $("board");
    board.alt = d.alt;
    board.src = d.board;
    const rows = d.players.map((p) => {
      const tr = document.createElement("tr");
      const who = document.createElement("td");
      who.textContent = p.name;
      const score = document.createElement("td");
      score.textContent = String(p.score);
      const now = document.createElement("td");
      now.textContent = p.now;
      tr.append(who, score, now);
      return tr;
    });
    $("players").replaceChildren(...rows);
    const moves = $("moves");
    moves.start = d.start;
    moves.replaceChildren(...d.moves.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
  };

  const follow = (url, version) => {
    const tick = async () => {
      try {
        const answer = await fetch(url + "?v=" + version, { cache: "no-store" });
        if (answer.ok) {
          const d = await answer.json();
          if (d.version !== version) {
            version = d.version;
            show(d);
          }
          if (d.status !== "active") return;
        }
      } catch (e) {
        // a lost connection: try again at the next tick
      }
      setTimeout(tick, 1000);
    };
    setTimeout(tick, 1000);
  };

  const stepper = (base, move, last) => {
    const board = $("board");
    const slider = $("slider");
    const links = document.querySelectorAll("#all a");
    const targets = { first: () => 0, back: () => move - 1, next: () => move + 1, last: () => last };
    let asked = move;

    const mark = () => {
      $("where").textContent = "Move " + move + " of " + last;
      slider.value = String(move);
      for (const a of document.querySelectorAll("[data-step]")) {
        const to = Math.max(0, Math.min(last, targets[a.dataset.step]()));
        a.href = "?move=" + to;
        if (to === move) a.setAttribute("aria-disabled", "true");
        else a.removeAttribute("aria-disabled");
      }
      links.forEach((a, i) => {
        if (i + 1 === move) a.setAttribute("aria-current", "step");
        else a.removeAttribute("aria-current");
      });
    };

    const go = async (to) => {
      to = Math.max(0, Math.min(last, to));
      if (to === asked) return;
      asked = to;
      try {
        const answer = await fetch(base + to + ".json");
        if (!answer.ok || asked !== to) return;
        const d = await answer.json();
        if (asked !== to) return;
        move = to;
        board.alt = d.alt;
        board.src = base + to + ".png";
        $("told").textContent = d.told;
        history.replaceState(null, "", "?move=" + to);
        mark();
      } catch (e) {
        asked = move;
      }
    };

    for (const a of document.querySelectorAll("[data-step]")) {
      a.addEventListener("click", (event) => {
        event.preventDefault();
        go(targets[a.dataset.step]());
      });
    }
    slider.addEventListener("input", () => go(Number(slider.value)));
    document.addEventListener("keydown", (event) => {
      if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
      const to = { ArrowLeft: move - 1, ArrowRight: move + 1, Home: 0, End: last }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      go(to);
    });
    mark();
  };

  localTimes();
  if (body.dataset.live) follow(body.dataset.live, Number(body.dataset.version));
  if (body.dataset.replay) {
    stepper(body.dataset.replay, Number(body.dataset.move), Number(body.dataset.last));
  }
})();
